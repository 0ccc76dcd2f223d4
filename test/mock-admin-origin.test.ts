/**
 * Admin from the mock's own origin only, over real sockets: a Host the mock does not serve is 421
 * (a DNS-rebinding page reads nothing, /openapi.json included, never a 5xx); an admin request whose
 * Origin or Sec-Fetch-Site is another origin's is 403, and an admin write not declared JSON 415, with
 * the world, clock, faults and snapshots unchanged; what mkt and the dashboard send still goes on;
 * the validating proxy refuses the same.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { startHttpServer, type RunningServer, type ServerOptions } from '../mock-server/http-adapter.js';
import { startProxy, type RunningProxy } from '../mock-server/proxy/proxy-server.js';
import type { MockOptions } from '../mock-server/context.js';
import { issueTestToken, TEST_START, testMockApp } from './helpers/mock.js';
import { rawRequest, type RawAnswer, type RawRequest } from './helpers/raw-http.js';
import { runMkt } from './helpers/cli.js';

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
});

async function serve(options: ServerOptions = {}, mock: Partial<MockOptions> = {}) {
  const app = testMockApp({ seed: 7, listings: 30, frozen: true, start: TEST_START, ...mock });
  const server: RunningServer = await startHttpServer(app, '127.0.0.1', 0, options);
  running.push({
    close: async () => {
      await server.close();
      await app.close?.();
    },
  });
  return { app, server, port: server.port, own: `127.0.0.1:${server.port}` };
}

/** What a page could change: the world itself (a reset or a load replaces it), the clock, the faults, the snapshots. */
async function fingerprint(app: MockApp) {
  return {
    world: app.ctx.world,
    now: app.ctx.clock.now(),
    faults: JSON.stringify(app.ctx.faults.get()),
    snapshots: (await app.ctx.snapshots.list()).map((s) => s.name),
  };
}

/** The same world object (a reset makes an equal-looking new one), clock, faults and snapshots as `before`. */
async function expectUnchanged(app: MockApp, before: Awaited<ReturnType<typeof fingerprint>>): Promise<void> {
  const now = await fingerprint(app);
  expect(now.world === before.world, 'the world was replaced (a reset or a load)').toBe(true);
  expect({ ...now, world: null }).toEqual({ ...before, world: null });
}

const json = (res: RawAnswer) => JSON.parse(res.text) as { code: string; message: string };

/** The admin writes a page tried (issue 37), each with a body the route takes. */
const WRITES: { target: string; body: string }[] = [
  { target: '/__mock/reset', body: '' },
  { target: '/__mock/clock', body: '{"advance":"24h"}' },
  { target: '/__mock/faults', body: '{"error_rate":1}' },
  { target: '/__mock/snapshots', body: '{"name":"pwned"}' },
  { target: '/__mock/process', body: '' },
];

