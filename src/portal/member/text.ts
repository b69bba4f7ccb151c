/**
 * The member pages' texts, from their catalogue files (src/portal/messages/), in the page's
 * locale, with `{name}` placeholders filled in.
 */
import type { Locale } from '../portal-context.ts';
import { agreementMessages } from '../messages/agreement.ts';
import { apiKeyMessages } from '../messages/api-key.ts';
import { searchMessages } from '../messages/search.ts';
import { usageMessages } from '../messages/usage.ts';
import { usersMessages } from '../messages/users.ts';

export const MEMBER_CATALOGUES = [agreementMessages, apiKeyMessages, searchMessages, usageMessages, usersMessages] as const;

type Catalogue = (typeof MEMBER_CATALOGUES)[number];
type KeysOf<C> = C extends { en: infer E } ? keyof E : never;
export type MemberTextKey = KeysOf<Catalogue>;
export type MemberText = (key: MemberTextKey, vars?: Record<string, string | number>) => string;

const TABLES: Record<Locale, Map<string, string>> = {
  en: new Map(MEMBER_CATALOGUES.flatMap((c) => Object.entries(c.en))),
  tr: new Map(MEMBER_CATALOGUES.flatMap((c) => Object.entries(c.tr))),
};

export function memberText(locale: Locale): MemberText {
  const table = TABLES[locale];
  return (key, vars = {}) => (table.get(key) ?? key).replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
