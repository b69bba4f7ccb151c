/**
 * Issue 27, finding 8, through the real routes on every engine: no text a person types into a
 * portal form is kept with a bidi control (U+202E reverses what an operator reads) or another
 * control character (BEL, ESC, NUL). The forms are found by walking the portal as every role and
 * as a visitor (test/helpers/portal-crawl.ts): each POST form is filled with valid values and sent
 * once per field with each character in that field; then no text column of any table may hold
 * one, and no answer may be a 500. A POST route that no page offers a form for fails the test, so
 * a form added later is walked too.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { makeTestApp, type TestApp } from './helpers/app.ts';
import { makeMember, nextVkn } from './helpers/factories.ts';
import { postMultipart } from './helpers/multipart.ts';
import { anonymousBrowser, makePortalUser, PortalBrowser, postForm, signIn } from './helpers/portal.ts';
import { crawlPortal, type CrawledForm } from './helpers/portal-crawl.ts';
import { registeredRoutes } from './helpers/routes.ts';
import { memberIdOf } from './helpers/users.ts';
import { webhookWorld } from './helpers/webhooks.ts';
import { inviteUser } from '../src/users/users.service.ts';
import { disableEndpoint } from '../src/webhooks/endpoints.repository.ts';
import { decideDispute, recordDispute } from './helpers/use-cases.ts';

/** Right-to-left override, left-to-right isolate, BEL, ESC, NUL, a C1 control. */
const FORBIDDEN = ['\u202e', '\u2066', '\u0007', '\u001b', '\u0000', '\u0085'];
/** Any control character but line breaks and tabs (description, notes), or a bidi control. */
const FORBIDDEN_RE = /[\u202a-\u202e\u2066-\u2069]|[^\P{Cc}\t\n\r]/u;

/** Fields that are not typed text: never attacked (a password may hold any character it likes; files are files). */
const NOT_TEXT = new Set(['_csrf', 'password', 'password2', 'file']);

let seq = 0;
/** A valid value for an empty field, by its name (what a person would type). */
function sampleFor(name: string): string {
  seq++;
  if (name.endsWith('date')) return '2026-10-01';
  const samples: Record<string, string> = {
    company_name: `Örnek Ticaret ${seq} A.Ş.`,
    tax_id: nextVkn(),
    city: 'İzmir',
    amount: '100.00',
    currency: 'TRY',
    description: 'Unpaid invoice.',
    note: 'Paid in full.',
    reason: 'Checked the file.',
    email: `walker${seq}@example.com`,
    ref: `WALK-${seq}`,
    name: `Walker ${seq}`,
    member: 'FT-1',
    daily_limit: '50',
    accept: 'yes',
    code: '000000',
    totp_code: '000000',
    url: 'https://8.8.8.8/hook',
  };
  return samples[name] ?? `Sample ${seq}`;
}

function filled(form: CrawledForm): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of form.fields) {
    if (field.name === '_csrf' || field.kind === 'file') continue;
    values[field.name] = field.value !== '' || field.kind === 'hidden' ? field.value : sampleFor(field.name);
  }
  return values;
}

async function send(browser: PortalBrowser, form: CrawledForm, values: Record<string, string>) {
  const csrf = form.fields.find((f) => f.name === '_csrf')?.value ?? browser.csrf;
  if (form.enctype.startsWith('multipart/')) return postMultipart(browser, form.action, values, [], { csrf });
  return postForm(browser.app, form.action, values, { csrf, cookie: browser.cookieHeader() });
}

/** Every text value of every table that holds one of the characters (table.column = value). */
async function textsWithControls(database: TestDatabase): Promise<string[]> {
  const found: string[] = [];
  const tables = await database.engine.db.introspection.getTables();
  for (const table of tables) {
    const columns = table.columns.filter((c) => /char|text|json/i.test(c.dataType));
    if (columns.length === 0) continue;
    const rows = await sql<Record<string, unknown>>`SELECT ${sql.join(columns.map((c) => sql.ref(c.name)))} FROM ${sql.table(table.name)}`.execute(
      database.engine.db,
    );
    for (const row of rows.rows) {
      for (const [column, value] of Object.entries(row)) {
        const text = typeof value === 'string' ? value : value !== null && typeof value === 'object' ? JSON.stringify(value) : '';
        if (FORBIDDEN_RE.test(text) || /\\u(202[a-e]|206[6-9]|00[01][0-9a-f]|007f|008[0-9a-f]|009[0-9a-f])/i.test(text)) {
          found.push(`${table.name}.${column} = ${JSON.stringify(text).slice(0, 120)}`);
        }
      }
    }
  }
  return found;
}

