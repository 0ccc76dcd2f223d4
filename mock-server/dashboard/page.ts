/**
 * The text of the admin dashboard (GET /__mock/, routes/dashboard.ts): one HTML page with its style and
 * script inline, no build step and nothing fetched but the admin JSON routes of the same server. The
 * script shows every value with textContent (never as markup), and the page is served with a
 * Content-Security-Policy that runs only this script and this style (their SHA-256 hashes) and lets
 * the page connect only to its own origin.
 */
import { createHash } from 'node:crypto';
import { LISTING_STATUSES } from '../../src/contract/enums.js';
import { DASHBOARD_HEADER } from '../../src/contract/mock-admin.js';

/** Entries of the request journal the page shows (the newest). */
export const DASHBOARD_JOURNAL_ROWS = 25;


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

/** The page's script: plain browser JavaScript (ES2020), no backticks or `${` (it lives in a template string). */
const SCRIPT = `
(function () {
  'use strict';
  var admin = document.documentElement.getAttribute('data-admin') || '/__mock';
  var STATUS_NAMES = ${JSON.stringify(LISTING_STATUSES).replace(/</g, '\\u003c')};
  var JOURNAL_ROWS = ${DASHBOARD_JOURNAL_ROWS};
  var moving = false;
  function $(id) { return document.getElementById(id); }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function say(text, isError) {
    var s = $('status');
    s.textContent = text;
    s.className = isError ? 'error' : '';
  }
  function call(method, route, body) {
    var init = { method: method, cache: 'no-store', headers: { accept: 'application/json', '${DASHBOARD_HEADER}': '1' } };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(admin + route, init).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        if (!res.ok) throw new Error(method + ' ' + admin + route + ': ' + res.status + (data && data.message ? ' ' + data.message : ''));
        return data;
      });
    });
  }
  function money(n) { return typeof n === 'number' ? n.toFixed(2) : String(n); }
  function table(target, columns, rows, empty) {
    if (rows.length === 0) { target.replaceChildren(el('p', empty)); return; }
    var t = el('table');
    var head = el('tr');
    columns.forEach(function (c) { head.appendChild(el('th', c[0], c[2])); });
    t.appendChild(el('thead')).appendChild(head);
    var tbody = t.appendChild(el('tbody'));
    rows.forEach(function (r) {
      var tr = el('tr');
      columns.forEach(function (c) {
        var v = c[1](r);
        if (v instanceof Node) { var td = el('td', null, c[2]); td.appendChild(v); tr.appendChild(td); }
        else tr.appendChild(el('td', v, c[2]));
      });
      tbody.appendChild(tr);
    });
    target.replaceChildren(t);
  }
  function showClock(c) {
    $('clock-now').textContent = c.now;
    $('clock-state').textContent = c.frozen ? 'frozen' : 'running';
    $('clock-move').textContent = c.move ? 'moving to ' + c.move.to + ': day ' + c.move.days_done + ' of ' + c.move.days : '';
    var busy = moving || !!c.move;
    document.querySelectorAll('button.advance').forEach(function (b) { b.disabled = busy; });
  }
  function showState(s) {
    $('world-now').textContent = s.now;
    var facts = [['seed', s.seed], ['listings', s.listings], ['orders', s.orders], ['orders queued', s.orders_queued],
      ['loans', s.loans], ['notes', s.notes], ['outbox messages', s.outbox_messages]];
    table($('world-facts'), [['', function (f) { return f[0]; }], ['', function (f) { return f[1]; }, 'num']], facts, '');
    var inv = $('world-invariants');
    inv.textContent = s.invariants.ok ? 'invariants hold' : 'invariants broken: ' + s.invariants.violations.join('; ');
    inv.className = s.invariants.ok ? '' : 'bad';
    var statuses = Object.keys(s.listings_by_status).sort(function (a, b) { return Number(a) - Number(b); });
    table($('listings-by-status'), [
      ['status', function (k) { return k; }],
      ['name', function (k) { return STATUS_NAMES[k] || ''; }],
      ['listings', function (k) { return s.listings_by_status[k]; }, 'num'],
    ], statuses, 'no listings');
    table($('accounts'), [
      ['account', function (a) { return a.account_id; }],
      ['user', function (a) { return a.user; }],
      ['cash', function (a) { return money(a.cash); }, 'num'],
      ['pending', function (a) { return money(a.pending); }, 'num'],
      ['invested', function (a) { return money(a.invested); }, 'num'],
      ['total', function (a) { return money(a.total); }, 'num'],
    ], s.accounts, 'no accounts');
  }
  function showFaults(f) {
    var keys = Object.keys(f);
    table($('faults'), [['setting', function (k) { return k; }], ['value', function (k) { return f[k] === null ? '(any)' : f[k]; }]], keys, 'none');
    var on = f.latency_ms > 0 || f.handler_delay_ms > 0 || f.error_rate > 0 || f.rate_limit_rate > 0 || f.drop_rate > 0 || f.drop_response_rate > 0;
    $('faults-on').textContent = on ? 'faults are injected' : 'no faults';
    $('faults-on').className = on ? 'bad' : '';
  }
  function showJournal(page) {
    $('journal-count').textContent = page.total_count + ' kept';
    table($('journal'), [
      ['id', function (e) { return e.id; }, 'num'],
      ['virtual time', function (e) { return e.virtual_at; }],
      ['method', function (e) { return e.method; }],
      ['path', function (e) { return e.path + (e.query ? '?' + e.query : ''); }],
      ['status', function (e) { return e.status === null ? 'dropped' : e.status; }, 'num'],
      ['ms', function (e) { return e.duration_ms; }, 'num'],
      ['account', function (e) { return e.account || ''; }],
      ['fault', function (e) { return e.fault || ''; }],
      ['body', function (e) { return e.body === null ? '' : JSON.stringify(e.body).slice(0, 200); }, 'body'],
    ], page.result, 'no requests yet');
  }
  function showOutbox(page) {
    $('outbox-count').textContent = page.total_count + ' in all';
    table($('outbox'), [
      ['id', function (m) { return m.id; }, 'num'],
      ['sent', function (m) { return m.sent_at; }],
      ['to', function (m) { return m.to; }],
      ['kind', function (m) { return m.kind; }],
      ['order', function (m) { return m.order_id || ''; }],
      ['subject', function (m) { return m.subject; }],
    ], page.result, 'no messages');
  }
  function showWebhooks(page) {
    var c = page.counts;
    $('webhooks-counts').textContent = c.pending + ' pending, ' + c.delivered + ' delivered, ' + c.failed + ' failed, ' + c.dropped + ' dropped';
    // A dropped delivery is never tried again: said in red, never silent.
    $('webhooks-counts').className = c.dropped > 0 || c.failed > 0 ? 'bad' : '';
    table($('webhooks'), [
      ['event', function (d) { return d.event_id; }],
      ['type', function (d) { return d.type; }],
      ['to', function (d) { return d.url; }],
      ['state', function (d) { return d.state; }],
      ['attempts', function (d) { return d.attempts.length; }, 'num'],
      ['last answer', function (d) { var a = d.attempts[d.attempts.length - 1]; return a ? (a.error || a.status) : ''; }],
    ], page.result, 'no deliveries (mock serve --webhook URL sends each event there)');
  }
  function showSnapshots(page) {
    table($('snapshots'), [
      ['name', function (s) { return s.name; }],
      ['world at', function (s) { return s.now || ''; }],
      ['listings', function (s) { return s.listings === null ? '' : s.listings; }, 'num'],
      ['saved', function (s) { return s.saved_at; }],
      ['problem', function (s) { return s.problem || ''; }],
      ['', function (s) {
        var b = el('button', 'load');
        b.disabled = !!s.problem;
        b.addEventListener('click', function () { act('loading ' + s.name, call('POST', '/snapshots/' + encodeURIComponent(s.name) + '/load')); });
        return b;
      }],
    ], page.result, 'no snapshots');
  }
  // One read of each panel at a time: a poll finds the last still running and waits for it; after an
  // action (fresh) a read begun before it is followed by another, so the page shows the world after it.
  var pending = {};
  function refresh(name, route, show, fresh) {
    var running = pending[name];
    if (running) return fresh ? running.catch(function () {}).then(function () { return refresh(name, route, show, fresh); }) : running;
    var p = call('GET', route).then(show).finally(function () { if (pending[name] === p) pending[name] = null; });
    pending[name] = p;
    return p;
  }
  function refreshFast(fresh) {
    return Promise.all([refresh('clock', '/clock', showClock, fresh), refresh('journal', '/requests?limit=' + JOURNAL_ROWS, showJournal, fresh)]);
  }
  function refreshAll(fresh) {
    return Promise.all([refreshFast(fresh), refresh('state', '/state', showState, fresh), refresh('faults', '/faults', showFaults, fresh),
      refresh('outbox', '/outbox?limit=20', showOutbox, fresh), refresh('webhooks', '/webhooks?limit=20', showWebhooks, fresh),
      refresh('snapshots', '/snapshots', showSnapshots, fresh)]);
  }
  function act(what, promise) {
    say(what + '...', false);
    return promise.then(function () { return refreshAll(true); }).then(function () { say(what + ': done', false); })
      .catch(function (err) { say(err.message, true); });
  }
  document.querySelectorAll('button.advance').forEach(function (b) {
    b.addEventListener('click', function () {
      var by = b.getAttribute('data-advance');
      moving = true;
      var move = call('POST', '/clock', { advance: by });
      refreshFast().catch(function () {});
      act('moving the clock ' + by, move.finally(function () { moving = false; }));
    });
  });
  $('faults-clear').addEventListener('click', function () { act('clearing the faults', call('POST', '/faults', {})); });
  $('snapshot-save').addEventListener('click', function () {
    var name = $('snapshot-name').value.trim();
    act('saving ' + name, call('POST', '/snapshots', { name: name, replace: $('snapshot-replace').checked }));
  });
  var ticks = 0;
  function tick() {
    ticks++;
    // A poll that failed (the mock restarting, say) is shown until one succeeds again; an action's failure stays.
    (ticks % 5 === 0 ? refreshAll() : refreshFast()).then(function () {
      if ($('status').className === 'error' && /^GET /.test($('status').textContent)) say('', false);
    }, function (err) { say(err.message, true); });
  }
  refreshAll().then(function () { document.documentElement.setAttribute('data-loaded', '1'); }, function (err) { say(err.message, true); });
  setInterval(tick, 2000);
})();
`;

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
  <section id="journal-panel" class="wide"><h2>Request journal, newest first (<span id="journal-count"></span>)</h2><div id="journal"></div></section>
  <section id="outbox-panel" class="wide"><h2>Outbox (<span id="outbox-count"></span>)</h2><div id="outbox"></div></section>
  <section id="webhooks-panel" class="wide"><h2>Webhooks: <span id="webhooks-counts"></span></h2><div id="webhooks"></div></section>
</main>
`;

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The policy the page is served with: nothing runs but its own script and style, nothing is fetched from elsewhere. */
export const DASHBOARD_CSP = [
  "default-src 'none'", `script-src ${hash(SCRIPT)}`, `style-src ${hash(STYLE)}`, "connect-src 'self'",
  // The empty icon of the page as data: (else the browser asks for /favicon.ico, a 404 in the journal and the console).
  "img-src 'self' data:",
  "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
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
