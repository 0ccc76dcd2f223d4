/**
 * Strict routes (mock-server/http/router.ts): the mock answers the spec's paths only, letter case included,
 * so a client with a wrong base URL fails against the mock as it would against the service. Every
 * route the mock serves, under a generated prefix or with a letter's case changed, is the JSON 404
 * naming the method and path; the spec's own spellings (trailing slash, repeated slashes, dot
 * segments, escaped unreserved characters) still reach it; a path RFC 3986 cannot hold is a 400.
 * With a base path (`mock serve --base-path`) the routes answer under it and nowhere else, and the
 * adapter's direct routes answer there as msw does.
 */
import { Agent } from 'node:http';
import fc from 'fast-check';
import { http, HttpHandler } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { parseBasePath } from '../mock-server/http/request-target.js';
import { checkRoutes, matchRoute, routedHandlers, routeMethods, underBase } from '../mock-server/http/router.js';
import { buildOpenApiDocument } from '../src/contract/openapi/document.js';
import { validApplicant } from './fixtures/offers/applicants.js';
import { issueTestToken, TEST_START, testMockApp } from './helpers/mock.js';
import { rawRequest, type RawAnswer } from './helpers/raw-http.js';

/** A route as the mock registers it, with a concrete path (each `:name` a sample value). */
interface Route {
  method: string;
  /** Segments: a literal, or null for a parameter. */
  segments: (string | null)[];
}

const SAMPLE = '123';
const pathOf = (r: Route, base = ''): string => `${base}/${r.segments.map((s) => s ?? SAMPLE).join('/')}`;

/** The documented routes (the OpenAPI document, which openapi.test.ts holds equal to the handlers), as exact patterns: the oracle. */
const documented = Object.keys(buildOpenApiDocument().paths as object).map(
  (t) =>
    new RegExp(
      `^${t
        .replace(/\/$/, '')
        .replace(/\{[^}]+\}/g, '[^/]+')
        .replace(/\./g, '\\.')}$`,
    ),
);
const isDocumented = (path: string) => documented.some((re) => re.test(path));

let app: MockApp;
let server: RunningServer;
let based: { app: MockApp; server: RunningServer };
let routes: Route[];
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

beforeAll(async () => {
  app = testMockApp({ seed: 3, listings: 30, frozen: true, start: TEST_START });
  server = await startHttpServer(app, '127.0.0.1', 0);
  const bApp = testMockApp({ seed: 3, listings: 30, frozen: true, start: TEST_START, basePath: '/mkt/mock' });
  based = { app: bApp, server: await startHttpServer(bApp, '127.0.0.1', 0) };
  routes = app.handlers
    .filter((h): h is HttpHandler => h instanceof HttpHandler)
    .map((h) => ({
      method: String(h.info.method),
      segments: String(h.info.path)
        .replace(/^\*/, '')
        .split('/')
        .filter((s) => s !== '')
        .map((s) => (s.startsWith(':') ? null : s)),
    }));
});
afterAll(async () => {
  agent.destroy();
  await server.close();
  await based.server.close();
});

const json = (a: RawAnswer) => JSON.parse(a.text) as { code?: string; message?: string };
/** Whether an answer is the router's own 404 for `method` `path` (and not a route's 404 for a missing resource). */
const isRouter404 = (a: RawAnswer, method: string, path: string) =>
  a.status === 404 && a.text === JSON.stringify({ code: 'NOT_FOUND', message: `No route for ${method} ${path}` });
