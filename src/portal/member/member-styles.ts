/** The member pages' own rules, appended to the portal stylesheet (assets.ts); same variables, same dark mode. */
export const MEMBER_STYLESHEET = `.muted{color:var(--muted)}
.small{font-size:.85rem}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.panel{border:2px solid var(--accent);border-radius:6px;padding:.25rem 1.25rem 1rem;margin:1rem 0}
.copy-row{display:flex;gap:.5rem;align-items:flex-start;margin:.25rem 0 1rem}
.copy-row .secret{flex:1;margin:0}
.copy-row button{flex:none}
button.danger{background:var(--bg);color:var(--error);border-color:var(--error)}
.row-actions{display:flex;gap:.5rem;flex-wrap:wrap}
button.small{padding:.15rem .6rem;font-size:.9rem}
form.stack p{margin:.5rem 0}
form.stack button[type=submit]{margin-top:.5rem}
.check{display:flex;gap:.6rem;align-items:flex-start}
.check input{margin-top:.35rem;width:1.1rem;height:1.1rem;flex:none}
.check label{margin-top:0;font-weight:400}
fieldset{border:1px solid var(--line);border-radius:4px;margin:1rem 0 0;max-width:28rem}
legend{font-weight:600;padding:0 .3rem}
.field label{margin-top:.5rem}
.agreement{border:1px solid var(--line);border-radius:6px;padding:.25rem 1.5rem 1rem;margin:1rem 0;max-width:48rem}
.agreement li{margin-bottom:.6rem}
.search-form{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end;margin-bottom:.5rem}
.search-form .field{flex:1 1 9rem}
.search-form .field-wide{flex:3 1 18rem}
.search-form .field-button{flex:0 0 auto}
.search-form label{margin-top:0}
.search-form input,.search-form select{max-width:none;height:2.6rem}
.search-form button[type=submit]{height:2.6rem}
.search-form button[type=submit]{margin:0}
.allowance{color:var(--muted);margin-top:.25rem}
.result-summary{font-weight:600}
.company{border:1px solid var(--line);border-radius:6px;padding:.25rem 1.25rem 1rem;margin:1rem 0}
.company h3{font-size:1.25rem}
.badge{display:inline-block;padding:0 .6rem;border-radius:999px;font-weight:700;font-size:.9rem}
.badge-high{background:#a4001d;color:#fff}
.badge-normal{background:#6b4e00;color:#fff}
.endpoint{border:1px solid var(--line);border-radius:6px;padding:.25rem 1.25rem .75rem;margin:1rem 0;max-width:56rem}
.endpoint h3{font-size:1.05rem;overflow-wrap:anywhere}
.state{display:inline-block;padding:0 .5rem;border-radius:4px;font-weight:600;border:1px solid currentColor}
.state-ok{color:var(--ok)}
.state-bad{color:var(--error)}
.state-wait{color:var(--muted)}
.reason{max-width:28rem;overflow-wrap:anywhere}
.pager{display:flex;gap:1.5rem;margin:.5rem 0 1rem}
input[type=url]{display:block;width:100%;max-width:40rem;padding:.5rem;font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:4px}
table.deliveries td{vertical-align:top}
span.nowrap{white-space:nowrap}
.badge.disputed,a.badge{border:2px solid var(--accent);color:var(--fg);background:var(--soft);font-weight:600}
.statement{border-left:3px solid var(--accent);padding-left:.6rem}
tr.late td{color:var(--error)}
.table-scroll{overflow-x:auto}
table.data{margin:.5rem 0 1rem;font-size:.95rem}
table.data caption{text-align:left;font-weight:600;padding:.25rem 0}
table.data th[scope=col]{border-bottom-width:2px}
table.data td,table.data tfoot th{font-variant-numeric:tabular-nums}
.usage-table td,.usage-table th[scope=col]+th[scope=col]{text-align:right}
.usage-table{max-width:24rem}
td.nowrap{white-space:nowrap}
td.num{text-align:right;white-space:nowrap}
dl.inline{display:grid;grid-template-columns:max-content 1fr;gap:0 .5rem;margin:0;font-size:.9rem}
dl.inline dt{color:var(--muted)}
dl.inline dd{margin:0}
.description{margin:.25rem 0 0}
.near{border-left:4px solid var(--accent);background:var(--soft);padding:.25rem 1rem .5rem;margin:1rem 0}
.near h2{font-size:1.1rem}
.near li{margin-bottom:.4rem}
.chart{margin:1rem 0}
.usage-chart{display:block;width:100%;max-width:760px;height:auto}
.usage-chart text{fill:var(--fg)}
`;
