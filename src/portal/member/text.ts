/** The member pages' texts: the portal catalogue (messages/index.ts), bound to the page's locale. */
import { translator, type MessageKey } from '../messages/index.ts';
import type { Locale } from '../portal-context.ts';

export type MemberTextKey = MessageKey;
export type MemberText = ReturnType<typeof translator>;

export function memberText(locale: Locale): MemberText {
  return translator(locale);
}