describe('a Host the mock does not serve', () => {
  it('is 421 naming the Host and --allow-host on every route: the admin reads, the API, /openapi.json and the dashboard', async () => {
    const { app, port } = await serve();
    const token = issueTestToken(app);
    for (const host of [
      'rebind.evil.example',
      `rebind.evil.example:${port}`,
      'localhost.evil.example',
      '127.0.0.1.evil.example',
      'EVIL.example.',
    ]) {
      for (const target of [
        '/__mock/state',
        '/__mock/requests',
        '/__mock/',
        '/openapi.json',
        '/v1/accounts/alice-1',
        '/listingsvc/v2/listings',
      ]) {
        const res = await rawRequest(port, { target, headers: { host, authorization: `bearer ${token}` } });
        expect(res.status, `${host} ${target}`).toBe(421);
        expect(json(res).code).toBe('MISDIRECTED_REQUEST');
        expect(json(res).message).toContain(`'${host}'`);
        expect(json(res).message).toContain('--allow-host');
        // Nothing of the world in the answer: no seeded password, no account.
        expect(res.text).not.toMatch(/password|alice-1|listing_number/);
      }
    }
    // The refusals are in the request log, with their status.
    const logged = app.requestLog.list(5).result;
    expect(logged.every((e) => e.status === 421)).toBe(true);
  });

  it("meets an injected fault: still 421, never the fault's 500, and the fault is not spent on it", async () => {
    const { app, port } = await serve();
    app.ctx.faults.set({ error_rate: 1, count: 1 });
    const res = await rawRequest(port, { target: '/v1/loans', headers: { host: 'rebind.evil.example' } });
    expect(res.status).toBe(421);
    expect((await rawRequest(port, { target: '/v1/loans' })).status).toBe(500);
  });

  it('an absolute-form target is checked by its authority, the Host line then ignored (RFC 9112)', async () => {
    const { port } = await serve();
    expect((await rawRequest(port, { target: 'http://rebind.evil.example/__mock/state', headers: { host: '127.0.0.1' } })).status).toBe(
      421,
    );
    expect(
      (await rawRequest(port, { target: `http://LOCALHOST.:${port}/__mock/state`, headers: { host: 'rebind.evil.example' } })).status,
    ).toBe(200);
  });

  it('loopback names and addresses in any spelling are served, and so are --allow-host names', async () => {
    const { port } = await serve({ allowHosts: ['mock.example.com'] });
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LocalHost.:${port}`,
      '127.0.0.2',
      '127.1',
      `[::1]:${port}`,
      'app.localhost',
      'mock.example.com',
      'Mock.Example.Com.:443',
    ]) {
      expect((await rawRequest(port, { target: '/__mock/state', headers: { host } })).status, host).toBe(200);
    }
    // Two Host lines, or one that is no host, are 400 (RFC 9112 §3.2).
    expect((await rawRequest(port, { target: '/openapi.json', headers: { host: 'a b' } })).status).toBe(400);
  });

  it('under --base-path the rule is the same', async () => {
    const { port } = await serve({}, { basePath: '/market' });
    expect((await rawRequest(port, { target: '/market/__mock/state', headers: { host: 'rebind.evil.example' } })).status).toBe(421);
    expect((await rawRequest(port, { target: '/market/__mock/state' })).status).toBe(200);
    const page = await rawRequest(port, { method: 'POST', target: '/market/__mock/reset', headers: { origin: 'http://127.0.0.1:1' } });
    expect(page.status).toBe(403);
  });
});

describe('an admin request from a page of another origin', () => {
  it('is 403 naming why on every admin write, and nothing changes: another port, localhost for 127.0.0.1, a cross-site or same-site fetch', async () => {
    const { app, port } = await serve();
    const before = await fingerprint(app);
    const foreign: Record<string, string>[] = [
      { origin: 'http://127.0.0.1:9' },
      { origin: `http://localhost:${port}` },
      { origin: 'null' },
      { origin: 'http://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: `http://127.0.0.1:${port}` },
    ];
    for (const { target, body } of WRITES) {
      for (const headers of foreign) {
        // text/plain is what a no-cors fetch of a string sends; with JSON the 403 still comes first.
        for (const type of ['text/plain;charset=UTF-8', 'application/json']) {
          const res = await rawRequest(port, {
            method: 'POST',
            target,
            headers: { ...headers, ...(body ? { 'content-type': type } : {}) },
            body,
          });
          expect(res.status, `${target} ${JSON.stringify(headers)}`).toBe(403);
          expect(json(res).code).toBe('FORBIDDEN_ORIGIN');
          expect(json(res).message).toMatch(
            headers['sec-fetch-site']
              ? /sec-fetch-site: '(cross|same)-site'/
              : /origin: '.*' is not this mock's own \(http:\/\/127\.0\.0\.1:\d+\)/,
          );
        }
      }
    }
    for (const headers of foreign) {
      expect((await rawRequest(port, { target: '/__mock/state', headers })).status).toBe(403);
      expect((await rawRequest(port, { target: '/__mock/requests', headers })).status).toBe(403);
    }
    await expectUnchanged(app, before);
  });

  it('a write whose body is not declared JSON is 415 and changes nothing: text, a form, multipart, or no type (a no-cors Blob)', async () => {
    const { app, port } = await serve();
    const before = await fingerprint(app);
    for (const { target, body } of WRITES.filter((w) => w.body)) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined]) {
        const res = await rawRequest(port, { method: 'POST', target, headers: type ? { 'content-type': type } : {}, body });
        expect(res.status, `${target} ${type}`).toBe(415);
        expect(json(res).code).toBe('UNSUPPORTED_MEDIA_TYPE');
      }
    }
    await expectUnchanged(app, before);
  });

  it("what mkt, curl and the mock's own pages send goes on", async () => {
    const { app, port } = await serve();
    const own = `http://127.0.0.1:${port}`;
    const clock = { method: 'POST', target: '/__mock/clock', body: '{"advance":"1h"}' };
    // The dashboard's own fetch: its Origin and Sec-Fetch-Site, the JSON type it sets.
    expect(
      (
        await rawRequest(port, {
          ...clock,
          headers: { origin: own, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json', 'x-mock-dashboard': '1' },
        })
      ).status,
    ).toBe(200);
    // The same page opened as localhost: its origin is localhost's, and so is the Host it sends.
    expect(
      (
        await rawRequest(port, {
          ...clock,
          headers: { host: `localhost:${port}`, origin: `http://localhost:${port}`, 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(200);
    // curl with no type and no body, and a typed body.
    expect((await rawRequest(port, { method: 'POST', target: '/__mock/process' })).status).toBe(200);
    expect((await rawRequest(port, { ...clock, headers: { 'content-type': 'application/json' } })).status).toBe(200);
    expect(app.ctx.clock.now()).toBe(TEST_START + 3 * 3_600_000);
    // mkt's own admin commands.
    const env = { MKT_ROOT_URL: own };
    expect((await runMkt(['mock', 'clock', 'advance', '1h'], { env })).code).toBe(0);
    expect((await runMkt(['mock', 'snapshot', 'save', 'mine'], { env })).code).toBe(0);
    expect((await runMkt(['mock', 'snapshot', 'load', 'mine'], { env })).code).toBe(0);
    expect((await runMkt(['mock', 'requests', '-o', 'json'], { env })).code).toBe(0);
    expect(app.ctx.clock.now()).toBe(TEST_START + 4 * 3_600_000);
  });

  it("a proxy in front that rewrites Host: its public origin is the mock's own once given with --allow-host", async () => {
    const { app, port } = await serve({ allowHosts: ['mock.example.com'] });
    const res = await rawRequest(port, {
      method: 'POST',
      target: '/__mock/clock',
      headers: { origin: 'https://mock.example.com', 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      body: '{"advance":"1h"}',
    });
    expect(res.status).toBe(200);
    expect(app.ctx.clock.now()).toBe(TEST_START + 3_600_000);
  });

  it('property: whatever headers a request carries, it changes the mock only when no header says another origin and its body is declared JSON', async () => {
    const { app, port } = await serve();
    const own = `http://127.0.0.1:${port}`;
    const origin = fc.constantFrom(
      undefined,
      own,
      `http://localhost:${port}`,
      'http://127.0.0.1:9',
      'null',
      'http://evil.example',
      `HTTP://127.0.0.1:${port}`,
    );
    const site = fc.constantFrom(undefined, 'same-origin', 'none', 'same-site', 'cross-site');
    const type = fc.constantFrom(
      undefined,
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
    );
    const write = fc.constantFrom(...WRITES.filter((w) => w.target !== '/__mock/snapshots'));
    await fc.assert(
      fc.asyncProperty(write, origin, site, type, async (w, o, s, t) => {
        const headers: Record<string, string> = {};
        if (o !== undefined) headers.origin = o;
        if (s !== undefined) headers['sec-fetch-site'] = s;
        if (t !== undefined) headers['content-type'] = t;
        const foreignOrigin = o !== undefined && o.toLowerCase() !== own;
        const foreignSite = s === 'same-site' || s === 'cross-site';
        const untyped = w.body !== '' && (t === undefined || !t.startsWith('application/json'));
        const before = await fingerprint(app);
        const res = await rawRequest(port, { method: 'POST', target: w.target, headers, body: w.body } satisfies RawRequest);
        if (foreignOrigin || foreignSite) expect(res.status).toBe(403);
        else if (untyped) expect(res.status).toBe(415);
        else return void expect(res.status).toBe(200);
        await expectUnchanged(app, before);
      }),
      { numRuns: 60 },
    );
  });
});

describe('the validating proxy', () => {
  async function proxied() {
    const mock = await serve();
    const proxy: RunningProxy = await startProxy({ upstream: `http://127.0.0.1:${mock.port}` });
    running.push(proxy);
    return { ...mock, proxy };
  }

  it('refuses a Host it does not serve before forwarding anything, and its journal to a page of another origin', async () => {
    const { app, proxy } = await proxied();
    const seen = app.requestLog.list(1).total;
    const rebound = await rawRequest(proxy.port, { target: '/__mock/state', headers: { host: `rebind.evil.example:${proxy.port}` } });
    expect(rebound.status).toBe(421);
    expect(rebound.text).not.toMatch(/password/);
    expect((await rawRequest(proxy.port, { target: '/openapi.json', headers: { host: 'rebind.evil.example' } })).status).toBe(421);
    // Nothing reached the mock behind it.
    expect(app.requestLog.list(1).total).toBe(seen);
    expect((await rawRequest(proxy.port, { target: '/__mock/requests', headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await rawRequest(proxy.port, { target: '/__mock/requests' })).status).toBe(200);
  });

  it('never forwards an admin write from a page of another origin, or one not declared JSON', async () => {
    const { app, proxy } = await proxied();
    const before = await fingerprint(app);
    expect(
      (await rawRequest(proxy.port, { method: 'POST', target: '/__mock/reset', headers: { origin: 'http://127.0.0.1:9' } })).status,
    ).toBe(403);
    expect(
      (
        await rawRequest(proxy.port, {
          method: 'POST',
          target: '/__mock/faults',
          headers: { 'content-type': 'text/plain' },
          body: '{"error_rate":1}',
        })
      ).status,
    ).toBe(415);
    await expectUnchanged(app, before);
    // What a client sends through it still goes through.
    expect(
      (
        await rawRequest(proxy.port, {
          method: 'POST',
          target: '/__mock/clock',
          headers: { 'content-type': 'application/json' },
          body: '{"advance":"1h"}',
        })
      ).status,
    ).toBe(200);
    expect(app.ctx.clock.now()).toBe(TEST_START + 3_600_000);
  });
});
