// typescript-eslint with type-aware rules (`npm run lint`). node:test's describe/test return
// promises that the runner awaits itself: no-floating-promises lets those two go unawaited.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** `no-restricted-imports` patterns refusing a relative import of src/<layer>/… or src/config.ts from a feature folder. */
function directionPatterns(layers) {
  return [
    {
      regex: `^(\\.\\./)+(${layers.join('|')})/`,
      message:
        'Imports run one way: features do not import the portal, HTTP, CLI or server layers (they call the features). ' +
        'Move what both need into the feature or lib/, or pass it in from the caller (src/services.ts, the route).',
    },
    {
      regex: '^(\\.\\./)+config\\.ts$',
      message: 'A feature does not read config.ts: take the value it needs as a parameter (src/services.ts passes it).',
    },
  ];
}

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', '.bench/', '.tmp/', 'clients/typescript/dist/', 'clients/typescript/src/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // The root tsconfig covers src, test, scripts and the client with its tests.
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `const { dropped, ...rest } = row` leaves a field out on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'suite', 'test', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
    },
  },
  // The direction (issue 29, docs/architecture.md "Which way imports run"): a feature folder never
  // imports the layers that call it — the portal, HTTP, the CLI, the server — nor config.ts (the
  // composition root hands it the values it needs). A feature's HTTP adapter (`*.routes.ts`) may use
  // http/; lib/ imports nothing of ours but lib/. Tests are exempt: they drive every layer.
  {
    files: ['src/*/**/*.ts'],
    ignores: ['src/{portal,http,cli,serve}/**', 'src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...directionPatterns(['portal', 'http', 'cli', 'serve'])] }] },
  },
  {
    files: ['src/*/**/*.routes.ts'],
    ignores: ['src/{portal,http,cli,serve}/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...directionPatterns(['portal', 'cli', 'serve'])] }] },
  },
  {
    files: ['src/lib/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./',
              message: 'lib/ is the bottom layer: it imports nothing of ours outside lib/ (move the shared piece into lib/, or the code out of it).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
  // A preload for `node -r` (scripts/bench/statement-times.cjs) is CommonJS.
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
