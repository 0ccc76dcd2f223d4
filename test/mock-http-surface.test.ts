/** The mock's HTTP surface over real sockets: 4xx JSON for bad client input, and admin routes behind one access rule. */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { normaliseTarget } from '../mock-server/http/request-target.js';
import { ADMIN_SPELLINGS, statusWithAccess } from './helpers/admin-spellings.js';
import { BIN, runMkt } from './helpers/cli.js';
import { issueTestToken, TEST_START, testMockApp } from './helpers/mock.js';
import { rawRequest, rawSocket, type RawRequest } from './helpers/raw-http.js';

const running: { app: MockApp; server: RunningServer }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.server.close();
    await r.app.close?.();
  }
});

async function serve(host = '127.0.0.1', adminToken?: string) {
  const app = testMockApp({ seed: 7, listings: 40, frozen: true, start: TEST_START });
  const server = await startHttpServer(app, host, 0, adminToken ? { adminToken } : {});
  running.push({ app, server });
  return { app, server, port: server.port, token: issueTestToken(app) };
}

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

/** The admin call each spelling stands for: method and body that the route takes. */
function adminCall(target: string, headers: Record<string, string> = {}): RawRequest {
  const t = normaliseTarget(target, 'http://x');
  const last = t.ok ? t.url.pathname.split('/').pop()!.toLowerCase() : '';
  if (last === 'state') return { method: 'GET', target, headers };
  const body = last === 'clock' ? '{"advance":"1h"}' : last === 'faults' ? '{"error_rate":1}' : '';
  return { method: 'POST', target, headers: { ...headers, 'content-type': 'application/json' }, body };
}