for (const engine of ENGINES) {
  describe(`free text in every portal form [${engine.name}]`, () => {
    let database: TestDatabase;
    let t: TestApp;
    const walked: Array<{ who: string; browser: PortalBrowser; forms: CrawledForm[] }> = [];

    before(async () => {
      database = await engine.create();
      t = await makeTestApp(database);
      const db = database.engine.db;
      await makeMember(db, t.clock, { ref: 'FT-1' });
      const user = await signIn(t.app, await makePortalUser(db, t.clock, { role: 'member_user', memberRef: 'FT-1' }));
      // A pending report to withdraw, and one the operator will find in the queue.
      await user.get('/portal/reports/new');
      for (let i = 0; i < 2; i++) {
        const filed = await postMultipart(
          user,
          '/portal/reports',
          {
            company_name: `Dosya ${i} A.Ş.`,
            tax_id: nextVkn(),
            country: 'TR',
            city: 'Bursa',
            type: 'unpaid_debt',
            event_date: '2026-10-15',
            amount: '10.00',
            currency: 'TRY',
            description: 'Unpaid.',
          },
          [],
        );
        assert.equal(filed.statusCode, 303, filed.body.slice(0, 300));
      }
      const adminUser = await makePortalUser(db, t.clock, { role: 'member_admin', memberRef: 'FT-1' });
      const admin = await signIn(t.app, adminUser);
      // Webhook endpoints (one disabled) and a delivery, so that each of their forms is on a page.
      const world = webhookWorld(db, engine.name, t.clock);
      const actor = { kind: 'member_user', userId: adminUser.id, memberId: await memberIdOf(db, 'FT-1'), role: 'member_admin' } as const;
      const { endpoint } = await world.endpoints.registerEndpoint(actor, { url: 'https://8.8.8.8/walk' });
      await world.deliveries.sendTestEvent(actor, { endpointId: endpoint.id });
      const { endpoint: off } = await world.endpoints.registerEndpoint(actor, { url: 'https://8.8.4.4/walk' });
      await disableEndpoint(db, off.id, 'The endpoint answered 410 Gone, which asks for no more deliveries.', t.clock.now());
      // A watched company, so that its remove form is on the watchlist page.
      await admin.get('/portal/watchlist');
      assert.equal((await admin.post('/portal/watchlist', { country: 'TR', tax_id: nextVkn() })).statusCode, 200);
      const operatorUser = await makePortalUser(db, t.clock, { role: 'operator' });
      const operator = await signIn(t.app, operatorUser, t.clock);
      // Disputes over the two filings (D33): one open (the decision form, the member's support and
      // withdrawal), one decided upheld (the company's statement).
      const filedIds = (await db.selectFrom('reports').select('id').orderBy('id').execute()).map((r) => Number(r.id));
      const dispute = (reportId: number) =>
        recordDispute(
          { db, clock: t.clock },
          { userId: operatorUser.id },
          {
            identificationMethod: 'kep',
            identificationReference: 'a@hs01.kep.tr',
            receivedOn: '2026-11-20',
            grounds: 'Paid.',
            reportIds: [reportId],
          },
        );
      await dispute(filedIds[0]!);
      const upheld = await dispute(filedIds[1]!);
      await decideDispute({ db, clock: t.clock }, { userId: operatorUser.id }, upheld.disputeId, { outcome: 'upheld', reason: 'Stands.' });
      const link = await inviteUser(db, t.clock, { email: 'newcomer@example.com', role: 'member_user', memberRef: 'FT-1', createdBy: 'test' });
      const visitor = await anonymousBrowser(t.app);
      const starts: Array<[string, PortalBrowser, string[]]> = [
        ['member_user', user, ['/portal/', '/portal/reports', '/portal/reports/new']],
        ['member_admin', admin, ['/portal/']],
        ['operator', operator, ['/portal/operator/', '/portal/operator/queue']],
        ['visitor', visitor, ['/portal/sign-in', `/portal/accept?token=${link.token}`]],
      ];
      for (const [who, browser, pages] of starts) {
        const forms: CrawledForm[] = [];
        for (const page of pages) for (const form of (await crawlPortal(browser, page)).forms) if (form.method === 'POST') forms.push(form);
        walked.push({ who, browser, forms });
      }
    });
    after(async () => {
      await t?.close();
      await database?.drop();
    });

    test('every POST route of the portal has a form on some page (so the walk below covers it)', () => {
      const actions = walked.flatMap((w) => w.forms.map((f) => f.action.split('?')[0]!));
      const pattern = (path: string) => new RegExp(`^${path.replace(/:[A-Za-z_]+/g, '[^/]+')}$`);
      const posts = registeredRoutes(t.app).filter((r) => r.method === 'POST' && r.path.startsWith('/portal'));
      const missing = posts.filter((r) => !actions.some((a) => pattern(r.path).test(a))).map((r) => r.path);
      // No field to type into: signing out, and revoking a key (the member admin here has none).
      assert.deepEqual(
        missing.filter((p) => p !== '/portal/sign-out' && p !== '/portal/api/key/revoke'),
        [],
      );
    });

    test('the withdrawal note and the operator reason of the finding are refused with a page that says why', async () => {
      const member = walked.find((w) => w.who === 'member_user')!;
      const withdraw = member.forms.find((f) => /\/withdraw$/.test(f.action))!;
      const response = await send(member.browser, withdraw, { note: 'Paid\u202efdp.exe' });
      assert.equal(response.statusCode, 400);
      assert.match(response.body, /class="notice error"/);
      const operator = walked.find((w) => w.who === 'operator')!;
      const reject = operator.forms.find((f) => /\/reject$/.test(f.action))!;
      const refused = await send(operator.browser, reject, { ...filled(reject), reason: 'Bad\u001b[31m' });
      assert.equal(refused.statusCode, 400);
      assert.match(refused.body, /control characters|kontrol karakter/);
    });
    test('each text field of each form, sent with a bidi control or a control character: nothing kept, never a 500', async () => {
      const errors: string[] = [];
      let sent = 0;
      for (const { who, browser, forms } of walked) {
        for (const form of forms) {
          const base = filled(form);
          for (const field of form.fields.filter((f) => !NOT_TEXT.has(f.name) && !NOT_TEXT.has(f.kind))) {
            for (const char of FORBIDDEN) {
              // Within the text, as a paste would put it: `Paid<U+202E>fdp.exe`.
              const value = `${base[field.name] ?? ''}${char}x`;
              const response = await send(browser, form, { ...base, [field.name]: value });
              sent++;
              if (response.statusCode >= 500) errors.push(`${who} ${form.action} ${field.name} ${JSON.stringify(char)}: ${response.statusCode}`);
            }
          }
        }
      }
      assert.ok(sent > 100, `${sent} attacks sent`);
      assert.deepEqual(errors, []);
      assert.deepEqual(await textsWithControls(database), []);
    });
  });
}
