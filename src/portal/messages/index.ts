/**
 * The one catalogue of portal texts, Turkish and English (D27). Each feature keeps its texts in
 * its own file (`messages/<feature>.ts`, keys prefixed with the feature) and is added here with
 * one line; `t` is type-checked on the keys.
 */
import type { Locale } from '../portal-context.ts';
import { authMessages } from './auth.ts';
import { consoleMessages } from './console.ts';
import { homeMessages } from './home.ts';
import { layoutMessages } from './layout.ts';
import { agreementMessages } from './agreement.ts';
import { apiKeyMessages } from './api-key.ts';
import { searchMessages } from './search.ts';
import { usageMessages } from './usage.ts';
import { usersMessages } from './users.ts';
import { reportsMessages } from './reports.ts';
import { caseFieldMessages } from './case-fields.ts';
import { problemWordMessages } from './problem-words.ts';
import { filingProblemMessages } from './problems-filing.ts';
import { reportProblemMessages } from './problems-reports.ts';
import { accountProblemMessages } from './problems-accounts.ts';
import { requestProblemMessages } from './problems-requests.ts';
import { webhookProblemMessages } from './problems-webhooks.ts';
import { disputeProblemMessages } from './problems-disputes.ts';
import { disputesMessages } from './disputes.ts';
import { disclosureMessages } from './disclosure.ts';
import { webhooksMessages } from './webhooks.ts';
import { watchlistMessages } from './watchlist.ts';

export const MESSAGES = {
  ...layoutMessages,
  ...authMessages,
  ...homeMessages,
  ...agreementMessages,
  ...apiKeyMessages,
  ...usageMessages,
  ...searchMessages,
  ...usersMessages,
  ...reportsMessages,
  ...caseFieldMessages,
  ...consoleMessages,
  ...problemWordMessages,
  ...filingProblemMessages,
  ...reportProblemMessages,
  ...accountProblemMessages,
  ...requestProblemMessages,
  ...webhookProblemMessages,
  ...disputeProblemMessages,
  ...disputesMessages,
  ...disclosureMessages,
  ...webhooksMessages,
  ...watchlistMessages,
} as const;

/** Each feature file, for the test that no two define the same key. */
export const MESSAGE_FILES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  layout: layoutMessages,
  auth: authMessages,
  home: homeMessages,
  agreement: agreementMessages,
  'api-key': apiKeyMessages,
  usage: usageMessages,
  search: searchMessages,
  users: usersMessages,
  reports: reportsMessages,
  'case-fields': caseFieldMessages,
  console: consoleMessages,
  'problem-words': problemWordMessages,
  'problems-filing': filingProblemMessages,
  'problems-reports': reportProblemMessages,
  'problems-accounts': accountProblemMessages,
  'problems-requests': requestProblemMessages,
  'problems-webhooks': webhookProblemMessages,
  'problems-disputes': disputeProblemMessages,
  disputes: disputesMessages,
  disclosure: disclosureMessages,
  webhooks: webhooksMessages,
  watchlist: watchlistMessages,
};

export type MessageKey = keyof typeof MESSAGES;

/** The text for `key` in `locale`, with `{name}` placeholders filled from `values` (plain text). */
export function t(locale: Locale, key: MessageKey, values: Readonly<Record<string, string | number>> = {}): string {
  const text: string = MESSAGES[key][locale];
  return text.replace(/\{([a-zA-Z0-9_]+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** A translator bound to one locale: `const tr = translator(ctx.locale); tr('home.title')`. */
export function translator(locale: Locale): (key: MessageKey, values?: Readonly<Record<string, string | number>>) => string {
  return (key, values) => t(locale, key, values);
}
