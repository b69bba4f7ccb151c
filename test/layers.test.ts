/**
 * Errors by layer: services throw DomainError or AppError (src/lib/errors.ts), never the CLI's own
 * CommandError/UsageError, which only src/cli/ may use; src/cli/cli.ts maps them to exit statuses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

test('only src/cli/ uses the CLI errors', () => {
  const outside = sourceFiles('src')
    .map((f) => f.split('\\').join('/'))
    .filter((f) => !f.startsWith('src/cli/') && /command-errors\.ts|\b(CommandError|UsageError)\b/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(outside, [], 'throw DomainError or AppError (src/lib/errors.ts) outside the CLI');
});
