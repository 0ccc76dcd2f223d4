/**
 * The dashboard (GET /__mock/) over HTTP: an HTML page under a CSP that runs only its own inline script
 * and style, reached by exactly who reaches the other admin routes, in every spelling they are tested
 * with; sent with every panel filled in, as the script fills it from the admin routes' answers, and no
 * secret in it; its own reads stay out of the request log; `mkt mock serve` names its URL. GET
 * /__mock/orders, which its orders panel reads. The page in a real browser: mock-dashboard-browser.test.ts.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { describeMock } from '../mock-server/describe.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { normaliseTarget, parseBasePath } from '../mock-server/http/request-target.js';
import type { MockOptions } from '../mock-server/context.js';
import { DASHBOARD_ARGS } from '../mock-server/dashboard/page.js';
import { dashboardPanels, type DashboardReads, type PanelNode } from '../mock-server/dashboard/panels.js';
import { ADMIN_SPELLINGS } from './helpers/admin-spellings.js';
import { issueTestToken, TEST_START, testMockApp } from './helpers/mock.js';
import { rawRequest } from './helpers/raw-http.js';

const running: { app: MockApp; server: RunningServer }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.server.close();
    await r.app.close?.();
  }
});

async function serve(host = '127.0.0.1', adminToken?: string, options: Partial<MockOptions> = {}) {
  const app = testMockApp({ seed: 7, listings: 20, frozen: true, start: TEST_START, ...options });
  const server = await startHttpServer(app, host, 0, adminToken ? { adminToken } : {});
  running.push({ app, server });
  return { app, server, port: server.port };
}

/** Each admin spelling of the tests with its route taken off: the same spelling of the dashboard (`/v1/../__mock/state` → `/v1/../__mock/`). */
const DASHBOARD_SPELLINGS = [...new Set(ADMIN_SPELLINGS.map((t) => t.replace(/(state|reset|clock|faults)(\/?)(\?|$)/i, '$3')))];

