/**
 * D21: every search request is recorded, also one whose client closed its connection before the
 * answer. Its address was read from the socket when the record was made; the socket was gone,
 * `request.ip` undefined, and the INSERT of the whole batch failed on audit_log.client_address
 * (NOT NULL): that record and the others of its 50 ms were lost (seen in `npm run bench`, whose
 * load generator closes its connections at the end of a run). The address is now taken when
 * the request arrives.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { NOON_TR } from './helpers/app.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { parseConfig } from '../src/config.ts';
import { recordSearch } from '../src/audit/audit.service.ts';
import { createAuditWriter } from '../src/audit/audit-writer.ts';

for (const engine of ENGINES) {
  describe(`audit of a request whose client went away [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      await database?.drop();
    });

    test('recorded with the address it came from, and the records written with it are kept', async () => {
      const failures: unknown[] = [];
      const audit = createAuditWriter(database.engine.db, (error) => failures.push(error));
      const deps = { audit, clock: fixedClock(NOON_TR), auditQueryChars: parseConfig({ databaseUrl: database.url }, {}).auditQueryChars };
      const request = (q: string, ip: string | undefined, clientAddress: string | null) =>
        ({ shed: false, query: { q }, keyHolder: null, resultCount: 0, ip, clientAddress }) as unknown as FastifyRequest;
      const reply = { statusCode: 200, elapsedTime: 3 } as FastifyReply;
      await Promise.all([
        recordSearch(deps, request('kalan', '127.0.0.1', '127.0.0.1'), reply),
        // The socket closed before the answer: Fastify's `ip` reads it and finds nothing.
        recordSearch(deps, request('ayrilan', undefined, '10.1.2.3'), reply),
        recordSearch(deps, request('hic', undefined, null), reply),
      ]);
      await audit.close();
      assert.deepEqual(failures, []);
      const rows = await database.engine.db.selectFrom('audit_log').select(['q', 'client_address']).orderBy('id').execute();
      assert.deepEqual(rows, [
        { q: 'kalan', client_address: '127.0.0.1' },
        { q: 'ayrilan', client_address: '10.1.2.3' },
        { q: 'hic', client_address: 'unknown' },
      ]);
    });

    test('a query with a NUL (answered 400, D7) is recorded with U+FFFD for it, and the records of its batch with it', async () => {
      const failures: unknown[] = [];
      const audit = createAuditWriter(database.engine.db, (error) => failures.push(error));
      const deps = { audit, clock: fixedClock(NOON_TR), auditQueryChars: 200 };
      const request = (q: string) =>
        ({ shed: false, query: { q }, keyHolder: null, resultCount: null, ip: '127.0.0.1', clientAddress: '127.0.0.1' }) as unknown as FastifyRequest;
      // Both in one batch: PostgreSQL's text cannot hold a NUL, and the failed INSERT lost the other record too.
      await Promise.all([
        recordSearch(deps, request('nul\u0000here'), { statusCode: 400, elapsedTime: 1 }),
        recordSearch(deps, request('komsu'), { statusCode: 200, elapsedTime: 1 }),
      ]);
      assert.deepEqual(failures, []);
      const rows = await database.engine.db
        .selectFrom('audit_log')
        .select(['q', 'status'])
        .where('q', 'in', ['nul\uFFFDhere', 'komsu'])
        .orderBy('id')
        .execute();
      assert.deepEqual(rows, [
        { q: 'nul\uFFFDhere', status: 400 },
        { q: 'komsu', status: 200 },
      ]);
    });
  });
}
