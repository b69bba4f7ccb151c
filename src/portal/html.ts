/**
 * HTML that escapes by default (D27, security habits). Every interpolated value is escaped
 * unless it is already `Html` (made by this tag or, for trusted fixed markup, by `trustedHtml`).
 * Arrays are joined; null, undefined and false render nothing. Type-checked: a value of an
 * unexpected type does not compile.
 */
const HTML = Symbol('html');

export interface Html {
  readonly [HTML]: true;
  readonly text: string;
}

export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c] ?? c);
}

function isHtml(value: unknown): value is Html {
  return typeof value === 'object' && value !== null && HTML in value;
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (isHtml(value)) return value.text;
  if (typeof value === 'string' || typeof value === 'number') return escapeHtml(String(value));
  return value.map(render).join('');
}

/** Markup from our own code only, never from input: a fixed string such as an SVG path. */
export function trustedHtml(text: string): Html {
  return { [HTML]: true, text };
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, i) => {
    text += render(value) + (strings[i + 1] ?? '');
  });
  return trustedHtml(text);
}
