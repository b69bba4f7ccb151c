/**
 * The HTML of the API reference page (Swagger UI, from our own swagger-ui-dist dependency, over
 * the served OpenAPI document) and of the error-reason page. No inline script or style: the
 * page's start-up code is a separate file, so the docs routes' CSP can say `script-src 'self'`.
 */
import { ERROR_DOCS_PATH } from '../lib/errors.ts';
import { listReasonDocs } from '../lib/error-docs.ts';

export const DOCS_PATH = '/api/v1/docs';
export const DOCS_ASSETS_PATH = `${DOCS_PATH}/assets`;

/**
 * The docs routes' policy: scripts, styles, images and fetches from this origin only (`data:`
 * images for Swagger UI's icons), nothing framed, no forms. Every other response keeps
 * `default-src 'none'` (app.ts).
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Escapes the text and turns its `code` spans into <code>. */
function inlineMarkdown(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function page(title: string, body: string, stylesheets: string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/png" href="${DOCS_ASSETS_PATH}/favicon-32x32.png">
${stylesheets.map((s) => `<link rel="stylesheet" href="${DOCS_ASSETS_PATH}/${s}">`).join('\n')}
</head>
<body>
<nav class="rl-nav"><strong>Company Risk Lookup Service</strong>
<a href="${DOCS_PATH}">API reference</a>
<a href="${ERROR_DOCS_PATH}">Error reasons</a>
<a href="/api/v1/openapi.json">OpenAPI document</a></nav>
${body}
</body>
</html>
`;
}

export function renderReferencePage(openApiPath: string): string {
  return page(
    'API reference — Company Risk Lookup Service',
    `<main id="swagger-ui" data-openapi-url="${escapeHtml(openApiPath)}"><p class="rl-loading">Loading the API reference…</p></main>
<script src="${DOCS_ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_ASSETS_PATH}/docs.js"></script>`,
    ['swagger-ui.css', 'docs.css'],
  );
}

export function renderErrorsPage(): string {
  const sections = listReasonDocs().map(
    ({ reason, status, doc }) => `<section id="reason-${reason}">
<h2><code>${reason}</code> <span class="rl-status">${status}</span></h2>
<p>${inlineMarkdown(doc.means)}</p>
<p><strong>What to do:</strong> ${inlineMarkdown(doc.todo)}</p>
</section>`,
  );
  return page(
    'Error reasons — Company Risk Lookup Service',
    `<main class="rl-errors">
<h1>Error reasons</h1>
<p>Every non-2xx answer has the body <code>{"success":false,"error","code","reason","docs"}</code>. Branch on
<code>reason</code> (stable), show <code>error</code> to a person, and follow <code>docs</code> to the entry below.</p>
${sections.join('\n')}
</main>`,
    ['docs.css'],
  );
}

/** Starts Swagger UI on the page. "Try it out" is off: a key must never live in a browser (D5). */
export const DOCS_SCRIPT = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-openapi-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 1,
    supportedSubmitMethods: [],
    validatorUrl: null,
  });
})();
`;

export const DOCS_STYLESHEET = `body { margin: 0; font-family: system-ui, sans-serif; color: #1f2933; }
.rl-nav { display: flex; gap: 1.25rem; align-items: baseline; padding: 0.75rem 1.5rem; background: #1f2933; color: #fff; }
.rl-nav a { color: #cfe3ff; }
.rl-loading { padding: 1.5rem; }
/* No key is typed into a browser page (D5): "Try it out" is off, so is "Authorize". */
.swagger-ui .auth-wrapper, .swagger-ui .authorization__btn { display: none; }
.rl-errors { max-width: 60rem; padding: 0 1.5rem 3rem; }
.rl-errors section { border-top: 1px solid #d9e2ec; padding: 0.25rem 0; }
.rl-errors section:target { background: #fff8e1; }
.rl-errors h2 { font-size: 1.1rem; }
.rl-status { color: #52606d; font-weight: normal; }
`;
