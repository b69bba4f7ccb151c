import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditWriter } from './audit-writer.ts';
import { recordSearch, type SearchRequestFacts } from './audit.service.ts';

test('D21: a search whose client left before its address was read is still recorded, as "unknown"', async () => {
  const written: Array<Record<string, unknown>> = [];
  const audit = { write: (row: Record<string, unknown>) => Promise.resolve(void written.push(row)) } as unknown as AuditWriter;
  const request: SearchRequestFacts = {
    query: { q: 'x' },
    ip: undefined,
    resultCount: 0,
    keyHolder: null,
    clientAddress: null,
    shed: false,
    foundCompanyIds: null,
  };
  const reply = { statusCode: 200, elapsedTime: 1 };
  await recordSearch({ audit, clock: { now: () => 0 }, auditQueryChars: 100 }, request, reply);
  assert.equal(written.length, 1);
  assert.equal(written[0]!.client_address, 'unknown');
});
