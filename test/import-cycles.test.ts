/**
 * No import cycles under src/ (issue 29), type-only ones included: scripts/import-cycles.mjs finds
 * them over the TypeScript import graph. A cycle planted in a scratch tree is found, so the check
 * can fail.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain ES module script without type declarations
import { importCycles } from '../scripts/import-cycles.mjs';

type Edge = { from: string; to: string; typeOnly: boolean };
const cyclesOf = importCycles as (dir: string) => Edge[][];

describe('import cycles', () => {
  test('src/ has none, not even through type-only imports', () => {
    assert.deepEqual(cyclesOf('src'), []);
  });

  test('a type-only cycle is found', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport type A = { b?: B };\n");
      writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.ts';\nexport type B = { a?: A };\n");
      writeFileSync(join(dir, 'c.ts'), "import type { A } from './a.ts';\nexport type C = A;\n");
      assert.deepEqual(cyclesOf(dir), [
        [
          { from: 'a.ts', to: 'b.ts', typeOnly: true },
          { from: 'b.ts', to: 'a.ts', typeOnly: true },
        ],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