/** What a caller with access gets: the page where the spelling normalises to /__mock itself, the 404 of another prefix or case. */
function dashboardStatus(target: string): 200 | 404 {
  const t = normaliseTarget(target, 'http://x');
  return t.ok && t.url.pathname === '/__mock' ? 200 : 404;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('the dashboard page', () => {
  it("is HTML at /__mock/ and /__mock, under a CSP whose only script and style are the page's own, by hash", async () => {
    const { port } = await serve();
    // Each page shows the request log as it stands: the page's header keeps these two out of it, so both show the same.
    const pages = await Promise.all(
      ['/__mock/', '/__mock'].map((target) => rawRequest(port, { target, headers: { 'x-mock-dashboard': '1' } })),
    );
    expect(pages[1]!.text).toBe(pages[0]!.text);
    const { status, headers, text } = pages[0]!;
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(headers['content-security-policy']);
    const directives = new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name!, values]),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    const scripts = [...text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    const styles = [...text.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    expect(directives.get('script-src')).toEqual([sha256(scripts[0]!)]);
    expect(directives.get('style-src')).toEqual([sha256(styles[0]!)]);
    expect(csp).not.toMatch(/unsafe|https?:|\*/);
    // Nothing fetched from elsewhere, no handler in markup, no markup built from data by the script.
    expect(text).not.toMatch(/\s(src|on\w+)=|https?:\/\//i);
    expect(scripts[0]).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
    expect(text).toContain('data-admin="/__mock"');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['cache-control']).toBe('no-store');
  });

  it('names the admin routes under --base-path, escaped in its attribute', async () => {
    const base = parseBasePath("/a&b'%22");
    expect(base).toEqual({ basePath: "/a&b'%22" });
    const { port } = await serve('127.0.0.1', undefined, base as { basePath: string });
    const page = await rawRequest(port, { target: "/a&b'%22/__mock/" });
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-admin="/a&amp;b\'%22/__mock"');
    expect((await rawRequest(port, { target: '/__mock/' })).status).toBe(404);
  });

  it('bound to loopback, loopback callers reach every spelling the admin routes answer to', async () => {
    const { port } = await serve();
    expect(DASHBOARD_SPELLINGS.filter((t) => dashboardStatus(t) === 200).length).toBeGreaterThan(8);
    for (const target of DASHBOARD_SPELLINGS) {
      const res = await rawRequest(port, { target });
      expect(res.status, target).toBe(dashboardStatus(target));
      if (res.status === 200) expect(res.headers['content-type'], target).toMatch(/^text\/html/);
    }
  });

  it('bound off loopback, no spelling shows it without the admin token, loopback callers included; the token shows it', async () => {
    const { port } = await serve('0.0.0.0', 'S3cret-token');
    for (const target of DASHBOARD_SPELLINGS) {
      for (const headers of [{}, { authorization: 'Bearer wrong' }, { 'x-mock-admin-token': 's3cret-token' }] as Record<string, string>[]) {
        const res = await rawRequest(port, { target, headers });
        expect(res.status, target).toBe(404);
        expect(JSON.parse(res.text), target).toMatchObject({ code: 'NOT_FOUND' });
      }
    }
    for (const [i, target] of DASHBOARD_SPELLINGS.entries()) {
      const headers: Record<string, string> = i % 2 ? { authorization: 'Bearer S3cret-token' } : { 'x-mock-admin-token': 'S3cret-token' };
      expect((await rawRequest(port, { target, headers })).status, target).toBe(dashboardStatus(target));
    }
  });

  it('is gone with --no-admin, as the other admin routes', async () => {
    const { port } = await serve('127.0.0.1', undefined, { admin: false });
    for (const target of ['/__mock/', '/__mock', '/__mock/state']) {
      const res = await rawRequest(port, { target });
      expect(res.status, target).toBe(404);
      expect(res.text).toBe(`{"code":"NOT_FOUND","message":"No route for GET ${target.replace(/\/$/, '')}"}`);
    }
  });

  it("leaves the page's own reads out of the request log it shows; any other request, and a refused one, is kept", async () => {
    const { app, port } = await serve();
    const mark = { 'x-mock-dashboard': '1' };
    await rawRequest(port, { target: '/__mock/state', headers: mark });
    await rawRequest(port, { target: '/__mock/outbox?limit=20', headers: mark });
    await rawRequest(port, { target: '/__mock/state' });
    // A write from the page is kept (it changed something), as is a read that was not answered 200.
    await rawRequest(port, {
      method: 'POST',
      target: '/__mock/faults',
      headers: { ...mark, 'content-type': 'application/json' },
      body: '{}',
    });
    await rawRequest(port, { target: '/__mock/snapshots/no-such', headers: mark });
    await rawRequest(port, { target: '/v1/accounts/platform', headers: mark });
    const kept = app.requestLog.list(100).result.map((e) => `${e.method} ${e.path}${e.query ? `?${e.query}` : ''} ${e.status}`);
    expect(kept.reverse()).toEqual([
      'GET /__mock/state 200',
      'POST /__mock/faults 200',
      'GET /__mock/snapshots/no-such 404',
      'GET /v1/accounts/platform 401',
    ]);
  });

  it("bound off loopback, a refused read carrying the page's header is kept in the request log", async () => {
    const { app, port } = await serve('0.0.0.0', 'S3cret-token');
    expect((await rawRequest(port, { target: '/__mock/state', headers: { 'x-mock-dashboard': '1' } })).status).toBe(404);
    expect(app.requestLog.list(10).result.map((e) => `${e.path} ${e.status}`)).toEqual(['/__mock/state 404']);
  });
});

describe('the banner of mkt mock serve', () => {
  it('names the dashboard under the base path, and not with --no-admin', () => {
    const withAdmin = testMockApp({ listings: 5, frozen: true, start: TEST_START, basePath: '/p' });
    const without = testMockApp({ listings: 5, frozen: true, start: TEST_START, admin: false });
    expect(describeMock(withAdmin, 'http://127.0.0.1:4010')).toContain('\n  dashboard http://127.0.0.1:4010/p/__mock/ (');
    expect(describeMock(without, 'http://127.0.0.1:4010')).not.toContain('dashboard');
  });
});

/** Two listings alice may bid on. */
function biddable(app: MockApp): [number, number] {
  const [a, b] = app.ctx.world.listings.filter(
    (l) => l.listing_status === 2 && l.investment_typeid === 1 && !l.mockRole && !l.authorizedUsers && !l.borrowerUserId,
  );
  return [a!.listing_number, b!.listing_number];
}

/** Places an order for `account` over HTTP; its id. */
async function placeOrder(port: number, token: string, bids: { listing_id: number; bid_amount: number }[]): Promise<string> {
  const res = await rawRequest(port, {
    method: 'POST',
    target: '/v1/orders/',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ bid_requests: bids }),
  });
  expect(res.status, res.text).toBe(200);
  return (JSON.parse(res.text) as { order_id: string }).order_id;
}

/** An admin route's JSON as the page reads it (its header keeps the read out of the request log). */
async function adminJson(port: number, target: string): Promise<unknown> {
  const res = await rawRequest(port, { target: `/__mock/${target}`, headers: { 'x-mock-dashboard': '1' } });
  expect(res.status, `${target}: ${res.text}`).toBe(200);
  return JSON.parse(res.text);
}

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&amp;': '&' };
/** The text of some markup, as a browser shows it (tags dropped, the four entities the page writes decoded). */
const textOf = (html: string): string => html.replace(/<[^>]*>/g, '').replace(/&(lt|gt|quot|amp);/g, (e) => ENTITIES[e]!);
/** The text of a panel's nodes. */
const nodesText = (nodes: readonly PanelNode[]): string => nodes.map((n) => (n.text ?? '') + nodesText(n.children ?? [])).join('');

