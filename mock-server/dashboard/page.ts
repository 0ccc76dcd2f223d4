/**
 * The text of the admin dashboard (GET /__mock/, routes/dashboard.ts): one HTML page with its style and
 * script inline (the script is page-script.ts, type-checked), nothing fetched but the admin JSON routes of
 * the same server. The script shows every value with textContent (never as markup), and the page is served with a
 * Content-Security-Policy that runs only this script and this style (their SHA-256 hashes) and lets
 * the page connect only to its own origin.
 */
import { sha256Base64 } from '../kit/digest.js';
import { LISTING_STATUSES } from '../../src/contract/enums.js';
import { DASHBOARD_HEADER } from '../../src/contract/mock-admin.js';
import { dashboardScript, type DashboardScriptArgs } from './page-script.js';

/** Entries of the request log the page shows (the newest). */
export const DASHBOARD_REQUEST_LOG_ROWS = 25;

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d232a;background:#f4f6f8}
header{display:flex;flex-wrap:wrap;gap:12px;align-items:center;padding:10px 16px;background:#1d232a;color:#fff}
header h1{font-size:16px;margin:0 12px 0 0}
#clock-now{font:600 15px ui-monospace,monospace}
#clock-state,#clock-move{opacity:.8}
button{font:inherit;padding:3px 10px;border:1px solid #8a96a3;border-radius:4px;background:#fff;cursor:pointer}
button:disabled{opacity:.5;cursor:default}
main{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:12px;padding:12px}
section{background:#fff;border:1px solid #d5dbe1;border-radius:6px;padding:8px 12px;overflow:auto}
section.wide{grid-column:1/-1}
h2{font-size:14px;margin:4px 0 8px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:2px 8px 2px 0;border-bottom:1px solid #eef1f4;vertical-align:top;white-space:nowrap}
td.body{white-space:normal;word-break:break-all;font:12px ui-monospace,monospace}
.num{text-align:right}
#status{padding:4px 16px;min-height:1.4em}
#status.error{background:#fde8e8;color:#8a1c1c}
.bad{color:#8a1c1c;font-weight:600}
`;

/**
 * The page's script: dashboardScript's own source text called with its arguments as JSON (`<` escaped, so
 * that nothing in them can end the script element). The CSP hashes this very text, as served.
 */
const SCRIPT = `\n(${dashboardScript.toString()})(${JSON.stringify({
  statusNames: LISTING_STATUSES,
  requestLogRows: DASHBOARD_REQUEST_LOG_ROWS,
  dashboardHeader: DASHBOARD_HEADER,
} satisfies DashboardScriptArgs).replace(/</g, '\\u003c')});\n`;

const BODY = `
<header>
  <h1>mkt mock</h1>
  <span>clock <span id="clock-now">…</span> <span id="clock-state"></span> <span id="clock-move"></span></span>
  <span>move it: <button class="advance" data-advance="1h">+1 hour</button>
  <button class="advance" data-advance="1d">+1 day</button>
  <button class="advance" data-advance="15d">+15 days</button></span>
</header>
<div id="status" role="status"></div>
<main>
  <section id="world-panel"><h2>World at <span id="world-now">…</span></h2>
    <div id="world-facts"></div><p id="world-invariants"></p>
    <h2>Listings by status</h2><div id="listings-by-status"></div></section>
  <section id="accounts-panel"><h2>Accounts</h2><div id="accounts"></div></section>
  <section id="faults-panel"><h2>Faults: <span id="faults-on"></span> <button id="faults-clear">clear</button></h2><div id="faults"></div></section>
  <section id="snapshots-panel"><h2>Snapshots</h2>
    <p><input id="snapshot-name" placeholder="name" size="20"> <label><input type="checkbox" id="snapshot-replace"> replace</label>
    <button id="snapshot-save">save the world</button></p><div id="snapshots"></div></section>
  <section id="request-log-panel" class="wide"><h2>Request log, newest first (<span id="request-log-count"></span>)</h2><div id="request-log"></div></section>
  <section id="outbox-panel" class="wide"><h2>Outbox (<span id="outbox-count"></span>)</h2><div id="outbox"></div></section>
  <section id="webhooks-panel" class="wide"><h2>Webhooks: <span id="webhooks-counts"></span></h2><div id="webhooks"></div></section>
</main>
`;

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

const attribute = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page for a mock whose admin routes live at `adminPrefix` (the base path and /__mock). */
export function dashboardHtml(adminPrefix: string): string {
  return `<!doctype html>
<html lang="en" data-admin="${attribute(adminPrefix)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>mkt mock dashboard</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style></head>
<body>${BODY}<script>${SCRIPT}</script>
</body></html>
`;
}
