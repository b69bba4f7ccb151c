/** Reading urlencoded form fields: one string per name (a repeated or missing field reads as ''). */
export type FormBody = Record<string, string | string[] | undefined> | null | undefined;

export function formField(body: unknown, name: string, maxLength = 1000): string {
  const value = (body as FormBody)?.[name];
  return typeof value === 'string' ? value.slice(0, maxLength) : '';
}

/**
 * A path inside the portal (with its query) to return to after a form, or the fallback: never
 * another site (no scheme, no `//`, no backslash can pass).
 */
export function portalPathOr(candidate: string, fallback: string): string {
  return /^\/portal\/[A-Za-z0-9\-._~/%]*(\?[A-Za-z0-9\-._~%=&+]*)?$/.test(candidate) && !candidate.includes('//') ? candidate : fallback;
}
