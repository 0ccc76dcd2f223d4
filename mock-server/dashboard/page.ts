/**
 * The text of the admin dashboard (GET /__mock/, routes/dashboard.ts): one HTML page with its style and
 * script inline (the script is page-script.ts, type-checked), nothing fetched but the admin JSON routes of
 * the same server. The page is sent with every panel filled in from the admin routes' answers as the
 * route read them (panels.ts renders them, every value escaped as text), so its first paint carries the
 * state; the script then keeps the panels up to date with the same renderer, with textContent (never as
 * markup). It is served with a Content-Security-Policy that runs only this script and this style (their
 * SHA-256 hashes: the state is in the markup, never in the script) and lets the page connect only to its own origin.
 */
import { sha256Base64 } from '../kit/digest.js';
import { LISTING_STATUSES } from '../../src/contract/enums.js';
import { DASHBOARD_HEADER } from '../../src/contract/mock-admin.js';
import { dashboardPanels, type DashboardReads, type DashboardScriptArgs, type PanelFill, type PanelNode } from './panels.js';
import { dashboardScript } from './page-script.js';

/** The constants of the page: the newest entries each list panel shows (what the route reads for the first paint too). */
export const DASHBOARD_ARGS: DashboardScriptArgs = {
  statusNames: LISTING_STATUSES,
  rows: { requests: 25, orders: 10, outbox: 20, webhooks: 20 },
  bidRows: 10,
  dashboardHeader: DASHBOARD_HEADER,
};

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d232a;background:#f4f6f8}
header{display:flex;flex-wrap:wrap;gap:12px;align-items:center;padding:10px 16px;background:#1d232a;color:#fff}
header h1{font-size:16px;margin:0 12px 0 0}
#clock-now{font:600 15px ui-monospace,monospace}
#clock-state,#clock-move{opacity:.8}
button{font:inherit;padding:3px 10px;border:1px solid #8a96a3;border-radius:4px;background:#fff;cursor:pointer}
button:disabled{opacity:.5;cursor:default}
main{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(420px,100%),1fr));gap:12px;padding:12px}
section{background:#fff;border:1px solid #d5dbe1;border-radius:6px;padding:8px 12px;overflow:auto;min-width:0}
section.wide{grid-column:1/-1}
h2{font-size:14px;margin:4px 0 8px;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:2px 8px 2px 0;border-bottom:1px solid #eef1f4;vertical-align:top;white-space:nowrap}
td.body{font:12px ui-monospace,monospace;min-width:12em}
td.body,td.wrap{white-space:normal;overflow-wrap:anywhere}
.cut{display:inline-block;vertical-align:top;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.cut.id{max-width:9ch}
.cut.path{max-width:40ch}
.cut.name{max-width:16ch}
table.orders tr.first td{border-top:1px solid #c5ccd4}
.num{text-align:right}
td.soft{white-space:normal}
#status{padding:4px 16px;min-height:1.4em;overflow-wrap:anywhere}
#status.error{background:#fde8e8;color:#8a1c1c}
.bad{color:#8a1c1c;font-weight:600}
.ok{color:#1c6b2a}
`;

/**
 * The page's script: dashboardScript's own source text called with its arguments as JSON (`<` escaped, so
 * that nothing in them can end the script element). The CSP hashes this very text, as served.
 */
const SCRIPT = `\n(${dashboardScript.toString()})(${JSON.stringify(DASHBOARD_ARGS).replace(/</g, '\\u003c')}, ${dashboardPanels.toString()});\n`;

const escapeText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const attribute = (text: string): string => escapeText(text).replace(/"/g, '&quot;');

/** A panel's node as markup: its text escaped, its few attributes quoted and escaped. */
function nodeHtml(n: PanelNode): string {
  let attrs = '';
  if (n.cls) attrs += ` class="${attribute(n.cls)}"`;
  if (n.title !== undefined) attrs += ` title="${attribute(n.title)}"`;
  if (n.rows !== undefined) attrs += ` rowspan="${Math.trunc(n.rows)}"`;
  if (n.cols !== undefined) attrs += ` colspan="${Math.trunc(n.cols)}"`;
  if (n.snapshot !== undefined) attrs += ` data-snapshot="${attribute(n.snapshot)}"`;
  if (n.disabled) attrs += ' disabled';
  return `<${n.tag}${attrs}>${escapeText(n.text ?? '')}${(n.children ?? []).map(nodeHtml).join('')}</${n.tag}>`;
}

/** The page's body with each element a panel fills (by id) filled from `fills`; an id the body lacks is a bug, thrown. */
function body(fills: readonly PanelFill[]): string {
  const byId = new Map(fills.map((f) => [f.id, f]));
  const slot = (tag: string, id: string): string => {
    const f = byId.get(id);
    byId.delete(id);
    const cls = f?.cls ? ` class="${attribute(f.cls)}"` : '';
    const inner = f?.nodes ? f.nodes.map(nodeHtml).join('') : escapeText(f?.text ?? '');
    return `<${tag} id="${id}"${cls}>${inner}</${tag}>`;
  };
  const html = `
<header>
  <h1>mkt mock</h1>
  <span>clock ${slot('span', 'clock-now')} ${slot('span', 'clock-state')} ${slot('span', 'clock-move')}</span>
  <span>move it: <button class="advance" data-advance="1h">+1 hour</button>
  <button class="advance" data-advance="1d">+1 day</button>
  <button class="advance" data-advance="15d">+15 days</button></span>
</header>
<div id="status" role="status"></div>
<main>
  <section id="world-panel"><h2>World at ${slot('span', 'world-now')}</h2>
    ${slot('div', 'world-facts')}${slot('p', 'world-invariants')}
    <h2>Listings by status</h2>${slot('div', 'listings-by-status')}</section>
  <section id="accounts-panel"><h2>Accounts</h2>${slot('div', 'accounts')}</section>
  <section id="orders-panel" class="wide"><h2>Orders, newest first (${slot('span', 'orders-count')})</h2>${slot('div', 'orders')}</section>
  <section id="faults-panel"><h2>Faults: ${slot('span', 'faults-on')} <button id="faults-clear">clear</button></h2>${slot('div', 'faults')}</section>
  <section id="snapshots-panel"><h2>Snapshots</h2>
    <p><input id="snapshot-name" placeholder="name" size="20"> <label><input type="checkbox" id="snapshot-replace"> replace</label>
    <button id="snapshot-save">save the world</button></p>${slot('div', 'snapshots')}</section>
  <section id="request-log-panel" class="wide"><h2>Request log, newest first (${slot('span', 'request-log-count')})</h2>${slot('div', 'request-log')}</section>
  <section id="outbox-panel" class="wide"><h2>Outbox (${slot('span', 'outbox-count')})</h2>${slot('div', 'outbox')}</section>
  <section id="webhooks-panel" class="wide"><h2>Webhooks: ${slot('span', 'webhooks-counts')}</h2>${slot('div', 'webhooks')}</section>
</main>
`;
  if (byId.size > 0) throw new Error(`the dashboard page has no element for ${[...byId.keys()].join(', ')}`);
  return html;
}

const hash = (text: string): string => `'sha256-${sha256Base64(text)}'`;

/** The policy the page is served with: nothing runs but its own script and style, nothing is fetched from elsewhere. */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  `script-src ${hash(SCRIPT)}`,
  `style-src ${hash(STYLE)}`,
  "connect-src 'self'",
  // The empty icon of the page as data: (else the browser asks for /favicon.ico, a 404 in the request log and the console).
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The page for a mock whose admin routes live at `adminPrefix` (the base path and /__mock), its panels
 * showing `reads` (what each admin route the script reads answered, read by the route as it serves the page);
 * a read the route could not make leaves its panel empty, for the script, whose read of it says why.
 */
export function dashboardHtml(adminPrefix: string, reads: Partial<DashboardReads>): string {
  const panels = dashboardPanels(DASHBOARD_ARGS);
  const fills = (Object.keys(panels) as (keyof DashboardReads)[]).flatMap(<K extends keyof DashboardReads>(k: K) => {
    const data = reads[k];
    return data === undefined ? [] : panels[k](data);
  });
  return `<!doctype html>
<html lang="en" data-admin="${attribute(adminPrefix)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>mkt mock dashboard</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style></head>
<body>${body(fills)}<script>${SCRIPT}</script>
</body></html>
`;
}