/** Each element of the page with an id (a span, div or p, none nested in one of its own kind), by id: its inner markup. */
function slotsOf(html: string): Map<string, string> {
  return new Map([...html.matchAll(/<(span|div|p) id="([\w-]+)"[^>]*>([\s\S]*?)<\/\1>/g)].map((m) => [m[2]!, m[3]!]));
}

describe('the page as sent', () => {
  it('has every panel filled in, as the script fills it from the admin routes: the clock, the world, an order with its bids, the request log…', async () => {
    const { app, port } = await serve('127.0.0.1', undefined, { listings: 300 });
    const [a, b] = biddable(app);
    const orderId = await placeOrder(port, issueTestToken(app, 'alice-1'), [
      { listing_id: a, bid_amount: 25 },
      { listing_id: b, bid_amount: 50 },
    ]);
    await rawRequest(port, {
      method: 'POST',
      target: '/__mock/snapshots',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"before"}',
    });
    // What the script's first reads would show, read (with its header, so not logged) just before the page.
    const panels = dashboardPanels(DASHBOARD_ARGS);
    const queries: Record<keyof DashboardReads, string> = {
      clock: 'clock',
      state: 'state',
      orders: `orders?limit=${DASHBOARD_ARGS.rows.orders}`,
      faults: 'faults',
      requests: `requests?limit=${DASHBOARD_ARGS.rows.requests}`,
      outbox: `outbox?limit=${DASHBOARD_ARGS.rows.outbox}`,
      webhooks: `webhooks?limit=${DASHBOARD_ARGS.rows.webhooks}`,
      snapshots: 'snapshots',
    };
    const expected = new Map<string, string>();
    for (const [route, target] of Object.entries(queries) as [keyof DashboardReads, string][]) {
      const fills = (panels[route] as (d: unknown) => ReturnType<(typeof panels)['clock']>)(await adminJson(port, target));
      for (const f of fills) expected.set(f.id, f.nodes ? nodesText(f.nodes) : (f.text ?? ''));
    }
    const page = await rawRequest(port, { target: '/__mock/' });
    expect(page.status).toBe(200);
    const slots = slotsOf(page.text);
    const shown = new Map([...expected.keys()].map((id) => [id, textOf(slots.get(id) ?? '(no such element)')]));
    expect(Object.fromEntries(shown)).toEqual(Object.fromEntries(expected));
    // No panel empty (the move under way is the one thing that may be: there is none).
    expect([...shown].filter(([id, text]) => text.trim() === '' && id !== 'clock-move')).toEqual([]);
    expect(shown.get('clock-now')).toBe(((await adminJson(port, 'clock')) as { now: string }).now);
    expect(shown.get('accounts')).toContain('alice-1');
    expect(shown.get('snapshots')).toContain('before');
    expect(shown.get('request-log')).toContain('POST/v1/orders');
    // The order, whole id in its cell's title, each bid with its listing, amount, status and result.
    const orders = slots.get('orders')!;
    expect(orders).toContain(`title="${orderId}"`);
    expect(textOf(orders)).toContain(`alice-1`);
    expect(textOf(orders)).toMatch(new RegExp(`${a}25\\.00[\\d.]*PENDINGNONE`));
    expect(textOf(orders)).toMatch(new RegExp(`${b}50\\.00[\\d.]*PENDINGNONE`));
    expect(shown.get('orders-count')).toBe('1 in all');
  });

  it('holds no secret: tokens redacted as the request log keeps them, no password of the state', async () => {
    const { app, port } = await serve('127.0.0.1', undefined, { listings: 300 });
    const token = issueTestToken(app, 'alice-1');
    const [a] = biddable(app);
    await placeOrder(port, token, [{ listing_id: a, bid_amount: 25 }]);
    // The token where a name gives it away and where none does: the request log removes it in both.
    await rawRequest(port, {
      method: 'POST',
      target: `/v1/no-such-route?access_token=${token}&q=${token}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ note: token, password: 'hunter2-hunter2' }),
    });
    const page = (await rawRequest(port, { target: '/__mock/' })).text;
    expect(textOf(slotsOf(page).get('request-log')!)).toContain('/v1/no-such-route');
    const state = (await adminJson(port, 'state')) as { users: { password: string }[] };
    const secrets = [token, 'hunter2-hunter2', ...state.users.map((u) => u.password)];
    expect(secrets.filter((s) => page.includes(s))).toEqual([]);
  });
});

describe('the page as sent: values as text', () => {
  it('escapes what a client sent (markup in a body, in a path) so that it shows as text and never runs', async () => {
    const { port } = await serve();
    const hostile = '<img src=x onerror="window.__pwned=1"><b id="injected">bold</b>&amp;';
    await rawRequest(port, {
      method: 'POST',
      target: '/v1/no-such-route',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ note: hostile }),
    });
    // A target the mock refuses (400) is kept as it came: its path shows, as text.
    expect((await rawRequest(port, { target: '/v1/<script>alert(1)</script>' })).status).toBe(400);
    const page = (await rawRequest(port, { target: '/__mock/' })).text;
    const log = slotsOf(page).get('request-log')!;
    expect(log).not.toMatch(/<(img|b|script|svg)\b/i);
    expect(textOf(log)).toContain(JSON.stringify({ note: hostile }));
    expect(textOf(log)).toContain('<script>alert(1)</script>');
  });

  it('renders an order of more bids than it shows: the first ten, then one row that counts the rest, the order spanning them', () => {
    const bids = Array.from({ length: 12 }, (_, i) => ({
      listing_id: 10_000_001 + i,
      bid_amount: 25,
      bid_amount_placed: 0,
      bid_status: 'PENDING',
      bid_result: 'NONE',
    }));
    const order = {
      account_id: 'alice-1',
      order_id: '0b8e1c52-2b7e-4d38-9d2f-5f0a3c1e9a77',
      order_date: '2026-06-01 12:00:00 +0000',
      order_status: 'IN_PROGRESS',
      order_amount: 300,
      order_amount_placed: 0,
      order_amount_invested: 0,
      bid_requests: bids,
      source: 'API',
    } as DashboardReads['orders']['result'][number];
    const fills = dashboardPanels(DASHBOARD_ARGS).orders({ result: [order], result_count: 1, total_count: 1 });
    const rows = fills.find((f) => f.id === 'orders')!.nodes![0]!.children![1]!.children!;
    expect(rows).toHaveLength(DASHBOARD_ARGS.bidRows + 1);
    expect(rows[0]!.children![0]).toMatchObject({ rows: DASHBOARD_ARGS.bidRows + 1 });
    expect(nodesText([rows[DASHBOARD_ARGS.bidRows - 1]!])).toBe('1000001025.000.00PENDINGNONE');
    expect(nodesText([rows[DASHBOARD_ARGS.bidRows]!])).toBe('and 2 more bids (GET /__mock/orders has them all)');
  });
});

describe('the page as sent, when a read fails', () => {
  it('is still sent, that panel left empty for the script (whose read says why), every other filled', async () => {
    const { app, port } = await serve();
    // A snapshot folder that cannot be listed (its permissions changed under the mock, say).
    vi.spyOn(app.ctx.snapshots, 'list').mockRejectedValue(new Error('EACCES: permission denied'));
    const page = await rawRequest(port, { target: '/__mock/' });
    expect(page.status).toBe(200);
    const slots = slotsOf(page.text);
    expect(slots.get('snapshots')).toBe('');
    expect(textOf(slots.get('accounts')!)).toContain('alice-1');
    expect(textOf(slots.get('clock-now')!)).toBe(((await adminJson(port, 'clock')) as { now: string }).now);
    expect((await rawRequest(port, { target: '/__mock/snapshots' })).status).toBe(500);
  });
});

describe('GET /__mock/orders', () => {
  it("lists every account's orders, newest first, each as its owner reads it with the owner's account; account_id and limit narrow it", async () => {
    const { app, port } = await serve('127.0.0.1', undefined, { listings: 300 });
    const [a, b] = biddable(app);
    const alice = issueTestToken(app, 'alice-1');
    const first = await placeOrder(port, alice, [{ listing_id: a, bid_amount: 25 }]);
    const second = await placeOrder(port, issueTestToken(app, 'dave-1'), [{ listing_id: b, bid_amount: 30 }]);
    const page = (await adminJson(port, 'orders')) as { result: Record<string, unknown>[]; total_count: number; result_count: number };
    expect(page.result.map((o) => [o.order_id, o.account_id])).toEqual([
      [second, 'dave-1'],
      [first, 'alice-1'],
    ]);
    expect(page.total_count).toBe(2);
    const own = await rawRequest(port, { target: `/v1/orders/${first}`, headers: { authorization: `Bearer ${alice}` } });
    expect(page.result[1]).toEqual({ account_id: 'alice-1', ...(JSON.parse(own.text) as object) });
    expect(((await adminJson(port, 'orders?account_id=alice-1')) as typeof page).result.map((o) => o.order_id)).toEqual([first]);
    expect(await adminJson(port, 'orders?limit=1')).toMatchObject({ result_count: 1, total_count: 2 });
    expect((await rawRequest(port, { target: '/__mock/orders?limit=0' })).status).toBe(400);
  });
});