describe('client input never gets a 5xx', () => {
  it('a bad escape or target is 400 naming it; a wrong method on a known path is 405 with Allow; unknown paths 404', async () => {
    const { port, token } = await serve();
    const auth = { authorization: `bearer ${token}` };
    const cases: [RawRequest, number, RegExp][] = [
      [{ target: '/v1/orders/%zz', headers: auth }, 400, /malformed percent-escape '%zz'/],
      [{ target: '/v1/loans/%FF', headers: auth }, 400, /'%FF' in the path are not UTF-8/],
      [{ target: 'http://%zz/v1/loans', headers: auth }, 400, /not a valid absolute URL/],
      [{ method: 'TRACE', target: '/v1/loans', headers: auth }, 405, /TRACE is not allowed on \/v1\/loans; allowed: GET, HEAD/],
      [{ method: 'PROPFIND', target: '/v1/loans' }, 405, /PROPFIND is not allowed/],
      [{ method: 'DELETE', target: '/v1/orders' }, 405, /allowed: GET, HEAD, POST/],
      [{ method: 'TRACE', target: '/nowhere' }, 404, /No route for TRACE \/nowhere/],
    ];
    for (const [req, status, message] of cases) {
      const res = await rawRequest(port, req);
      expect(res.status, req.target).toBe(status);
      expect(json(res.text).message, req.target).toMatch(message);
      if (status === 405) expect(res.headers.allow).toMatch(/GET/);
    }
    // A host glued onto a path: not a path another prefix could hide, but a target that cannot be read.
    const odd = await rawRequest(port, { target: '//[zz]/v1/loans', headers: auth });
    expect([odd.status, json(odd.text).code]).toEqual([400, 'VAL0001']);
    expect(json(odd.text).message).toMatch(/'\[' in the path '\/\/\[zz\]\/v1\/loans' is allowed only around an IP address/);
  });

  it('HEAD on a GET route answers like GET without a body', async () => {
    const { port, token } = await serve();
    const res = await rawRequest(port, { method: 'HEAD', target: '/v1/accounts/platform', headers: { authorization: `bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
  });

  it('a body over 1 MiB is 413 and the order is not placed', async () => {
    const { app, port, token } = await serve();
    const big = `{"bid_requests":[],"pad":"${'x'.repeat(1_100_000)}"}`;
    const headers = { authorization: `bearer ${token}`, 'content-type': 'application/json' };
    const res = await rawRequest(port, { method: 'POST', target: '/v1/orders', headers, body: big });
    expect(res.status).toBe(413);
    expect(json(res.text)).toMatchObject({ code: 'VAL0001', message: expect.stringMatching(/larger than 1048576 bytes/) });
    const chunked = await rawSocket(
      port,
      `POST /v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: bearer ${token}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${(1_100_000).toString(16)}\r\n${'x'.repeat(1_100_000)}\r\n0\r\n\r\n`,
    );
    expect(chunked.status).toBe(413);
    expect(app.ctx.world.orders.size).toBe(0);
  });

  it('a JSON route sent text, a form or XML is 415; JSON and no declared type are read', async () => {
    const { app, port, token } = await serve();
    const auth = { authorization: `bearer ${token}` };
    for (const [target, type] of [
      ['/v1/orders', 'application/x-www-form-urlencoded'],
      ['/v1/marketplace/application/offers', 'application/xml'],
      ['/__mock/clock', 'multipart/form-data; boundary=x'],
      ['/v1/orders', 'text/plain'],
      ['/__mock/faults', 'text/plain;charset=UTF-8'],
    ] as const) {
      const res = await rawRequest(port, { method: 'POST', target, headers: { ...auth, 'content-type': type }, body: '{"advance":"1h"}' });
      expect(res.status, target).toBe(415);
      expect(json(res.text)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining(type) });
    }
    expect(app.ctx.clock.now()).toBe(TEST_START);
    expect(app.ctx.world.orders.size).toBe(0);
    for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json']) {
      expect(
        (await rawRequest(port, { method: 'POST', target: '/__mock/clock', headers: { 'content-type': type }, body: '{"advance":"1h"}' }))
          .status,
      ).toBe(200);
    }
    // An API route reads a body with no declared type as JSON; an admin route does not (a page's no-cors Blob has none).
    const untyped = await rawRequest(port, { method: 'POST', target: '/v1/orders', headers: auth, body: '{"bid_requests":[]}' });
    expect(untyped.status).not.toBe(415);
    const admin = await rawRequest(port, { method: 'POST', target: '/__mock/clock', body: '{"advance":"1h"}' });
    expect(admin.status).toBe(415);
    expect(json(admin.text)).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('content-type: none') });
    // The OAuth token endpoint takes a form: it is no JSON route.
    const form = await rawRequest(port, {
      method: 'POST',
      target: '/v1/security/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=nope',
    });
    expect(form.status).toBe(400);
    expect(json(form.text).error).toBeDefined();
  });

  it('a request node cannot parse gets a JSON 400 too', async () => {
    const { port } = await serve();
    const res = await rawSocket(port, 'GET /v1/loans HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: y\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(400);
    expect(json(res.text).code).toBe('VAL0001');
  });

  it('a fault path is matched on the normalised path, however the request spells it, and exactly as the router matches', async () => {
    const { app, port, token } = await serve();
    const set = await rawRequest(port, {
      method: 'POST',
      target: '/__mock/faults',
      headers: { 'content-type': 'application/json' },
      body: '{"error_rate":1,"path":"/v1/./accounts/"}',
    });
    expect(json(set.text).path).toBe('/v1/accounts');
    for (const target of ['/v1/x/../accounts/platform/', '/v1/%61ccounts/platform', '//v1//accounts/platform']) {
      expect((await rawRequest(port, { target, headers: { authorization: `bearer ${token}` } })).status, target).toBe(500);
    }
    // Another case reaches no route, so the fault set for /v1/accounts is not for it: the 404 says so.
    const upper = await rawRequest(port, { target: '/V1/accounts/platform', headers: { authorization: `bearer ${token}` } });
    expect([upper.status, json(upper.text).message]).toEqual([404, 'No route for GET /V1/accounts/platform']);
    expect(app.ctx.faults.get().error_rate).toBe(1);
  });
});

describe('admin routes: one normalised path, one access rule', () => {
  it('bound off loopback, no spelling reaches an admin route without the token, loopback callers included', async () => {
    const { app, port } = await serve('0.0.0.0', 'S3cret-token');
    const world = app.ctx.world;
    for (const target of ADMIN_SPELLINGS) {
      for (const headers of [{}, { authorization: 'Bearer wrong' }, { 'x-mock-admin-token': 's3cret-token' }] as Record<string, string>[]) {
        const res = await rawRequest(port, adminCall(target, headers));
        expect(res.status, target).toBe(404);
        expect(json(res.text)).toMatchObject({ code: 'NOT_FOUND' });
        expect(res.text).not.toContain('S3cret');
      }
    }
    expect(app.ctx.world).toBe(world);
    expect(app.ctx.clock.now()).toBe(TEST_START);
    expect(app.ctx.faults.get().error_rate).toBe(0);
  });

  it('bound off loopback, the token opens every spelling of an admin route, in either header', async () => {
    const { app, port } = await serve('0.0.0.0', 'S3cret-token');
    expect(ADMIN_SPELLINGS.filter((t) => statusWithAccess(t) === 200).length).toBeGreaterThan(10);
    for (const [i, target] of ADMIN_SPELLINGS.entries()) {
      const headers: Record<string, string> = i % 2 ? { authorization: 'Bearer S3cret-token' } : { 'x-mock-admin-token': 'S3cret-token' };
      expect((await rawRequest(port, adminCall(target, headers))).status, target).toBe(statusWithAccess(target));
    }
    expect(app.ctx.clock.now()).toBeGreaterThan(TEST_START);
  });

  it('bound to loopback, loopback callers reach every spelling without a token', async () => {
    const { server, port } = await serve();
    expect(server.adminToken).toBeNull();
    for (const target of ADMIN_SPELLINGS) expect((await rawRequest(port, adminCall(target))).status, target).toBe(statusWithAccess(target));
    // Another prefix or case is no admin route, with access or without.
    expect((await rawRequest(port, adminCall('/__MOCK/state'))).text).toBe(
      '{"code":"NOT_FOUND","message":"No route for GET /__MOCK/state"}',
    );
  });

  it('bound off loopback without --admin-token, a random token guards the admin routes', async () => {
    const { server, port } = await serve('0.0.0.0');
    expect(server.adminToken).toMatch(/^[\w-]{32}$/);
    expect((await rawRequest(port, { target: '/__mock/state' })).status).toBe(404);
    expect((await rawRequest(port, { target: '/__mock/state', headers: { 'x-mock-admin-token': server.adminToken! } })).status).toBe(200);
  });

  it('mkt mock clock advance reaches a mock bound off loopback with --admin-token or MKT_MOCK_ADMIN_TOKEN', async () => {
    const { app, port } = await serve('0.0.0.0', 'S3cret-token');
    const env = { MKT_ROOT_URL: `http://127.0.0.1:${port}` };
    const refused = await runMkt(['mock', 'clock', 'advance', '1h', '-o', 'json'], { env });
    expect(refused.code).not.toBe(0);
    expect(app.ctx.clock.now()).toBe(TEST_START);
    const flag = await runMkt(['mock', 'clock', 'advance', '1h', '-o', 'json', '--admin-token', 'S3cret-token', '--verbose'], { env });
    expect(flag.code, flag.stderr).toBe(0);
    expect(JSON.parse(flag.stdout).moved_ms).toBe(3_600_000);
    expect(flag.stderr).not.toContain('S3cret');
    const fromEnv = await runMkt(['mock', 'clock', 'advance', '2h', '-o', 'json'], {
      env: { ...env, MKT_MOCK_ADMIN_TOKEN: 'S3cret-token' },
    });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(app.ctx.clock.now()).toBe(TEST_START + 3 * 3_600_000);
  });

  it('mkt mock serve --host 0.0.0.0 prints a random admin token, and never one given with --admin-token', async () => {
    const firstLines = (args: string[]) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, 'mock', 'serve', '--host', '0.0.0.0', '--port', '0', '--listings', '5', ...args], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          if (/partner codes/.test(out)) setTimeout(() => child.kill('SIGTERM'), 200);
        });
        child.on('error', reject);
        child.on('close', () => {
          clearTimeout(timer);
          resolve(out);
        });
      });
    expect(await firstLines([])).toMatch(/admin token .*: [\w-]{32}\n/);
    expect(await firstLines(['--admin-token', 'Chosen-token'])).not.toMatch(/admin token|Chosen-token/);
  });
});
