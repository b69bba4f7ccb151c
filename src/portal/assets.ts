/**
 * The portal's stylesheet and script, served by us (no CDN; CSP `'self'`). The script only
 * enhances: a copy button for any element with `data-copy-target="<id>"` (forms work without it).
 */
import { createHash } from 'node:crypto';
import type { App } from '../http/app-type.ts';
import { MEMBER_STYLESHEET } from './member/member-styles.ts';

export const PORTAL_STYLESHEET = `:root{--fg:#1a1a1a;--bg:#fff;--muted:#4a4a4a;--line:#8a8a8a;--accent:#0b4f9c;--accent-fg:#fff;--error:#a4001d;--ok:#1d6b2f;--soft:#f2f5f9}
*{box-sizing:border-box}
html{font-size:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;line-height:1.5;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible,main:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem}
.skip:focus{left:.5rem}
.top{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:space-between;padding:.75rem 1.25rem;border-bottom:1px solid var(--line);background:var(--soft)}
.brand{font-weight:700;text-decoration:none;color:var(--fg)}
.nav ul{display:flex;flex-wrap:wrap;gap:1rem;list-style:none;margin:0;padding:0}
.nav a{text-decoration:none;padding:.25rem .1rem;border-bottom:3px solid transparent}
.nav a[aria-current="page"]{border-bottom-color:var(--accent);font-weight:600}
.tools{display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
.account{display:flex;gap:.5rem;align-items:center}
form.inline{display:inline-flex;gap:.5rem;align-items:center;margin:0}
table.console-members form.inline{flex-direction:column;align-items:flex-start;gap:.25rem}
table.console-members input:not([type]),table.console-members select{width:7rem}
main{max-width:60rem;margin:0 auto;padding:1.25rem}
.foot{max-width:60rem;margin:2rem auto;padding:0 1.25rem;color:var(--muted)}
h1{font-size:1.6rem;margin-top:.5rem}
label{display:block;font-weight:600;margin-top:1rem}
.hint{display:block;color:var(--muted);font-size:.9rem}
input:not([type]),input[type=text],input[type=email],input[type=password],input[type=search],input[type=date],input[type=number],select,textarea{display:block;width:100%;max-width:28rem;padding:.5rem;font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:4px}
button,.button{display:inline-block;font:inherit;padding:.45rem 1rem;border:1px solid var(--accent);border-radius:4px;background:var(--accent);color:var(--accent-fg);cursor:pointer;text-decoration:none}
button.secondary,.tools button{background:var(--bg);color:var(--accent)}
form.stack button[type=submit]{margin-top:1.25rem}
.notice{padding:.75rem 1rem;border-left:4px solid var(--accent);background:var(--soft)}
.notice.error{border-left-color:var(--error);color:var(--error);background:#fdf1f3}
.notice.ok{border-left-color:var(--ok)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1.5rem}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
.free-text{white-space:pre-line}
code,.secret{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-break:break-all}
.secret{display:block;padding:.5rem;background:var(--soft);border:1px solid var(--line);border-radius:4px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid var(--line)}
td select,td input{min-width:7rem}
@media (prefers-color-scheme:dark){:root{--fg:#f0f0f0;--bg:#121417;--muted:#c2c2c2;--line:#7a7a7a;--accent:#8cc1ff;--accent-fg:#0b1a2c;--error:#ff9aa8;--ok:#8fe0a4;--soft:#1e2228}.notice.error{background:#2a1216}}
`;

export const PORTAL_SCRIPT = `// Optional enhancement: a copy button next to secrets shown once. Pages work without it.
document.addEventListener('click', function (event) {
  var button = event.target instanceof Element ? event.target.closest('[data-copy-target]') : null;
  if (!button || !navigator.clipboard) return;
  var source = document.getElementById(button.getAttribute('data-copy-target'));
  if (!source) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(function () {
    var done = button.getAttribute('data-copied-label');
    if (done) button.textContent = done;
  });
});
document.querySelectorAll('[data-copy-target][hidden]').forEach(function (b) { if (navigator.clipboard) b.hidden = false; });
// The filing form: show only the fields the chosen report type asks for (D14); without the
// script every field shows and the server checks what the type needs.
var reportType = document.getElementById('f-type');
function showFieldsOfType() {
  var chosen = reportType.value;
  document.querySelectorAll('[data-types]').forEach(function (el) {
    el.hidden = el.getAttribute('data-types').split(' ').indexOf(chosen) === -1;
  });
  document.querySelectorAll('fieldset').forEach(function (set) {
    var parts = set.querySelectorAll('[data-types]');
    if (parts.length > 0) set.hidden = Array.prototype.every.call(parts, function (el) { return el.hidden; });
  });
}
if (reportType) { reportType.addEventListener('change', showFieldsOfType); showFieldsOfType(); }
`;

const ASSETS: Record<string, { type: string; body: string; etag: string }> = Object.fromEntries(
  [
    ['portal.css', 'text/css; charset=utf-8', PORTAL_STYLESHEET + MEMBER_STYLESHEET],
    ['portal.js', 'text/javascript; charset=utf-8', PORTAL_SCRIPT],
  ].map(([name, type, body]) => [name!, { type: type!, body: body!, etag: `"${createHash('sha256').update(body!).digest('base64url').slice(0, 27)}"` }]),
);

export function registerAssetRoutes(scope: App) {
  for (const [name, asset] of Object.entries(ASSETS)) {
    scope.get(`/assets/${name}`, { config: { portal: { session: false } } }, async (request, reply) => {
      reply.header('cache-control', 'public, max-age=300').header('etag', asset.etag).type(asset.type);
      if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
      return reply.send(asset.body);
    });
  }
}
