import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DomainError, ERROR_REASONS, reasonDocsLink, statusOf } from './errors.ts';
import { exitStatusOf } from '../cli/cli.ts';
import { CommandError, UsageError } from '../cli/command-errors.ts';
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

test('one map per entry point: a refusal is the same HTTP status on every page and form, and exit status 1 at the CLI', () => {
  const refusal = (kind: DomainError['kind']) => new DomainError(kind, `refused (${kind})`, { code: 'actor.not_operator' });
  assert.equal(statusOf(refusal('invalid')), 400);
  assert.equal(statusOf(refusal('not_found')), 404);
  assert.equal(statusOf(refusal('conflict')), 409);
  // The member pages used to answer 409 here, the filing form and the error pages 403.
  assert.equal(statusOf(refusal('forbidden')), 403);
  for (const kind of ['invalid', 'not_found', 'conflict', 'forbidden'] as const) {
    assert.deepEqual(exitStatusOf(refusal(kind)), { status: 1, message: `refused (${kind})` });
  }
  assert.deepEqual(exitStatusOf(new UsageError('--limit takes a number')), { status: 2, message: '--limit takes a number' });
  assert.deepEqual(exitStatusOf(new CommandError('no such member')), { status: 1, message: 'no such member' });
});
