/**
 * Walks the portal as a signed-in user would: from a start page, every `/portal/` link and every
 * GET form, page after page, collecting the forms it meets (POST ones are only read, never sent)
 * and every query parameter name the pages use. Tests that must cover every form or parameter
 * take them from here, so a page added later is covered without a list to keep.
 */
import type { PortalBrowser } from './portal.ts';

export interface CrawledField {
  name: string;
  /** input type (text, hidden, email, date, file…), `textarea` or `select`. */
  kind: string;
  value: string;
}

export interface CrawledForm {
  method: 'GET' | 'POST';
  action: string;
  enctype: string;
  fields: CrawledField[];
  /** The page it was found on. */
  page: string;
}

export interface Crawl {
  pages: string[];
  forms: CrawledForm[];
  /** Every query parameter name in a link, a GET form or a redirect. */
  queryNames: Set<string>;
}

const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
const unescape = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** The forms of one page, with their fields as the browser would send them by default. */
export function formsOf(body: string, page: string): CrawledForm[] {
  const forms: CrawledForm[] = [];
  for (const match of body.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const [, open = '', inner = ''] = match;
    const fields: CrawledField[] = [];
    for (const input of inner.matchAll(/<input\b[^>]*>/g)) {
      const name = attr(input[0], 'name');
      if (name) fields.push({ name, kind: attr(input[0], 'type') ?? 'text', value: unescape(attr(input[0], 'value') ?? '') });
    }
    for (const area of inner.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) {
      const name = attr(area[1] ?? '', 'name');
      if (name) fields.push({ name, kind: 'textarea', value: unescape(area[2] ?? '') });
    }
    for (const select of inner.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
      const name = attr(select[1] ?? '', 'name');
      const options = [...(select[2] ?? '').matchAll(/<option\b([^>]*)>([^<]*)</g)];
      const chosen = options.find((o) => /\bselected\b/.test(o[1] ?? '')) ?? options[0];
      if (name) fields.push({ name, kind: 'select', value: unescape(attr(chosen?.[1] ?? '', 'value') ?? chosen?.[2]?.trim() ?? '') });
    }
    const method = (attr(open, 'method') ?? 'get').toUpperCase() === 'POST' ? 'POST' : 'GET';
    forms.push({ method, action: unescape(attr(open, 'action') ?? page), enctype: attr(open, 'enctype') ?? 'application/x-www-form-urlencoded', fields, page });
  }
  return forms;
}

function namesOf(url: string): string[] {
  const query = url.split('?')[1];
  return query ? [...new URLSearchParams(query).keys()] : [];
}

/** Pages are visited once each, by path; downloads (attachments, CSV) are not opened. */
export async function crawlPortal(browser: PortalBrowser, start = '/portal/', maxPages = 60): Promise<Crawl> {
  const seen = new Set<string>();
  const queue = [start];
  const crawl: Crawl = { pages: [], forms: [], queryNames: new Set() };
  while (queue.length > 0 && crawl.pages.length < maxPages) {
    const url = queue.shift()!;
    const path = url.split('?')[0]!;
    if (seen.has(path) || /\/attachments\/|\.csv$|\/assets\//.test(path)) continue;
    seen.add(path);
    for (const name of namesOf(url)) crawl.queryNames.add(name);
    const response = await browser.get(url);
    if (response.statusCode === 303) {
      const location = String(response.headers.location);
      for (const name of namesOf(location)) crawl.queryNames.add(name);
      queue.push(location);
      continue;
    }
    if (!String(response.headers['content-type']).startsWith('text/html')) continue;
    crawl.pages.push(path);
    for (const link of response.body.matchAll(/href="(\/portal\/[^"]*)"/g)) {
      const href = unescape(link[1]!);
      for (const name of namesOf(href)) crawl.queryNames.add(name);
      queue.push(href);
    }
    for (const form of formsOf(response.body, path)) {
      if (!crawl.forms.some((f) => f.method === form.method && f.action === form.action && f.page === form.page)) crawl.forms.push(form);
      if (form.method === 'GET') for (const field of form.fields) crawl.queryNames.add(field.name);
      for (const name of namesOf(form.action)) crawl.queryNames.add(name);
    }
  }
  return crawl;
}
