/**
 * The composition root (issue 29): every feature's use cases built once from their factories,
 * each with the narrow dependencies it uses and the settings it needs picked from `Config` here
 * (features never import config.ts). `buildApp` builds them for the API and the portal, the
 * server's background work for its jobs, each CLI command for its own run (cli/context.ts
 * `commandServices`); routes, jobs and commands receive the services they call and stay adapters
 * (parse, call, render). Every use case takes `(actor, input)` (src/actors/actor.ts). A new
 * feature adds its factory here.
 */
import { createAgreement } from './agreement/agreement.service.ts';
import { createAuditRetention } from './audit/audit-retention.ts';
import type { AuditWriter } from './audit/audit-writer.ts';
import type { Config } from './config.ts';
import type { CountryCatalogue } from './countries/catalogue.ts';
import type { DialectSeam } from './db/dialect-seam.ts';
import type { Db } from './db/types.ts';
import { createDisclosure } from './disclosure/disclosure.service.ts';
import { disputesForDisclosure } from './disputes/disputes.repository.ts';
import { createDisputes } from './disputes/disputes.service.ts';
import { createEventFeed } from './events/event-feed.service.ts';
import { recordCompanyChanges } from './events/company-changes.ts';
import type { JobLog } from './jobs/job-types.ts';
import { createMemberKeys } from './keys/member-key.service.ts';
import type { Clock } from './lib/clock.ts';
import { createMemberUsers } from './members/member-users.service.ts';
import { createMemberAdmin } from './operator/member-admin.service.ts';
import { createUserAdmin } from './operator/user-admin.service.ts';
import { quotaOn } from './quota/allowance.ts';
import { createMemberUsage } from './quota/member-usage.service.ts';
import { createFiling } from './reports/filing.service.ts';
import { createReportQueries } from './reports/report-queries.service.ts';
import { createReportModeration } from './reports/moderation.service.ts';
import { createRetention } from './retention/retention.service.ts';
import { createSearch } from './search/answer-search.ts';
import { createSignIn } from './sessions/auth.service.ts';
import { createSessions } from './sessions/sessions.service.ts';
import { createCompanySearch } from './search/company-search.ts';
import { createPortalSearch } from './search/portal-search.service.ts';
import { createSupportSearch } from './search/support-search.service.ts';
import { createSecrets } from './secrets/secrets.service.ts';
import type { KeyRing } from './secrets/key-ring.ts';
import { createWatchlist } from './watchlist/watchlist.service.ts';
import { createWebhookDeliveries } from './webhooks/webhook-deliveries.service.ts';
import { createWebhookEndpoints } from './webhooks/webhook-endpoints.service.ts';
import { systemResolver } from './webhooks/safe-lookup.ts';

export interface ServicesDeps {
  db: Db;
  /** The engine's dialect seam, for the name search (db/dialect-seam.ts); a command that searches nothing leaves it out. */
  seam?: DialectSeam;
  clock: Clock;
  config: Config;
  /** Where the use cases' warnings go (the server's logger; a command's stderr). */
  log?: JobLog;
  /**
   * The served countries (D22), built from `config.countries` by the caller: the catalogue loads
   * the tax-ID validators, which a command that checks no tax ID does not load (cli/context.ts).
   */
  countries?: CountryCatalogue;
  /** The search audit's writer (D21), for the portal's search; a command that searches nothing leaves it out. */
  audit?: AuditWriter;
  /** D35: seals operators' TOTP seeds and webhooks' signing secrets; a command that seals nothing leaves it out. */
  keyRing?: KeyRing;
}

/** Stands in for a dependency the caller did not pass: any use of it says so. */
function missing<T extends object>(what: string): T {
  return new Proxy({} as T, {
    get: (_target, property) => {
      throw new Error(`createServices: this caller passed no ${what} (asked for its ${String(property)})`);
    },
  });
}

