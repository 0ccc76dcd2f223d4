/**
 * The request journal (GET/DELETE /__mock/requests): a bounded ring, newest first, `since` for
 * following, clear; what it records of in-process and HTTP requests (refused ones too); and that no
 * secret sent in any header, query or body position survives into it.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { userPassword } from '../mock-server/oauth/passwords.js';
import type { RequestLogEntry } from '../src/contract/mock-inspect.js';
import { call, makeApp, order, plainListings, START, tokenFor } from './engine-fixture.js';
import { ADMIN_SPELLINGS, statusWithAccess } from './helpers/admin-spellings.js';
import { rawRequest } from './helpers/raw-http.js';

const running: RunningServer[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
});

async function serve(app: MockApp, host = '127.0.0.1', adminToken?: string): Promise<RunningServer> {
  const server = await startHttpServer(app, host, 0, adminToken ? { adminToken } : {});
  running.push(server);
  return server;
}

/** The journal as the admin route answers it. */
async function journal(app: MockApp, query = ''): Promise<{ result: RequestLogEntry[]; result_count: number; total_count: number }> {
  const res = await call(app, 'GET', `/__mock/requests${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

const ids = (entries: readonly RequestLogEntry[]) => entries.map((e) => e.id);

describe('journal: a bounded ring, newest first', () => {
  it('keeps only the last --journal-size requests, newest first, ids counting on', async () => {
    const app = makeApp({ listings: 20, requestLogSize: 5 });
    for (let i = 0; i < 8; i++) await call(app, 'GET', `/v1/nothing-${i}`);
    const page = await journal(app);
    expect(ids(page.result)).toEqual([8, 7, 6, 5, 4]);
    expect(page.result.map((e) => e.path)).toEqual([7, 6, 5, 4, 3].map((i) => `/v1/nothing-${i}`));
    expect(page.total_count).toBe(5);
    expect(ids((await journal(app, '?limit=2')).result)).toEqual([8, 7]);
    expect(ids((await journal(app, '?limit=2&offset=1')).result)).toEqual([7, 6]);
  });

  it('since=ID answers the entries after ID, the nearest ones when more wait, so a follower misses none', async () => {
    const app = makeApp({ listings: 20 });
    for (let i = 0; i < 6; i++) await call(app, 'GET', `/v1/nothing-${i}`);
    const page = await journal(app, '?since=2&limit=2');
    expect(ids(page.result)).toEqual([4, 3]);
    expect(page.total_count).toBe(4);
    expect(ids((await journal(app, '?since=4&limit=100')).result)).toEqual([6, 5]);
    expect((await journal(app, '?since=6')).result).toEqual([]);
  });

  it('DELETE clears it; ids go on from where they were; reads and clears of the journal are not recorded', async () => {
    const app = makeApp({ listings: 20 });
    await call(app, 'GET', '/v1/a');
    await call(app, 'GET', '/v1/b');
    await journal(app);
    expect((await call(app, 'DELETE', '/__mock/requests')).body).toEqual({ cleared: 2 });
    expect((await journal(app)).result).toEqual([]);
    await call(app, 'GET', '/v1/c');
    expect((await journal(app)).result.map((e) => [e.id, e.path])).toEqual([[3, '/v1/c']]);
  });

  it('--journal-size 0 records nothing', async () => {
    const app = makeApp({ listings: 20, requestLogSize: 0 });
    await call(app, 'GET', '/v1/a');
    expect(await journal(app)).toEqual({ result: [], result_count: 0, total_count: 0 });
  });

  it('a bad limit or since is a 400 naming it', async () => {
    const app = makeApp({ listings: 20 });
    for (const [q, name] of [
      ['?limit=0', 'limit'],
      ['?since=abc', 'since'],
      ['?since=-1', 'since'],
    ] as const) {
      const res = await call(app, 'GET', `/__mock/requests${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`^${name}:`));
    }
  });
});

