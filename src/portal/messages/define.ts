/**
 * How a feature's texts are written: every key carries both languages side by side, so a
 * missing translation does not compile. `{name}` marks a value filled in by `t` (plain text;
 * the html tag escapes it when it reaches a page).
 */
import type { Locale } from '../portal-context.ts';

export type Texts = Readonly<Record<Locale, string>>;

export function defineMessages<const M extends Record<string, Texts>>(messages: M): M {
  return messages;
}
