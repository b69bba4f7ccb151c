import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCountryCatalogue } from '../countries/catalogue.ts';
import { fixedClock } from '../lib/clock.ts';
import { AppError } from '../lib/errors.ts';
import type { Allowance, Meter, Quota } from '../quota/allowance.ts';
import { answerSearch, type SearchUseCaseDeps } from './answer-search.ts';
import type { SearchOutcome } from './search.service.ts';

/** A quota in memory that records every step, with the same rule as the database's (one count for every meter). */
function memoryQuota(left: number) {
  const steps: string[] = [];
  let used = 0;
  const quota: Quota = {
    ensureLeft(meters: readonly Meter[]): Promise<Allowance[]> {
      steps.push(`check ${meters.map((m) => m.subject).join('+')}`);
      if (used >= left) return Promise.reject(new AppError('rate_limited', 'used up'));
      return Promise.resolve(meters.map(() => ({ limit: left, used, resetAt: 0 })));
    },
    take(meters: readonly Meter[]): Promise<Allowance[]> {
      steps.push(`take ${meters.map((m) => m.subject).join('+')}`);
      if (used >= left) return Promise.reject(new AppError('rate_limited', 'used up'));
      used++;
      return Promise.resolve(meters.map(() => ({ limit: left, used, resetAt: 0 })));
    },
  };
  return { quota, steps, used: () => used };
}

const EMPTY: SearchOutcome = { results: [], truncated: false, nearMatches: [] };

function deps(quota: Quota, find: SearchUseCaseDeps['search']['find']): SearchUseCaseDeps {
  return { countries: buildCountryCatalogue(), search: { find }, quota, clock: fixedClock(Date.UTC(2026, 10, 21, 9)) };
}

const KEY = { kind: 'api_key', memberId: 7, memberRef: 'M-7', dailyLimit: 5 } as const;

describe('answerSearch (D18: the unit is taken when the answer is ready)', () => {
  test("checks, searches, then takes one unit of the member's day (D18 amended); the answer shows the figures after it", async () => {
    const q = memoryQuota(5);
    const answer = await answerSearch(
      deps(q.quota, () => Promise.resolve(EMPTY)),
      { q: 'Anadolu Demir', type: 'name', country: null },
      KEY,
    );
    assert.deepEqual(q.steps, ['check member:7', 'take member:7']);
    assert.deepEqual(
      { used: answer.response.meta.queries_used_today, remaining: answer.response.meta.remaining_today, limit: answer.response.meta.daily_limit },
      { used: 1, remaining: 4, limit: 5 },
    );
  });

  test('a search that fails takes nothing', async () => {
    const q = memoryQuota(5);
    const failing = deps(q.quota, () => Promise.reject(new Error('connection terminated')));
    await assert.rejects(answerSearch(failing, { q: 'Anadolu Demir', type: 'name', country: null }, KEY), /connection terminated/);
    assert.deepEqual(q.steps, ['check member:7']);
    assert.equal(q.used(), 0);
  });

  test('a used-up allowance is refused from the check alone, before any search', async () => {
    const q = memoryQuota(0);
    let searched = false;
    const d = deps(q.quota, () => {
      searched = true;
      return Promise.resolve(EMPTY);
    });
    await assert.rejects(answerSearch(d, { q: 'Anadolu Demir', type: 'name', country: null }, KEY), (e: AppError) => e.reason === 'rate_limited');
    assert.deepEqual({ steps: q.steps, searched }, { steps: ['check member:7'], searched: false });
  });

  test('a query that cannot be answered truthfully (400) costs no quota step and no search', async () => {
    const q = memoryQuota(5);
    const d = deps(q.quota, () => assert.fail('no search for a refused query'));
    await assert.rejects(answerSearch(d, { q: '0680123457', type: 'tax_id', country: 'TR' }, KEY), (e: AppError) => e.reason === 'invalid_tax_id');
    await assert.rejects(answerSearch(d, { q: 'A.Ş. Ltd', type: 'name', country: null }, KEY), (e: AppError) => e.reason === 'query_too_generic');
    assert.deepEqual(q.steps, []);
  });

  test("a portal user is charged to its own allowance and its member's together (D28 amended); an operator is not metered", async () => {
    const q = memoryQuota(5);
    const d = deps(q.quota, () => Promise.resolve(EMPTY));
    const user = await answerSearch(
      d,
      { q: 'Anadolu Demir', type: 'name', country: null },
      { kind: 'portal_user', userId: 3, dailyLimit: 5, memberId: 9, memberDailyLimit: 20 },
    );
    assert.equal(user.allowances.length, 2);
    const operator = await answerSearch(d, { q: 'Anadolu Demir', type: 'name', country: null }, { kind: 'operator' });
    assert.deepEqual(q.steps, ['check user:3+portal:member:9', 'take user:3+portal:member:9']);
    assert.equal(operator.allowance, null);
    assert.equal(operator.response.meta.queries_used_today, undefined);
  });
});
