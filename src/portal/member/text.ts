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

const MEMBER_MESSAGES = { ...agreementMessages, ...apiKeyMessages, ...searchMessages, ...usageMessages, ...usersMessages } as const;

export type MemberTextKey = keyof typeof MEMBER_MESSAGES;
export type MemberText = (key: MemberTextKey, vars?: Readonly<Record<string, string | number>>) => string;

export function memberText(locale: Locale): MemberText {
  return (key, vars = {}) => {
    const text: string = MEMBER_MESSAGES[key]?.[locale] ?? key;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
  };
}
