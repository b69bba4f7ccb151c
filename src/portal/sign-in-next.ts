/**
 * Where the sign-in may send a user afterwards (`next`, issue 27 finding 10): only to a page that
 * changes nothing and counts nothing, and without a query string. A link such as
 * `/portal/sign-in?next=/portal/search?q=…` used to run a counted, audited search in the name of
 * whoever signed in through it (D28); the sign-in page is the one page another site may link to
 * with words of its choosing.
 */

/** The pages a sign-in may land on: read-only pages, never a search with its query, never a download. */
const LANDING_PAGES: readonly RegExp[] = [
  /^\/portal\/$/,
  /^\/portal\/(agreement|api|usage|search|users|reports|reports\/new)$/,
  /^\/portal\/operator\/(|queue|members|users|audit|log)$/,
  /^\/portal\/operator\/companies\/[1-9][0-9]{0,15}$/,
];

/** `candidate` when it is one of the landing pages exactly, else `fallback`. */
export function landingPageOr(candidate: string, fallback: string): string {
  return LANDING_PAGES.some((page) => page.test(candidate)) ? candidate : fallback;
}
