/** The page language (D27): the user's choice (session or cookie), else Accept-Language, else Turkish. */

/** The languages of the portal, the agreement and every worded problem. */
export type Locale = 'tr' | 'en';
export const LOCALES: readonly Locale[] = ['tr', 'en'];

export const DEFAULT_LOCALE: Locale = 'tr';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The best of our locales for an Accept-Language header (q-values honoured), or the default. */
export function localeFromAcceptLanguage(header: string | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  let best: { locale: Locale; q: number } | null = null;
  for (const part of header.split(',').slice(0, 20)) {
    const [tag = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (isLocale(primary) && Number.isFinite(weight) && weight > 0 && (best === null || weight > best.q)) best = { locale: primary, q: weight };
  }
  return best?.locale ?? DEFAULT_LOCALE;
}