export function createServices({ db, seam, clock, config, log, audit, countries = missing<CountryCatalogue>('country catalogue'), keyRing }: ServicesDeps) {
  const companySearch = createCompanySearch({
    db,
    seam: seam ?? missing<DialectSeam>('seam'),
    maxResults: config.maxResults,
    cacheEntries: config.searchCacheEntries,
    nearMatchThreshold: config.nearMatchThreshold,
    nameIndex: config.nameIndex,
    ...(log ? { log } : {}),
  });
  const search = createSearch({ countries, search: companySearch, quota: quotaOn(db), clock });
  return {
    countries,
    /** The name and tax-ID search (D7–D10, D25) with its cache; `warmUp` samples the names. */
    companySearch,
    search,
    /** Support staff's search (the CLI's `search`): the API's answer, uncharged, audited as the operator (D21, channel `cli`). */
    supportSearch: createSupportSearch({ db, clock, search }),
    /** The portal's search (D28): the API's answer, charged to the user's and its member's allowances. */
    portalSearch: createPortalSearch({
      db,
      clock,
      searchUseCase: search,
      audit: audit ?? missing<AuditWriter>('audit writer'),
      countryCodes: () => countries.list().map((c) => c.code),
      dailyLimit: config.portalDailyLimit,
      memberDailyLimit: config.portalMemberDailyLimit,
      auditQueryChars: config.auditQueryChars,
    }),
    memberAdmin: createMemberAdmin({ db, clock }),
    /** The member's data agreement (D28): its users read it, its admin signs it. */
    agreement: createAgreement({ db, clock }),
    /** A member's searches per day: its own 30 days (the portal), the API's by ref (the CLI's `usage`). */
    memberUsage: createMemberUsage({ db, clock }),
    /** The search audit's purge by age (D21; the CLI's `audit purge`). */
    auditRetention: createAuditRetention({ db, clock }),
    memberUsers: createMemberUsers({ db, clock, maxUsers: config.maxUsersPerMember, ...(log ? { log } : {}) }),
    userAdmin: createUserAdmin({ db, clock, ...(keyRing ? { keyRing } : {}) }),
    moderation: createReportModeration({ db, clock }),
    /** The reports' reads: a member's own reports, the operator's queue and company files, attachments. */
    reports: createReportQueries({ db, clock, countries }),
    filing: createFiling({ db, clock, countries, filingsPerDay: config.filingsPerMemberPerDay }),
    disputes: createDisputes({ db, clock }),
    /** What is held on a company (D34), with the retention settings its document states. */
    disclosure: createDisclosure({ db, clock, countries, retention: config.retention, disputes: disputesForDisclosure }),
    retention: createRetention({ db, clock, settings: config.retention, recordCompanyChanges }),
    watchlist: createWatchlist({ db, clock, countries, defaultCap: config.watchlistCap }),
    events: createEventFeed({ db }),
    memberKeys: createMemberKeys({ db, clock, defaultDailyLimit: config.defaultDailyLimit }),
    webhookEndpoints: createWebhookEndpoints({
      db,
      clock,
      keyRing: keyRing ?? missing<KeyRing>('key ring'),
      addresses: { resolve: systemResolver, allowPrivate: config.webhookAllowPrivateAddresses },
    }),
    webhookDeliveries: createWebhookDeliveries({ db, clock }),
    /** The portal's sessions (D27): resolve a cookie's, start, end, the session's language. */
    sessions: createSessions({ db, clock }),
    /** The sealed secrets as a whole (D35; the CLI's `secrets rotate` and `secrets status`). */
    secrets: createSecrets({ db, keyRing: keyRing ?? missing<KeyRing>('key ring') }),
    /** Signing in (D27): attempts with their slowing, known browsers, one-time links, an operator's step-up. */
    signIn: createSignIn({ db, clock, keyRing: keyRing ?? missing<KeyRing>('key ring') }),
  };
}

export type Services = ReturnType<typeof createServices>;