describe('journal: what an entry holds', () => {
  it('an in-process call: method, path, query, status, account of the token, both clocks, the JSON body', async () => {
    const app = makeApp({ listings: 60 });
    const token = tokenFor(app, 'alice-1');
    const l = plainListings(app)[0]!;
    await order(app, token, [{ listing_id: l.listing_number, bid_amount: 25 }]);
    await call(app, 'GET', '/v1/orders?limit=3', { token });
    await call(app, 'GET', '/v1/orders', { token: 'nobody-knows-this' });
    const [unknown, list, placed] = (await journal(app)).result;
    expect(placed).toMatchObject({
      method: 'POST',
      path: '/v1/orders',
      query: '',
      status: 200,
      account: 'alice-1',
      body: { bid_requests: [{ listing_id: l.listing_number, bid_amount: 25 }] },
      at: new Date(START).toISOString(),
      virtual_at: '2026-03-02 12:00:00 +0000',
      fault: null,
    });
    expect(placed!.headers.authorization).toBe('bearer ***');
    expect(placed!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(list).toMatchObject({ method: 'GET', query: 'limit=3', status: 200, account: 'alice-1', body: null });
    expect(unknown).toMatchObject({ status: 401, account: null });
  });

  it('the token endpoint body is never kept, even sent as JSON', async () => {
    const app = makeApp({ listings: 20 });
    const secret = 'plain-words-only';
    await call(app, 'POST', '/v1/security/oauth/token', { body: { grant_type: 'refresh_token', note: secret } });
    await call(app, 'POST', '/v1/security/oauth/token', {
      body: new URLSearchParams({ grant_type: 'refresh_token', note: secret }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const entries = (await journal(app)).result;
    expect(entries.map((e) => e.body)).toEqual([null, null]);
    expect(JSON.stringify(entries)).not.toContain(secret);
  });

  it('over HTTP: the normalised path, and requests refused before routing (400, 404, 405, 413, a dropped connection)', async () => {
    const app = makeApp({ listings: 20 });
    const { port } = await serve(app);
    await rawRequest(port, { target: '/v1/../v1/orders?x=1', headers: { authorization: `Bearer ${tokenFor(app, 'bob-1')}` } });
    await rawRequest(port, { target: '/v1/%zz' });
    await rawRequest(port, { target: '/no/such/route' });
    await rawRequest(port, { method: 'DELETE', target: '/v1/orders' });
    await rawRequest(port, {
      method: 'POST',
      target: '/v1/orders',
      body: Buffer.alloc((1 << 20) + 10, 32),
      headers: { 'content-type': 'application/json' },
    }).catch(() => undefined);
    await call(app, 'POST', '/__mock/faults', { body: { drop_rate: 1, path: '/v1/loans' } });
    await rawRequest(port, { target: '/v1/loans' }).catch(() => undefined);
    const entries = (await journal(app)).result.reverse();
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/v1/orders', 200],
      ['GET', '/v1/%zz', 400],
      ['GET', '/no/such/route', 404],
      ['DELETE', '/v1/orders', 405],
      ['POST', '/v1/orders', 413],
      ['POST', '/__mock/faults', 200],
      ['GET', '/v1/loans', null],
    ]);
    expect(entries[0]).toMatchObject({ query: 'x=1', account: 'bob-1', headers: { authorization: 'Bearer ***' } });
    expect(entries[4]!.body).toBeNull();
    expect(entries[6]!.fault).toBe('drop');
  });

  it('the new admin routes meet the same access rule as the others, in every spelling (a route only where it is spelled under /__mock/)', async () => {
    const app = makeApp({ listings: 20 });
    const { port } = await serve(app, '0.0.0.0', 'S3cret-token');
    const spellings = ADMIN_SPELLINGS.filter((t) => /state(\/|$)/i.test(t)).flatMap((t) =>
      ['requests', 'outbox'].map((r) => t.replace(/state/i, r)),
    );
    expect(spellings.length).toBeGreaterThan(10);
    for (const target of spellings) {
      for (const method of ['GET', 'DELETE']) {
        for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
          const res = await rawRequest(port, { method, target, headers });
          expect(res.status, `${method} ${target}`).toBe(404);
          expect(res.text).not.toMatch(/result|cleared/);
        }
        expect(
          (await rawRequest(port, { method, target, headers: { 'x-mock-admin-token': 'S3cret-token' } })).status,
          `${method} ${target}`,
        ).toBe(statusWithAccess(target));
      }
    }
    // The refused probes are in the journal (without the admin token); the journal's own calls are not.
    const entries = (await journal(app)).result;
    expect(entries.every((e) => /outbox/i.test(e.path))).toBe(true);
    expect(JSON.stringify(entries)).not.toContain('S3cret-token');
  });
});

/** Secrets of every kind the journal must never show. */
type Secret = { kind: 'access' | 'refresh' | 'client' | 'expired' | 'password' | 'seeded-password'; value: string };

/** Where a secret is put: a header, the query or the JSON body, under a secret-named or (for what the mock knows) any name. */
type Position = { where: 'header' | 'query' | 'body'; name: string; wrap: 'bare' | 'bearer' | 'text' | 'nested' };

const SECRET_NAMES = [
  'authorization',
  'x-api-token',
  'cookie',
  'x-mock-admin-token',
  'password',
  'client_secret',
  'refresh_token',
  'access_token',
  'auth_key',
  'Passwd',
  'x-session',
  'code',
];
const headerName = fc.stringMatching(/^x-[a-z]{1,10}$/);
const anyName = fc.stringMatching(/^[a-z_]{1,12}$/);

describe('journal redaction', () => {
  it('no token, refresh token, client secret or password sent in any header, query or body position appears in the journal', async () => {
    const app = makeApp({ listings: 20 });
    const access = tokenFor(app, 'alice-1');
    const refresh = randomBytes(24).toString('base64url');
    app.ctx.world.tokens.set(refresh, { ...app.ctx.world.tokens.get(access)!, value: refresh, kind: 'refresh' });
    const secret = fc.oneof(
      fc.constant<Secret>({ kind: 'access', value: access }),
      fc.constant<Secret>({ kind: 'refresh', value: refresh }),
      fc.constant<Secret>({ kind: 'client', value: 'mkt-demo-secret' }),
      // A seeded user's password for the password grant: the mock knows it, so it is hidden under any name.
      fc.constantFrom('alice', 'bob').map((u): Secret => ({ kind: 'seeded-password', value: userPassword(app.ctx.world.seed, u) })),
      // A token the mock no longer holds (expired and pruned): 32 random base64url characters, as it issues them.
      fc
        .uint8Array({ minLength: 24, maxLength: 24 })
        .map((b): Secret => ({ kind: 'expired', value: Buffer.from(b).toString('base64url') }))
        .filter((s) => /[A-Z]/.test(s.value) && /[a-z]/.test(s.value)),
      fc.stringMatching(/^[A-Za-z0-9!#$%&*+,.:;<>?@^_~-]{8,24}$/).map((p): Secret => ({ kind: 'password', value: `Pw!${p}` })),
    );
    const position = (s: Secret): fc.Arbitrary<Position> => {
      const secretNamed = fc.constantFrom(...SECRET_NAMES);
      // A password is known only by the name it is sent under; what the mock issued is known wherever it is.
      const names = s.kind === 'password' ? secretNamed : fc.oneof(secretNamed, anyName, headerName);
      return fc.record({
        where: fc.constantFrom('header', 'query', 'body'),
        name: names,
        wrap: fc.constantFrom('bare', 'bearer', 'text', 'nested'),
      });
    };
    await fc.assert(
      fc.asyncProperty(
        secret.chain((s) => fc.tuple(fc.constant(s), position(s))),
        async ([s, p]) => {
          const value =
            p.wrap === 'bearer'
              ? `Bearer ${s.value}`
              : p.wrap === 'text' && s.kind !== 'password'
                ? `my key is ${s.value}, keep it`
                : s.value;
          const headers: Record<string, string> = { 'x-trace': 'plain' };
          const query = new URLSearchParams({ limit: '5' });
          let body: unknown = { bid_requests: [] };
          if (p.where === 'header') headers[p.name.toLowerCase()] = value;
          else if (p.where === 'query') query.append(p.name, value);
          else
            body = p.wrap === 'nested' ? { outer: [{ [p.name]: value }], list: s.kind === 'password' ? [] : [value] } : { [p.name]: value };
          await call(app, 'DELETE', '/__mock/requests');
          await call(app, 'POST', `/v1/orders?${query}`, { headers, body });
          const text = JSON.stringify((await journal(app)).result);
          expect(text).toContain('/v1/orders');
          expect(text).not.toContain(s.value);
          expect(text).not.toContain(encodeURIComponent(s.value));
          expect(text).not.toContain(JSON.stringify(s.value).slice(1, -1));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps the scheme of an authorization header and leaves ordinary values alone', async () => {
    const app = makeApp({ listings: 20 });
    await call(app, 'GET', '/v1/orders?sort_by=order_date&status=PENDING', {
      headers: { authorization: 'Basic bWt0LWRlbW86c2VjcmV0', 'user-agent': 'prosper-api/1.0' },
    });
    const [entry] = (await journal(app)).result;
    expect(entry!.headers).toMatchObject({ authorization: 'Basic ***', 'user-agent': 'prosper-api/1.0', accept: 'application/json' });
    expect(entry!.query).toBe('sort_by=order_date&status=PENDING');
  });
});
