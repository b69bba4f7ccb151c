import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openEngine } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { insertAuditEntries, type AuditEntry } from './audit.repository.ts';

test('records stored in runs keep every column, an API record its default channel', async () => {
  const engine = openEngine('sqlite::memory:');
  await migrateToLatest(engine);
  const entries: AuditEntry[] = Array.from({ length: 13 }, (_, i) => ({
    at: 1_000 + i,
    key_id: i % 2 === 0 ? i : null,
    member_id: i,
    q: `q${i}`,
    type: i === 3 ? null : 'tax_id',
    country: 'TR',
    status: 200 + i,
    result_count: i,
    response_ms: i * 2,
    client_address: `10.0.0.${i}`,
    ...(i === 5 ? { channel: 'portal', user_id: 7 } : {}),
    ...(i === 6 ? { channel: 'cli', actor: 'ops' } : {}),
  }));
  await insertAuditEntries(engine.db, entries);
  const rows = await engine.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
  assert.equal(rows.length, 13);
  rows.forEach((row, i) => {
    const e = entries[i]!;
    assert.deepEqual(
      { ...row, id: undefined },
      {
        id: undefined,
        at: e.at,
        key_id: e.key_id,
        member_id: e.member_id,
        q: e.q,
        type: e.type,
        country: e.country,
        status: e.status,
        result_count: e.result_count,
        response_ms: e.response_ms,
        client_address: e.client_address,
        channel: e.channel ?? 'api',
        user_id: e.user_id ?? null,
        actor: e.actor ?? null,
      },
    );
  });
  await engine.close();
});
