/**
 * The portal's route table (issue 29): every page's path once. `route` is what a route module
 * registers inside the /portal scope (portal.plugin.ts); `href` is what pages link to and
 * handlers redirect to, a function for a path with parameters:
 *
 *   scope.get(paths.operatorCompany.route, …)                 // '/operator/companies/:id'
 *   html`<a href="${paths.operatorCompany.href(id)}">…</a>`   // '/portal/operator/companies/12'
 *
 * Parameters are put in with encodeURIComponent; a query string is the caller's (`withQuery`).
 */
export const PORTAL_PREFIX = '/portal';

interface Fixed {
  readonly route: string;
  readonly href: string;
}

interface Parameterised<A extends readonly (string | number)[]> {
  readonly route: string;
  readonly href: (...values: A) => string;
}

function fixed(route: string): Fixed {
  return { route, href: `${PORTAL_PREFIX}${route}` };
}

/** `route` with its `:name` parts filled in order by `href(…values)`. */
function withParams<A extends readonly (string | number)[]>(route: string): Parameterised<A> {
  return {
    route,
    href: (...values: A) => {
      let i = 0;
      return PORTAL_PREFIX + route.replace(/:[a-z]+/g, () => encodeURIComponent(String(values[i++])));
    },
  };
}

type Id = [id: number];

export const paths = {
  home: fixed('/'),
  assets: withParams<[name: string]>('/assets/:name'),
  // Signing in and out (auth.routes.ts), the language switch.
  signIn: fixed('/sign-in'),
  signOut: fixed('/sign-out'),
  accept: fixed('/accept'),
  locale: fixed('/locale'),
  // A member's pages (member/).
  agreement: fixed('/agreement'),
  agreementSign: fixed('/agreement/sign'),
  api: fixed('/api'),
  apiKey: fixed('/api/key'),
  apiKeyRevoke: fixed('/api/key/revoke'),
  usage: fixed('/usage'),
  usageCsv: fixed('/usage.csv'),
  search: fixed('/search'),
  users: fixed('/users'),
  usersInvite: fixed('/users/invite'),
  userLink: withParams<Id>('/users/:id/link'),
  userDisable: withParams<Id>('/users/:id/disable'),
  watchlist: fixed('/watchlist'),
  watchlistRemove: fixed('/watchlist/remove'),
  webhooks: fixed('/webhooks'),
  webhookDeliveries: withParams<Id>('/webhooks/:id/deliveries'),
  webhookDelete: withParams<Id>('/webhooks/:id/delete'),
  webhookEnable: withParams<Id>('/webhooks/:id/enable'),
  webhookRotate: withParams<Id>('/webhooks/:id/rotate'),
  webhookTest: withParams<Id>('/webhooks/:id/test'),
  redeliver: withParams<Id>('/webhooks/deliveries/:id/redeliver'),
  // A member's reports (reports.routes.ts) and disputes (member/disputes.routes.ts).
  reports: fixed('/reports'),
  reportsNew: fixed('/reports/new'),
  reportWithdraw: withParams<Id>('/reports/:id/withdraw'),
  reportAttachment: withParams<Id>('/reports/attachments/:id'),
  taxIdCheck: fixed('/reports/check-tax-id'),
  taxIdCheckScript: fixed('/reports/tax-id-check.js'),
  disputes: fixed('/disputes'),
  disputeAttachment: withParams<Id>('/disputes/attachments/:id'),
  disputeReportWithdraw: withParams<[id: number, report: number]>('/disputes/:id/reports/:report/withdraw'),
  disputeReportSupport: withParams<[id: number, report: number]>('/disputes/:id/reports/:report/support'),
  // The operator console (operator-*.routes.ts).
  operator: fixed('/operator/'),
  operatorQueue: fixed('/operator/queue'),
  operatorReportStep: withParams<[id: number, step: string]>('/operator/reports/:id/:step'),
  operatorCompanies: fixed('/operator/companies'),
  operatorCompany: withParams<Id>('/operator/companies/:id'),
  operatorAttachment: withParams<Id>('/operator/attachments/:id'),
  operatorMembers: fixed('/operator/members'),
  operatorMemberAction: withParams<[ref: string, what: string]>('/operator/members/:ref/:what'),
  operatorUsers: fixed('/operator/users'),
  operatorUserAction: withParams<[what: string]>('/operator/users/:what'),
  operatorAudit: fixed('/operator/audit'),
  operatorLog: fixed('/operator/log'),
  operatorDisclosure: fixed('/operator/disclosure'),
  operatorDisclosurePdf: fixed('/operator/disclosure.pdf'),
  operatorDisputes: fixed('/operator/disputes'),
  operatorDisputesNew: fixed('/operator/disputes/new'),
  operatorDispute: withParams<Id>('/operator/disputes/:id'),
  operatorDisputeDecide: withParams<Id>('/operator/disputes/:id/decide'),
  operatorDisputeStatement: withParams<Id>('/operator/disputes/:id/statement'),
  operatorDisputeAttachment: withParams<Id>('/operator/disputes/attachments/:id'),
} as const;

/** `path?name=value&…` (values encoded; undefined ones left out). */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const defined = Object.entries(query).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  if (defined.length === 0) return path;
  return `${path}?${new URLSearchParams(defined.map(([k, v]) => [k, String(v)])).toString()}`;
}
