import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ERROR_REASONS, reasonDocsLink } from './errors.ts';
import { REASON_DOCS } from './error-docs.ts';
import { replaceReasonsSection } from '../../test/helpers/api-docs.ts';

test('D2: every reason is documented in docs/api.md with its status', () => {
  const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  for (const [reason, status] of Object.entries(ERROR_REASONS)) {
    assert.match(doc, new RegExp(`\\| \`${reason}\` \\| ${status} \\|`), reason);
  }
});

test('D2: docs/api.md holds the current table of reasons (run `npm run docs` after changing src/lib/error-docs.ts)', () => {
  const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  assert.equal(doc, replaceReasonsSection(doc));
});

test('every reason has what it means and what to do, and a docs link to its entry', () => {
  for (const reason of Object.keys(ERROR_REASONS) as (keyof typeof ERROR_REASONS)[]) {
    assert.ok(REASON_DOCS[reason].means.length > 10 && REASON_DOCS[reason].todo.length > 5, reason);
    assert.equal(reasonDocsLink(reason), `/api/v1/docs/errors#reason-${reason}`);
  }
});
