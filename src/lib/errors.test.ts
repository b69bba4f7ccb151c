import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ERROR_REASONS } from './errors.ts';

test('D2: every reason is documented in docs/api.md with its status', () => {
  const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  for (const [reason, status] of Object.entries(ERROR_REASONS)) {
    assert.match(doc, new RegExp(`\\| \`${reason}\` \\| ${status} \\|`), reason);
  }
});
