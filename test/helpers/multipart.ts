/** The filing form's multipart posts, as a browser sends them (D29). */
import type { Response } from 'light-my-request';
import { PORTAL_ORIGIN, type PortalBrowser } from './portal.ts';

export interface FilePart {
  name: string;
  fileName: string;
  type: string;
  content: Buffer;
}

/** A multipart form post with the browser's cookies, CSRF token (unless `csrf` says otherwise) and Origin. */
export function postMultipart(
  browser: PortalBrowser,
  url: string,
  fields: Record<string, string | readonly string[]>,
  files: FilePart[],
  options: { csrf?: string | null; headers?: Record<string, string> } = {},
): Promise<Response> {
  const boundary = '----risklookup' + Math.random().toString(16).slice(2);
  const chunks: Buffer[] = [];
  const csrf = options.csrf === undefined ? browser.csrf : options.csrf;
  const all = csrf === null ? fields : { _csrf: csrf, ...fields };
  for (const [name, values] of Object.entries(all)) {
    // A repeated field (check boxes) is one part per value, as a browser sends it.
    for (const value of [values].flat()) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.fileName}"\r\nContent-Type: ${f.type}\r\n\r\n`));
    chunks.push(f.content, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return browser.app
    .inject({
      method: 'POST',
      url,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        origin: PORTAL_ORIGIN,
        cookie: browser.cookieHeader(),
        ...options.headers,
      },
      payload: Buffer.concat(chunks),
    })
    .then((r) => browser.absorb(r));
}