/** Whether the request reached a route: neither the router's 404 nor its 405. */
const routed = (a: RawAnswer) => !(a.status === 404 && /^\{"code":"NOT_FOUND","message":"No route for /.test(a.text)) && a.status !== 405;

const route = () => fc.constantFrom(...routes);
/** A segment a prefix may have, already in normalised form (no dots alone, no escapes). */
const segment = fc.stringMatching(/^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,7}$/).filter((s) => s !== '.' && s !== '..');
const prefix = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`);

/** The request to send for a route: a POST with an empty JSON body (the router decides before any body is read), any other method bare. */
const send = (port: number, method: string, target: string) =>
  rawRequest(
    port,
    {
      method,
      target,
      ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
    },
    agent,
  );

describe('strict routes', () => {
  it('reads the routes the mock serves (a test that found none would prove nothing)', () => {
    expect(routes.length).toBeGreaterThan(20);
    for (const r of routes) expect(isDocumented(pathOf(r)), pathOf(r)).toBe(true);
  });

  it('answer a route under any other prefix with the JSON 404 naming the method and path', async () => {
    await fc.assert(
      fc.asyncProperty(route(), prefix, async (r, p) => {
        const path = `${p}${pathOf(r)}`;
        fc.pre(!isDocumented(path)); // `/v1/loans` + `/oauth` is /v1/loans/{loan_number}, a route of its own
        const a = await send(server.port, r.method, path);
        expect(isRouter404(a, r.method, path), `${r.method} ${path} -> ${a.status} ${a.text.slice(0, 200)}`).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('answer a route with any letter of it in another case with the JSON 404 naming the path', async () => {
    const withCaseChange = route().chain((r) => {
      const letters = r.segments.flatMap((s, i) =>
        s === null ? [] : [...s].flatMap((ch, j) => (/[a-z]/i.test(ch) ? [[i, j] as const] : [])),
      );
      return fc.subarray(letters, { minLength: 1 }).map((flip) => {
        const segments = r.segments.map((s, i) =>
          s === null
            ? null
            : [...s]
                .map((ch, j) =>
                  flip.some(([fi, fj]) => fi === i && fj === j) ? (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()) : ch,
                )
                .join(''),
        );
        return { r, path: pathOf({ ...r, segments }) };
      });
    });
    await fc.assert(
      fc.asyncProperty(withCaseChange, async ({ r, path }) => {
        fc.pre(!isDocumented(path)); // `/v1/loans/pAyments` is /v1/loans/{loan_id}, a route of its own
        const a = await send(server.port, r.method, path);
        expect(isRouter404(a, r.method, path), `${r.method} ${path} -> ${a.status} ${a.text.slice(0, 200)}`).toBe(true);
      }),
      { numRuns: 150 },
    );
    // The two of the issue, in-process too.
    for (const target of ['/foo/v1/loans/', '/V1/loans/']) {
      const a = await app.handle(new Request(`http://mock.test${target}`));
      expect([a.status, await a.json()]).toEqual([404, { code: 'NOT_FOUND', message: `No route for GET ${target.slice(0, -1)}` }]);
    }
  });

  it("still route the spec's own spellings: trailing and repeated slashes, dot segments, escaped unreserved characters", async () => {
    const spelling = fc
      .tuple(route(), fc.array(fc.constantFrom('slash', 'double', 'dot', 'dotdot', 'escape'), { minLength: 1, maxLength: 3 }), fc.nat())
      .map(([r, ways, n]) => {
        let segs = r.segments.map((s) => s ?? SAMPLE);
        for (const [k, way] of ways.entries()) {
          const at = (n + k) % segs.length;
          if (way === 'double') segs = [...segs.slice(0, at), '', ...segs.slice(at)];
          else if (way === 'dot') segs = [...segs.slice(0, at), '.', ...segs.slice(at)];
          else if (way === 'dotdot') segs = [...segs.slice(0, at), 'x~y', '..', ...segs.slice(at)];
          else if (way === 'escape')
            segs = segs.map((s, i) =>
              i === at && s !== '' ? s.replace(/[A-Za-z0-9._~-]/, (ch) => `%${ch.charCodeAt(0).toString(16)}`) : s,
            );
        }
        return { r, target: `/${segs.join('/')}${ways.includes('slash') ? '/' : ''}` };
      });
    await fc.assert(
      fc.asyncProperty(spelling, async ({ r, target }) => {
        const a = await send(server.port, r.method, target);
        expect(routed(a), `${r.method} ${target} -> ${a.status} ${a.text.slice(0, 200)}`).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('answer a path that holds [ ] or a character no URI may hold with a 400 naming it, under any route', async () => {
    const broken = fc.tuple(route(), fc.constantFrom(...'[]{}|^"<>`'), fc.nat()).map(([r, ch, n]) => {
      const path = pathOf(r);
      const at = 1 + (n % path.length);
      return { r, ch, target: `${path.slice(0, at)}${ch}${path.slice(at)}` };
    });
    await fc.assert(
      fc.asyncProperty(broken, async ({ r, ch, target }) => {
        const a = await send(server.port, r.method, target);
        expect([a.status, json(a).code], target).toEqual([400, 'VAL0001']);
        expect(json(a).message).toContain(`'${ch}' in the path '${target}'`);
      }),
      { numRuns: 100 },
    );
    const odd = await rawRequest(server.port, { target: '//[zz]/v1/loans' }, agent);
    expect([odd.status, json(odd).message]).toEqual([
      400,
      "request target: '[' in the path '//[zz]/v1/loans' is allowed only around an IP address in the authority; percent-encode it (%5B)",
    ]);
    // In-process callers (mkt invest simulate) get the same reading.
    const inProcess = await app.handle(new Request('http://mock.test//[zz]/v1/loans'));
    expect([inProcess.status, ((await inProcess.json()) as { message: string }).message]).toEqual([400, json(odd).message]);
  });
});

describe('a base path (mock serve --base-path)', () => {
  const BASE = '/mkt/mock';

  it('answers every route under it, and the bare route or any other prefix with the 404', async () => {
    await fc.assert(
      fc.asyncProperty(route(), fc.option(prefix, { nil: undefined }), async (r, other) => {
        const at = await send(based.server.port, r.method, pathOf(r, BASE));
        expect(routed(at), `${r.method} ${pathOf(r, BASE)} -> ${at.status} ${at.text.slice(0, 200)}`).toBe(true);
        const elsewhere = pathOf(r, other ?? '');
        fc.pre(!elsewhere.startsWith(`${BASE}/`));
        const a = await send(based.server.port, r.method, elsewhere);
        expect(isRouter404(a, r.method, elsewhere), `${r.method} ${elsewhere} -> ${a.status}`).toBe(true);
      }),
      { numRuns: 120 },
    );
    for (const target of ['/MKT/mock/v1/loans', '/mkt/v1/loans', '/mkt/mockv1/loans'])
      expect(isRouter404(await send(based.server.port, 'GET', target), 'GET', target), target).toBe(true);
  });

  it('serves /openapi.json under it with the base path in its servers entry, and links offers under it', async () => {
    const doc = await rawRequest(based.server.port, { target: `${BASE}/openapi.json` }, agent);
    expect(JSON.parse(doc.text).servers).toEqual([{ url: `${based.server.origin}${BASE}`, description: 'The mock (mkt mock serve).' }]);
    const token = issueTestToken(based.app);
    const body = JSON.stringify(validApplicant());
    const offers = await rawRequest(
      based.server.port,
      {
        method: 'POST',
        target: `${BASE}/v1/marketplace/application/offers`,
        headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
        body,
      },
      agent,
    );
    const url = (JSON.parse(offers.text) as { offers_url?: string }).offers_url;
    expect(url, offers.text).toMatch(new RegExp(`^${based.server.origin}${BASE}/apply/offers/`));
    expect((await rawRequest(based.server.port, { target: new URL(url!).pathname }, agent)).status).toBe(200);
  });

  it('keeps the admin routes under it, behind the same access rule', async () => {
    expect((await rawRequest(based.server.port, { target: `${BASE}/__mock/state` }, agent)).status).toBe(200);
    expect((await rawRequest(based.server.port, { target: '/__mock/state' }, agent)).status).toBe(404);
  });

  it('applies a fault to the API path below it', async () => {
    based.app.ctx.faults.set({ error_rate: 1, path: '/v1/loans', count: 1 });
    expect((await rawRequest(based.server.port, { target: '/v1/loans' }, agent)).status).toBe(404);
    expect((await rawRequest(based.server.port, { target: `${BASE}/v1/loans` }, agent)).status).toBe(500);
  });

  it('answers the hot routes under it, and only under it, by the one request path', async () => {
    const a = testMockApp({ seed: 5, listings: 40, frozen: true, start: TEST_START, basePath: BASE });
    const token = 'base-path-token-0123456789';
    a.ctx.world.tokens.set(token, { ...a.ctx.world.tokens.get(issueTestToken(a))!, value: token });
    const server = await startHttpServer(a);
    try {
      const auth = { authorization: `bearer ${token}`, host: 'localhost', 'content-type': 'application/json' };
      const listing = JSON.parse((await rawRequest(server.port, { target: `${BASE}/listingsvc/v2/listings?limit=1`, headers: auth })).text)
        .result[0].listing_number as number;
      const order = JSON.stringify({ bid_requests: [{ listing_id: listing, bid_amount: 25 }] });
      const answers: [string, number, string | undefined][] = [];
      for (const [method, target, body] of [
        ['GET', `${BASE}/listingsvc/v2/listings?limit=3`, undefined],
        ['POST', `${BASE}/v1/orders`, order],
        ['POST', `${BASE}//v1/./orders/`, '{'],
        ['GET', '/listingsvc/v2/listings', undefined],
        ['POST', '/v1/orders', order],
        ['GET', `${BASE}/LISTINGSVC/v2/listings`, undefined],
      ] as const) {
        const x = await rawRequest(server.port, { method, target, headers: auth, body });
        answers.push([`${method} ${target}`, x.status, (JSON.parse(x.text) as { code?: string }).code]);
      }
      expect(answers).toEqual([
        [`GET ${BASE}/listingsvc/v2/listings?limit=3`, 200, undefined],
        [`POST ${BASE}/v1/orders`, 200, undefined],
        [`POST ${BASE}//v1/./orders/`, 400, 'ORD0032'],
        ['GET /listingsvc/v2/listings', 404, 'NOT_FOUND'],
        ['POST /v1/orders', 404, 'NOT_FOUND'],
        [`GET ${BASE}/LISTINGSVC/v2/listings`, 404, 'NOT_FOUND'],
      ]);
      expect(a.ctx.world.orders.size).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe('the router over handlers as routes/ register them', () => {
  const ok = () => new Response('ok');
  const byId = http.get('*/v1/loans/:loanId', ok);
  const payments = http.get('*/v1/loans/payments', ok);
  const list = http.get('*/v1/loans', ok);
  const submit = http.post('/v1/orders', ok);

  it('takes a literal before a parameter, whichever registered first; alike routes in their order', () => {
    for (const order of [
      [byId, payments, list],
      [payments, byId, list],
    ]) {
      expect(routedHandlers(order, '/v1/loans/payments', '')).toEqual([payments, byId]);
      expect(routedHandlers(order, '/v1/loans/42', '')).toEqual([byId]);
    }
    const front = http.get('*/v1/loans/payments', ok);
    expect(routedHandlers([front, byId, payments], '/v1/loans/payments', '')).toEqual([front, payments, byId]);
  });

  it('matches segment by segment, letter case included, under the base path only; `/path` as `*/path`', () => {
    const all = [byId, payments, list, submit];
    expect(routedHandlers(all, '/v1/loans', '')).toEqual([list]);
    expect(routedHandlers(all, '/v1/Loans', '')).toEqual([]);
    expect(routedHandlers(all, '/x/v1/loans', '')).toEqual([]);
    expect(routedHandlers(all, '/v1/loans/1/2', '')).toEqual([]);
    expect(routedHandlers(all, '/p/v1/orders', '/p')).toEqual([submit]);
    expect(routedHandlers(all, '/v1/orders', '/p')).toEqual([]);
    expect(routeMethods(all, '/v1/orders', '')).toEqual(['POST']);
    expect(routeMethods(all, '/v1/loans/9', '')).toEqual(['GET', 'HEAD']);
    expect([underBase('/p', '/p'), underBase('/pq/x', '/p'), underBase('/p/x', '/p'), underBase('/x', '')]).toEqual([
      '/',
      null,
      '/x',
      '/x',
    ]);
  });

  it('gives the first handler of the method (HEAD as GET) with its parameters decoded as msw decodes them', () => {
    const all = [byId, payments, list, submit];
    const m = matchRoute(all, 'GET', '/v1/loans/a%20b%2Fc', '');
    expect(m?.handler).toBe(byId);
    expect(m?.params()).toEqual({ loanId: 'a b/c' });
    expect(matchRoute(all, 'HEAD', '/v1/loans/payments', '')?.handler).toBe(payments);
    expect(matchRoute(all, 'POST', '/v1/loans', '')).toBeNull();
    expect(matchRoute(all, 'POST', '/p/v1/orders', '/p')?.params()).toEqual({});
    expect(() => matchRoute(all, 'GET', '/v1/loans/%C3%28', '')!.params()).toThrow(URIError);
  });

  it('answers a parameter that is not UTF-8 once decoded with 400 VAL0001 (the target is refused before any route)', async () => {
    const app = testMockApp({ seed: 5, listings: 10, frozen: true, start: TEST_START });
    const answer = await app.handle(
      new Request('http://mock.test/v1/orders/%C3%28', { headers: { authorization: `bearer ${issueTestToken(app)}` } }),
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: 'VAL0001', message: expect.stringMatching(/not UTF-8/) });
  });

  it('refuses at start a route it cannot hold to the strict rule', () => {
    expect(() => checkRoutes([http.get(/\/v1\/loans/, ok)])).toThrow(/write a route as '\*\/path' or '\/path'/);
    expect(() => checkRoutes([http.get('http://host/v1/loans', ok)])).toThrow(/write a route as/);
    expect(() => checkRoutes([http.get('*/v1/*/loans', ok)])).toThrow(/segment '\*'/);
    expect(() => checkRoutes([http.get('*/v1/:id?', ok)])).toThrow(/segment ':id\?'/);
    expect(() => checkRoutes([http.get('*/v1/%6Coans', ok)])).toThrow(/segment '%6Coans'/);
  });
});

describe('parseBasePath (the --base-path option)', () => {
  it('takes a path, normalised as request paths are; / is no prefix', () => {
    expect(parseBasePath('/p')).toEqual({ basePath: '/p' });
    expect(parseBasePath('/a//b/')).toEqual({ basePath: '/a/b' });
    expect(parseBasePath('/a/%62')).toEqual({ basePath: '/a/b' });
    expect(parseBasePath('/')).toEqual({ basePath: '' });
  });

  it("refuses what is not a path under /, a '..' segment, an admin segment or a character a path cannot hold", () => {
    const problem = (raw: string) => {
      const r = parseBasePath(raw);
      return 'problem' in r ? r.problem : 'ok';
    };
    expect(problem('p')).toMatch(/must start with '\/'/);
    expect(problem('')).toMatch(/must start with '\/'/);
    expect(problem('/a/../b')).toMatch(/'\.\.' segment/);
    expect(problem('/a/%2E%2e')).toMatch(/'\.\.' segment/);
    expect(problem('/..')).toMatch(/'\.\.' segment/);
    expect(problem('/p?x=1')).toMatch(/without '\?' or '#'/);
    expect(problem('/__mock')).toMatch(/'__mock' segment/);
    expect(problem('/a b')).toMatch(/printable ASCII/);
    expect(problem('/[p]')).toMatch(/'\[' in '\/\[p\]' is allowed only/);
    expect(problem('/a..b')).toBe('ok');
  });

  it('gives a fixed point of the normaliser for any path it takes', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'/ab.%2e5F_~-'.split('')), maxLength: 20 }), (raw) => {
        const r = parseBasePath(`/${raw}`);
        if ('problem' in r) return;
        expect(r.basePath === '' || (r.basePath.startsWith('/') && !r.basePath.endsWith('/'))).toBe(true);
        expect(parseBasePath(r.basePath || '/')).toEqual(r);
      }),
    );
  });
});
