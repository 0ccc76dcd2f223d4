/**
 * The dashboard (GET /__mock/) over HTTP: an HTML page under a CSP that runs only its own inline script
 * and style, reached by exactly who reaches the other admin routes, in every spelling they are tested
 * with; its own reads stay out of the request log; `mkt mock serve` names its URL. The page in a
 * real browser: mock-dashboard-browser.test.ts.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { describeMock } from '../mock-server/describe.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { normaliseTarget, parseBasePath } from '../mock-server/http/request-target.js';
import type { MockOptions } from '../mock-server/context.js';
import { ADMIN_SPELLINGS } from './helpers/admin-spellings.js';
import { TEST_START, testMockApp } from './helpers/mock.js';
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
    const pages = await Promise.all(['/__mock/', '/__mock'].map((target) => rawRequest(port, { target })));
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
