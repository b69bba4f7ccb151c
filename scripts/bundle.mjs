// `npm run build`: the program bundled from its TypeScript sources into dist/bundle/ with
// esbuild, which bin/risklookup.js runs; the type check is `npm run check`'s (tsc). Each start
// of the program otherwise reads ~350 module files (Kysely alone is 264): a CLI command took
// ~0.30 s of CPU, bundled ~0.14 s, and every command, server start and test that runs the
// program pays it (docs/benchmarks.md, "Feedback loop"). The commands stay lazily loaded: each
// dynamic import is a chunk of its own.
//
// Left outside the bundle: native modules (better-sqlite3, @node-rs/argon2, pg's optional
// pg-native), pino (its destinations may run in worker threads that load it by path),
// swagger-ui-dist (static files, found by package path at run time) and pdfkit (its data files,
// found next to its own module; loaded only when a disclosure PDF is made).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

const outdir = 'dist/bundle';
rmSync(outdir, { recursive: true, force: true });
await build({
  // The import's line checker runs in a worker loaded by file name next to its caller
  // (src/import/line-checker.ts): an entry of its own, under the same name.
  // The same for the webhook sender's thread (src/webhooks/attempt-sender.ts) and SQLite's
  // checkpoints' thread (src/db/sqlite-checkpointer.ts), and a fresh load's name indexes' thread
  // (src/db/fresh-name-indexes.ts).
  entryPoints: [
    'src/cli/cli.ts',
    'src/import/line-checker.worker.ts',
    'src/webhooks/sender.worker.ts',
    'src/db/sqlite-checkpointer.worker.ts',
    'src/db/fresh-name-indexes.worker.ts',
  ],
  entryNames: '[name]',
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  external: ['better-sqlite3', '@node-rs/argon2', 'pg-native', 'pino', 'swagger-ui-dist', 'pdfkit'],
  // CommonJS packages inside an ES module bundle call require() for Node's own modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
