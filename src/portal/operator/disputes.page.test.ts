import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DisputeView } from '../../disputes/dispute-queries.ts';
import { translator } from '../messages/index.ts';
import type { PortalContext } from '../portal-context.ts';
import { myDisputesBody } from '../member/disputes.page.ts';
import { deadlineText, disputeBody } from './disputes.page.ts';

const operatorCtx: PortalContext = {
  user: { id: 1, email: 'op@bureau.test', name: 'Op', role: 'operator', memberId: null },
  member: null,
  locale: 'en',
  csrfToken: 'token-1',
};
const memberCtx: PortalContext = {
  user: { id: 2, email: 'u@m.test', name: 'U', role: 'member_user', memberId: 7 },
  member: { id: 7, ref: 'M-7', name: 'Member 7', status: 'active', tier: 'full' } as PortalContext['member'],
  locale: 'tr',
  csrfToken: 'token-2',
};

function view(overrides: Partial<DisputeView> = {}): DisputeView {
  return {
    id: 4,
    state: 'awaiting_member',
    outcome: null,
    receivedOn: '2026-11-20',
    grounds: '<img src=x onerror=alert(1)> paid',
    identification: { method: 'kep', reference: 'a@hs01.kep.tr' },
    decisionReason: null,
    decidedAt: null,
    statement: null,
    recordedAt: '2026-11-21 12:00:00',
    company: { id: 3, name: 'Ege & Co <A.Ş.>', taxId: '1234567890', country: 'TR', city: 'İzmir' },
    deadlines: { decision: { dueOn: '2026-12-20', daysLeft: 29 }, member: { dueOn: '2026-12-06', daysLeft: 15 } },
    reports: [
      {
        reportId: 11,
        filingMemberId: 7,
        response: 'awaited',
        responseText: null,
        respondedAt: null,
        status: 'approved',
        type: 'unpaid_debt',
        description: 'Invoices',
        eventDate: '2026-09-30',
        filedAt: 0,
        amountMinor: 1250050,
        currency: 'TRY',
      },
    ],
    attachments: [],
    steps: [{ step: 'record', reportId: null, at: '2026-11-21 12:00:00', by: 'op@bureau.test', from: null, to: 'awaiting_member', text: 'x' }],
    ...overrides,
  };
}

test('deadlines in words: days left, the last day, days late, in both languages', () => {
  const en = translator('en');
  const tr = translator('tr');
  assert.equal(deadlineText(en, { dueOn: '2026-12-06', daysLeft: 3 }), '2026-12-06 (3 days left)');
  assert.equal(deadlineText(en, { dueOn: '2026-12-06', daysLeft: 0 }), '2026-12-06 (last day today)');
  assert.equal(deadlineText(en, { dueOn: '2026-12-06', daysLeft: -2 }), '2026-12-06 (2 days late)');
  assert.equal(deadlineText(tr, { dueOn: '2026-12-06', daysLeft: 3 }), '2026-12-06 (3 gün kaldı)');
  assert.equal(deadlineText(tr, null), '—');
});

test("the operator's page: escaped values, the decision form with the CSRF token while undecided, the statement form only after upheld", () => {
  const open = disputeBody(operatorCtx, view(), { done: null, problems: [] }).text;
  assert.match(open, /&lt;img src=x onerror=alert\(1\)&gt; paid/);
  assert.doesNotMatch(open, /<img/);
  assert.match(open, /action="\/portal\/operator\/disputes\/4\/decide"/);
  assert.match(open, /name="_csrf" value="token-1"/);
  assert.match(open, /name="correct_11_amount"/);
  assert.doesNotMatch(open, /\/statement"/);
  const upheld = disputeBody(
    operatorCtx,
    view({ state: 'decided', outcome: 'upheld', decisionReason: 'Stands', deadlines: { decision: null, member: null } }),
    {
      done: null,
      problems: [],
    },
  ).text;
  assert.doesNotMatch(upheld, /\/decide"/);
  assert.match(upheld, /action="\/portal\/operator\/disputes\/4\/statement"/);
  assert.match(upheld, /maxlength="500"/);
  const corrected = disputeBody(operatorCtx, view({ state: 'decided', outcome: 'corrected', deadlines: { decision: null, member: null } }), {
    done: null,
    problems: [],
  }).text;
  assert.doesNotMatch(corrected, /\/statement"/);
});

test("the member's page: support and withdraw while its report is awaited and in time, only withdraw once late, nothing once answered", () => {
  const mine = view({ identification: null });
  const page = myDisputesBody(memberCtx, [mine], { done: null, disputeId: null, problems: [] }).text;
  assert.match(page, /\/portal\/disputes\/4\/reports\/11\/support/);
  assert.match(page, /\/portal\/disputes\/4\/reports\/11\/withdraw/);
  assert.match(page, /15 gün kaldı/);
  assert.match(page, /Ege &amp; Co &lt;A.Ş.&gt;/);
  const late = myDisputesBody(memberCtx, [view({ deadlines: { decision: null, member: { dueOn: '2026-12-06', daysLeft: -1 } } })], {
    done: null,
    disputeId: null,
    problems: [],
  }).text;
  assert.doesNotMatch(late, /\/support"/);
  assert.match(late, /\/withdraw"/);
  const answered = myDisputesBody(memberCtx, [view({ reports: [{ ...mine.reports[0]!, response: 'supported' }] })], {
    done: null,
    disputeId: null,
    problems: [],
  }).text;
  assert.doesNotMatch(answered, /\/withdraw"/);
  assert.match(answered, /Operatörde/, "once it answered, the bureau's turn");
});
