/**
 * D31's events, one test per path that changes what a search answers, on both engines: an
 * approval, consensus reached and lost, a withdrawal, a deactivation, a rejection (no change, no
 * event), the CLI's status step, an import (new company, a status moved by ref), a rename on a
 * first approval; a rolled-back change writes nothing; the webhook deliveries are queued with the
 * event; kinds named by a caller (disputes) arrive. Events are read through the real feed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, search, type TestApp } from './helpers/app.ts';
import { companyLine, countries, makeClaimants, makeCompanies, makeKeyHolder, makeMember, makeReport, nextVkn } from './helpers/factories.ts';
import { decideDispute, recordDispute, approveReport, deactivateReport, rejectReport, setReportStatus, withdrawReport } from './helpers/use-cases.ts';
import { claimInput } from './helpers/filing.ts';
import { makeUser, memberIdOf } from './helpers/users.ts';
import { webhookWorld } from './helpers/webhooks.ts';
import { fileReport, type Filer } from './helpers/use-cases.ts';
import { cliActor } from '../src/actors/actor.ts';
import { importLines, ImportFailed } from '../src/import/import.service.ts';
import { recordCompanyChanges } from '../src/events/company-changes.ts';
import type { CompanyEventView } from '../src/events/company-event.ts';
import { issueKey } from '../src/keys/keys.service.ts';
import { formatTurkeyDateTime } from '../src/lib/turkey-time.ts';
import { payloadOf } from '../src/webhooks/webhook-rules.ts';
import type { ModerationDeps } from '../src/reports/moderation.service.ts';

interface Feed {
  success: true;
  events: CompanyEventView[];
  next_cursor: string | null;
  has_more: boolean;
}

for (const engine of ENGINES) {
  describe(`company.changed events, every path [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let deps: ModerationDeps;
    let watcher: string;
    let other: string;
    let bystander: string;
    const filers: Filer[] = [];
    let op: { userId: number };
    const cursors = new Map<string, string | null>();

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      const { db } = database.engine;
      deps = { db, clock: t.clock };
      await makeClaimants(db, t.clock);
      watcher = await makeKeyHolder(db, t.clock, { ref: 'EV-W1', dailyLimit: 1000 });
      other = await makeKeyHolder(db, t.clock, { ref: 'EV-W2', dailyLimit: 1000 });
      bystander = await makeKeyHolder(db, t.clock, { ref: 'EV-B', dailyLimit: 1000 });
      for (const ref of ['EV-F1', 'EV-F2', 'EV-F3']) {
        await makeMember(db, t.clock, { ref });
        filers.push({
          userId: await makeUser(db, { email: `u@${ref.toLowerCase()}.test`, role: 'member_user', memberRef: ref }),
          memberId: await memberIdOf(db, ref),
        });
      }
      op = { userId: await makeUser(db, { email: 'op@events.test', role: 'operator' }) };
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    const watch = async (key: string, taxId: string) => {
      const res = await t.app.inject({ method: 'PUT', url: `/api/v1/watchlist/TR/${taxId}`, headers: { 'x-api-key': key } });
      assert.equal(res.statusCode, 200, res.body);
    };
    /** The key's events since the last call (the feed, followed by its cursor). */
    const newEvents = async (key: string): Promise<CompanyEventView[]> => {
      const out: CompanyEventView[] = [];
      for (;;) {
        const after = cursors.get(key);
        const res = await t.app.inject({ method: 'GET', url: `/api/v1/events?limit=2${after ? `&after=${after}` : ''}`, headers: { 'x-api-key': key } });
        assert.equal(res.statusCode, 200, res.body);
        const page = res.json<Feed>();
        out.push(...page.events);
        cursors.set(key, page.next_cursor);
        if (!page.has_more) return out;
      }
    };
    const file = (filer: Filer, taxId: string, overrides = {}) => fileReport({ ...deps, countries }, filer, claimInput(taxId, overrides));
    const official = {
      type: 'enforcement_plain',
      amount: null,
      currency: null,
      case: { enforcement_office: 'Bursa 2. İcra', file_number: '2026/7', date: '2026-05-01' },
    };
    const step = () => t.clock.advance(60_000);

    test('an approval of an official file: one event per watcher, before and after, nothing for others, no report content', async () => {
      const taxId = nextVkn();
      await watch(watcher, taxId);
      await watch(other, taxId);
      await newEvents(watcher);
      await newEvents(other);
      await newEvents(bystander);
      const filed = await file(filers[0]!, taxId, official);
      assert.deepEqual(await newEvents(watcher), [], 'a pending report changes no answer');
      step();
      await approveReport(deps, op, filed.reportId);
      const [event, ...rest] = await newEvents(watcher);
      assert.deepEqual(rest, []);
      assert.deepEqual(Object.keys(event!).sort(), ['country', 'id', 'kinds', 'occurred_at', 'report_count', 'tax_id', 'threat_level', 'type']);
      assert.equal(event!.type, 'company.changed');
      assert.deepEqual([event!.country, event!.tax_id], ['TR', taxId]);
      assert.deepEqual(event!.threat_level, { before: null, after: 'normal' });
      assert.deepEqual(event!.report_count, { before: 0, after: 1 });
      assert.deepEqual(event!.kinds, ['report_published']);
      assert.equal(event!.occurred_at, formatTurkeyDateTime(t.clock.now()), 'the time of the approval, Turkey time (D4)');
      assert.match(event!.id, /^evt_[0-9]+$/);
      const others = await newEvents(other);
      assert.equal(others.length, 1);
      assert.notEqual(others[0]!.id, event!.id, 'one event per member');
      assert.deepEqual(await newEvents(bystander), [], 'a member that does not watch the company learns nothing');
      // The search agrees with the event.
      const answer = (await search(t.app, watcher, `q=${taxId}&type=tax_id&country=TR`)).json<{ results: Array<{ report_count: number }> }>();
      assert.equal(answer.results[0]!.report_count, 1);
    });

    test('consensus reached at the third claim and lost at a withdrawal; a rejection changes nothing and writes nothing', async () => {
      const taxId = nextVkn();
      await watch(watcher, taxId);
      await newEvents(watcher);
      const claims = [];
      for (const filer of filers) claims.push(await file(filer, taxId));
      await approveReport(deps, op, claims[0]!.reportId);
      await approveReport(deps, op, claims[1]!.reportId);
      assert.deepEqual(await newEvents(watcher), [], 'two claims are not visible (D12)');
      step();
      await approveReport(deps, op, claims[2]!.reportId);
      const reached = await newEvents(watcher);
      assert.equal(reached.length, 1);
      assert.deepEqual(
        [reached[0]!.report_count, reached[0]!.threat_level, reached[0]!.kinds],
        [{ before: 0, after: 3 }, { before: null, after: 'normal' }, ['report_published']],
      );
      step();
      await withdrawReport(deps, filers[0]!, claims[0]!.reportId, 'paid in full');
      const lost = await newEvents(watcher);
      assert.equal(lost.length, 1);
      assert.deepEqual(
        [lost[0]!.report_count, lost[0]!.threat_level, lost[0]!.kinds],
        [{ before: 3, after: 0 }, { before: 'normal', after: null }, ['report_removed']],
      );
      const fourth = await file(filers[0]!, taxId, official);
      await rejectReport(deps, op, fourth.reportId, 'no document');
      assert.deepEqual(await newEvents(watcher), [], 'a rejected report was never visible');
    });

    test('a deactivation, and the CLI status step (an imported report), each write their event', async () => {
      const taxId = nextVkn();
      const ref = `EV-IMP-${taxId}`;
      await importLines(
        database.engine,
        [companyLine({ company_name: 'Olay Kimya A.Ş.', tax_id: taxId, reports: [makeReport({ ref, status: 'pending' })] })],
        'test',
        {
          countries,
          clock: t.clock,
        },
      );
      await watch(watcher, taxId);
      await newEvents(watcher);
      step();
      await setReportStatus(deps, cliActor('tester'), { idOrRef: ref, to: 'approved' });
      const approved = await newEvents(watcher);
      assert.deepEqual(
        approved.map((e) => [e.report_count.before, e.report_count.after, e.kinds.join()]),
        [[0, 1, 'report_published']],
      );
      const filed = await file(filers[1]!, taxId, official);
      await approveReport(deps, op, filed.reportId);
      assert.deepEqual(
        (await newEvents(watcher)).map((e) => [e.report_count.before, e.report_count.after]),
        [[1, 2]],
      );
      step();
      await deactivateReport(deps, op, filed.reportId, 'closed by the court');
      assert.deepEqual(
        (await newEvents(watcher)).map((e) => [e.report_count.before, e.report_count.after, e.kinds.join()]),
        [[2, 1, 'report_removed']],
      );
    });

    test('an import: a watched tax ID with no records gets its company and reports, then a status moved by ref; a failed import writes nothing', async () => {
      const taxId = nextVkn();
      await watch(watcher, taxId);
      await newEvents(watcher);
      const reports = Array.from({ length: 6 }, (_, i) => makeReport({ ref: `EV-BULK-${taxId}-${i}` }));
      step();
      await importLines(
        database.engine,
        [companyLine({ company_name: 'Yeni Tekstil Ltd.', tax_id: taxId, reports }), companyLine({ company_name: 'Başka A.Ş.' })],
        'test',
        {
          countries,
          clock: t.clock,
        },
      );
      const added = await newEvents(watcher);
      assert.deepEqual(
        added.map((e) => [e.threat_level.before, e.threat_level.after, e.report_count.after, e.kinds.join()]),
        [[null, 'high', 6, 'report_published']],
      );
      const line = (status: string) =>
        companyLine({ company_name: 'Yeni Tekstil Ltd.', tax_id: taxId, reports: [makeReport({ ...reports[0], ref: `EV-BULK-${taxId}-0`, status })] });
      await assert.rejects(importLines(database.engine, [line('withdrawn'), '{"company_name":""}'], 'test', { countries, clock: t.clock }), ImportFailed);
      assert.deepEqual(await newEvents(watcher), [], 'an import that fails writes no event');
      step();
      await importLines(database.engine, [line('withdrawn')], 'test', { countries, clock: t.clock });
      assert.deepEqual(
        (await newEvents(watcher)).map((e) => [e.threat_level.before, e.threat_level.after, e.report_count.before, e.report_count.after, e.kinds.join()]),
        [['high', 'normal', 6, 5, 'report_removed']],
      );
    });

    test('a first approval that renames a filed company: the event names only country and tax ID', async () => {
      const taxId = nextVkn();
      await watch(watcher, taxId);
      await newEvents(watcher);
      const filed = await file(filers[2]!, taxId, { ...official, companyName: 'Gizli Ad Ticaret A.Ş.', description: 'secret words' });
      await approveReport(deps, op, filed.reportId);
      const [event] = await newEvents(watcher);
      assert.ok(event);
      const text = JSON.stringify(event);
      assert.doesNotMatch(text, /Gizli|secret|EV-F3|Bursa/);
    });

    test('a rolled-back change writes no event and queues no delivery; a committed one queues a signed delivery per endpoint with the same id', async () => {
      const { db } = database.engine;
      const world = webhookWorld(db, engine.name === 'sqlite' ? 'sqlite' : 'postgres', t.clock);
      const hooked = await world.member('EV-HOOK');
      world.dns.set('hooks.example.com', ['93.184.216.34']);
      await world.endpoints.registerEndpoint(hooked.admin, { url: 'https://hooks.example.com/risk' });
      const hookKey = await issueKey(db, t.clock, 'EV-HOOK', 100);
      const taxId = nextVkn();
      await watch(hookKey.key, taxId);
      const filed = await file(filers[0]!, taxId, official);
      const deliveriesBefore = await db.selectFrom('webhook_deliveries').select('id').execute();
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await trx.updateTable('reports').set({ status: 'approved' }).where('id', '=', filed.reportId).execute();
          const written = await recordCompanyChanges(trx, t.clock.now(), [{ country: 'TR', taxIdNorm: taxId }]);
          assert.equal(written, 1, 'the event is written inside the transaction');
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.deepEqual(await newEvents(hookKey.key), []);
      assert.equal((await db.selectFrom('webhook_deliveries').select('id').execute()).length, deliveriesBefore.length);
      const baseline = await db.selectFrom('watched_companies').selectAll().where('tax_id_norm', '=', taxId).executeTakeFirstOrThrow();
      assert.equal(Number(baseline.report_count), 0, 'the baseline rolled back with it');
      await approveReport(deps, op, filed.reportId);
      const [event] = await newEvents(hookKey.key);
      const deliveries = await db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', event!.id).execute();
      assert.equal(deliveries.length, 1);
      const body = JSON.parse(deliveries[0]!.payload) as { type: string; data: CompanyEventView };
      assert.equal(body.type, 'company.changed');
      assert.deepEqual(body.data, event, 'the webhook carries the feed event');
      const occurredAt = Number(
        (
          await db
            .selectFrom('company_events')
            .select('occurred_at')
            .where('id', '=', Number(event!.id.slice(4)))
            .executeTakeFirstOrThrow()
        ).occurred_at,
      );
      assert.equal(
        deliveries[0]!.payload,
        payloadOf({ id: event!.id, type: 'company.changed', occurredAt, data: event }),
        "byte for byte the body that Standard Webhooks' payloadOf makes of the feed event",
      );
    });

    test('one change to two watched companies: every enabled endpoint of every watcher gets its own event, byte for byte, in event order; none for a disabled endpoint', async () => {
      const { db } = database.engine;
      const world = webhookWorld(db, engine.name === 'sqlite' ? 'sqlite' : 'postgres', t.clock);
      world.dns.set('one.example.com', ['93.184.216.34']);
      world.dns.set('two.example.com', ['93.184.216.35']);
      const twoEndpoints = await world.member('EV-R1');
      const disabled = await world.member('EV-R2');
      await world.member('EV-R3');
      const first = await world.endpoints.registerEndpoint(twoEndpoints.admin, { url: 'https://one.example.com/a' });
      const second = await world.endpoints.registerEndpoint(twoEndpoints.admin, { url: 'https://two.example.com/b' });
      const off = await world.endpoints.registerEndpoint(disabled.admin, { url: 'https://one.example.com/c' });
      await db.updateTable('webhook_endpoints').set({ status: 'disabled', disabled_reason: 'test' }).where('id', '=', off.endpoint.id).execute();
      const keys = await Promise.all(['EV-R1', 'EV-R2', 'EV-R3'].map(async (ref) => (await issueKey(db, t.clock, ref, 100)).key));
      const taxIds = [nextVkn(), nextVkn()];
      for (const taxId of taxIds) for (const key of keys) await watch(key, taxId);
      const filed = await Promise.all(taxIds.map((taxId) => file(filers[0]!, taxId, official)));
      for (const key of keys) await newEvents(key);
      const lastDelivery = Number(
        (
          await db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id ?? 0,
      );
      step();
      const written = await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('reports')
          .set({ status: 'approved' })
          .where(
            'id',
            'in',
            filed.map((f) => f.reportId),
          )
          .execute();
        return recordCompanyChanges(
          trx,
          t.clock.now(),
          taxIds.map((taxId) => ({ country: 'TR', taxIdNorm: taxId })),
        );
      });
      assert.equal(written, 6, 'two companies, three watchers each');
      const events = await newEvents(keys[0]!);
      assert.deepEqual(
        events.map((e) => e.tax_id),
        taxIds,
      );
      for (const key of keys.slice(1)) assert.equal((await newEvents(key)).length, 2);
      const deliveries = await db.selectFrom('webhook_deliveries').selectAll().where('id', '>', lastDelivery).orderBy('id').execute();
      const endpointIds = [first.endpoint.id, second.endpoint.id].sort((a, b) => a - b);
      assert.deepEqual(
        deliveries.map((d) => [d.webhook_id, Number(d.endpoint_id)]),
        events.flatMap((e) => endpointIds.map((id) => [e.id, id])),
        'one delivery per event and enabled endpoint of its member, in event order, then endpoint order',
      );
      for (const d of deliveries) {
        const event = events.find((e) => e.id === d.webhook_id)!;
        assert.equal(d.payload, payloadOf({ id: event.id, type: 'company.changed', occurredAt: t.clock.now(), data: event }));
        assert.equal(d.event_type, 'company.changed');
        assert.equal(d.state, 'pending');
        assert.equal(Number(d.next_attempt_at), t.clock.now());
      }
    });

    test('a dispute recorded, then decided, tells the watchers through the real seam (D33 to D31); visibility unchanged', async () => {
      const { db } = database.engine;
      const [taxId] = (await makeCompanies(database.engine, t.clock, [
        {
          company_name: 'İtirazlı Nakliyat A.Ş.',
          reports: [
            makeReport({ type: 'enforcement_plain', case: { enforcement_office: 'Bursa 1. İcra Dairesi', file_number: '2026/12', date: '2026-03-01' } }),
          ],
        },
      ])) as [string];
      await watch(watcher, taxId);
      await newEvents(watcher);
      const report = await db
        .selectFrom('reports')
        .innerJoin('companies', 'companies.id', 'reports.company_id')
        .select('reports.id')
        .where('companies.tax_id_norm', '=', taxId)
        .executeTakeFirstOrThrow();
      const today = formatTurkeyDateTime(t.clock.now()).slice(0, 10);
      const { disputeId } = await recordDispute(deps, op, {
        identificationMethod: 'kep',
        identificationReference: 'KEP-2026-1',
        receivedOn: today,
        grounds: 'Borç ödendi',
        reportIds: [Number(report.id)],
      });
      const [opened] = await newEvents(watcher);
      assert.deepEqual([opened!.kinds, opened!.report_count.before, opened!.report_count.after], [['report_disputed'], 1, 1]);
      await decideDispute(deps, op, disputeId, { outcome: 'upheld', reason: 'Kayıt doğrulandı' });
      const [closed] = await newEvents(watcher);
      assert.deepEqual([closed!.kinds, closed!.report_count.before, closed!.report_count.after], [['dispute_closed'], 1, 1]);
    });

    test('kinds a caller names (a dispute) arrive without a visible change; an unwatched company costs no event', async () => {
      const taxId = nextVkn();
      await watch(watcher, taxId);
      await newEvents(watcher);
      const { db } = database.engine;
      const n = await db.transaction().execute((trx) =>
        recordCompanyChanges(trx, t.clock.now(), [
          { country: 'TR', taxIdNorm: taxId, kinds: ['report_disputed'] },
          { country: 'TR', taxIdNorm: nextVkn(), kinds: ['report_disputed'] },
        ]),
      );
      assert.equal(n, 1);
      const [event] = await newEvents(watcher);
      assert.deepEqual([event!.kinds, event!.report_count, event!.threat_level], [['report_disputed'], { before: 0, after: 0 }, { before: null, after: null }]);
    });
  });
}
