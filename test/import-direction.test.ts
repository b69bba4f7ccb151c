/**
 * The import direction (issue 29) is held by the lint rule in eslint.config.js, which `npm run
 * check` runs: a feature that imports the portal, HTTP, CLI or server layers, or config.ts, fails
 * it. Here the project's own ESLint configuration lints planted wrong-way imports in real files'
 * places, and the same files as they are.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';

// Only the direction rule, without type information (building the program takes a minute on a busy machine).
const eslint = new ESLint({
  cwd: process.cwd(),
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
  overrideConfig: { languageOptions: { parserOptions: { project: null, projectService: false } } },
});

/** The `no-restricted-imports` messages for `text` linted as if it were the file at `filePath`. */
async function directionErrors(filePath: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

/** The file as it is, with one import line planted at its top. */
function planted(filePath: string, importLine: string): string {
  return `${importLine}\n${readFileSync(filePath, 'utf8')}`;
}

describe('imports run one way (eslint no-restricted-imports)', () => {
  test('a feature importing the portal, HTTP, CLI, server or config.ts fails the check', async () => {
    const feature = 'src/reports/lifecycle.ts';
    assert.deepEqual(await directionErrors(feature, readFileSync(feature, 'utf8')), [], 'the file as it is passes');
    for (const wrong of [
      "import type { PortalContext } from '../portal/portal-context.ts';",
      "import type { ParsedQuery } from '../http/query-string.ts';",
      "import type { Output } from '../cli/output.ts';",
      "import type { RunningServer } from '../serve/server.ts';",
      "import type { Config } from '../config.ts';",
    ]) {
      const errors = await directionErrors(feature, planted(feature, wrong));
      assert.equal(errors.length, 1, wrong);
      assert.match(errors[0]!, /Imports run one way|does not read config\.ts/);
    }
  });

  test('deeper folders are held too', async () => {
    const deep = 'src/db/migrations/0001-initial.ts';
    const errors = await directionErrors(deep, planted(deep, "import type { PortalDeps } from '../../portal/portal-deps.ts';"));
    assert.equal(errors.length, 1);
  });

  test("a feature's HTTP adapter (*.routes.ts) may use http/, never the portal or config.ts", async () => {
    const route = 'src/search/search.routes.ts';
    assert.deepEqual(await directionErrors(route, readFileSync(route, 'utf8')), [], 'the route as it is passes');
    assert.equal((await directionErrors(route, planted(route, "import type { PortalDeps } from '../portal/portal-deps.ts';"))).length, 1);
    assert.equal((await directionErrors(route, planted(route, "import type { Config } from '../config.ts';"))).length, 1);
  });

  test('lib/ imports nothing of ours outside lib/', async () => {
    const lib = 'src/lib/turkey-time.ts';
    const errors = await directionErrors(lib, planted(lib, "import type { ReportStatus } from '../reports/lifecycle.ts';"));
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /bottom layer/);
  });

  test('the layers that call the features may import them', async () => {
    const portalFile = 'src/portal/home.routes.ts';
    assert.deepEqual(await directionErrors(portalFile, planted(portalFile, "import type { Config } from '../config.ts';")), []);
  });
});
