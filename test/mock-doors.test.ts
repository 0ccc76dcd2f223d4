/**
 * One behaviour, two doors (issue 40, item 4): the marketplace served over HTTP (`serve`, the adapter of
 * `mkt mock serve`) and the same marketplace behind msw's setupServer answer the same requests with the
 * same status, the headers a client reads and the same body bytes, and their request logs hold the same
 * entries. Two marketplaces built with the same options, one per door, so each door has its own identical
 * world; every generated request goes to both, in the same order, so the worlds stay in step.
 *
 * Left out, because the doors differ there by design (transport only; each is tested where it lives):
 * - what only a socket has: the Host check (421), admin access by peer, Origin and Sec-Fetch-Site
 *   (404/403), and the admin routes' 415 for a body not declared JSON (a browser page's cross-origin
 *   write: http/admin-access.ts); so an admin body here always goes as application/json, and fetch sends
 *   no Origin, Host or Sec-Fetch-Site of its own choosing;
 * - a body over 1 MiB (413), an `Expect` other than 100-continue (417), too many connections or body
 *   bytes at once (503);
 * - methods node's HTTP parser does not know (FOO, lower-case `patch`: a 400 before any handler, while
 *   msw reaches the router's 404/405), and CONNECT/TRACE/TRACK, which fetch refuses to send at all;
 * - a dropped connection (`drop`, `drop_response` faults) is a socket reset over HTTP and Fetch's network
 *   error from msw: both reach the caller as fetch's TypeError, which is what is compared;
 * - the rate limits' throttle: off here (the library's default), since it answers by real time, which two
 *   doors answering one after the other cannot share; both doors throttle alike over one injected clock
 *   in test/mock-rate-limit.test.ts.
 */
import { setupServer } from 'msw/node';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMarketplace, type Marketplace, type MarketplaceOptions } from '../mock-server/library/index.js';
import { serve, type ServedMarketplace } from '../mock-server/library/node.js';
import { appOf } from '../mock-server/library/internal.js';
import { scopesFor } from '../mock-server/oauth/grants.js';
import { RouteHandler } from '../mock-server/route-helper/route.js';
import { ROUTE_WEIGHTS, routeArbitraries, type Auth, type DoorRequest, type WorldFacts } from './helpers/door-requests.js';

/** The property's seed (DOORS_SEED to replay another; fast-check prints it with a failure). */
const SEED = Number(process.env.DOORS_SEED ?? 4040);
const OPTIONS: MarketplaceOptions = { seed: 23, listings: 200, frozen: true };
const MSW_BASE = 'http://doors.example.test';
/** The headers a client reads; every other (content-length, connection, keep-alive) is the transport's. */
const READ_HEADERS = [
  'content-type',
  'allow',
  'retry-after',
  'location',
  'www-authenticate',
  'cache-control',
  'date',
  'pragma',
  'x-frame-options',
];

/** One door: its marketplace, where it is reached, and its own secrets (tokens and auth keys are random per world). */
interface Door {
  name: string;
  market: Marketplace;
  base: string;
  /** Every secret this door issued, in order: the same index in both doors is the same secret. */
  secrets: string[];
  /** What a request's `{{NAME}}` stands for at this door (an auth key, a refresh token, an order id, a referral code). */
  vars: Map<string, string>;
  tokens: Map<Auth, string>;
}

/** What a client sees of one answer, secrets and the door's own origin replaced by names. */
type Seen = { network: string } | { status: number; headers: Record<string, string | string[]>; body: string };

let served: ServedMarketplace;
const doors: Door[] = [];
const server = setupServer();
let facts: WorldFacts;

const door = (name: string, market: Marketplace, base: string): Door => ({
  name,
  market,
  base,
  secrets: [],
  vars: new Map(),
  tokens: new Map(),
});

beforeAll(async () => {
  const overHttp = createMarketplace(OPTIONS);
  served = await serve(overHttp);
  const inMsw = createMarketplace(OPTIONS);
  server.use(...inMsw.handlers(MSW_BASE));
  // The HTTP door's requests pass msw by (they are the only ones no handler takes).
  server.listen({ onUnhandledRequest: 'bypass' });
  doors.push(door('http', overHttp, served.url), door('msw', inMsw, MSW_BASE));
  const world = appOf(overHttp).ctx.world;
  const accounts = [...world.accounts.keys()].slice(0, 4);
  const notes = overHttp.account(world.users.get('alice')!.accountIds[0]!).notes();
  facts = {
    listings: world.listings
      .filter((l) => l.listing_status === 2)
      .slice(0, 8)
      .map((l) => l.listing_number),
    accounts,
    loans: [...new Set(notes.map((n) => n.loan_number))].slice(0, 4),
    notes: notes.slice(0, 4).map((n) => n.loan_note_id),
  };
});

afterAll(async () => {
  server.close();
  await served?.close();
  for (const d of doors) await d.market.close();
});

/** Each door's own tokens, the same calls in the same order (a reset or a snapshot load drops a world's tokens). */
async function issueTokens(): Promise<void> {
  for (const d of doors) {
    const give = (who: Auth, value: string) => {
      d.tokens.set(who, value);
      d.secrets.push(value);
    };
    give('alice', await d.market.tokenFor('alice', { expiresIn: '400d' }));
    give('bob', await d.market.tokenFor('bob', { expiresIn: '400d' }));
    give('reader', await d.market.tokenFor('carol', { expiresIn: '400d', scopes: scopesFor('read_only') }));
    give('hour', await d.market.tokenFor('alice'));
  }
}

const fill = (d: Door, text: string) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => d.vars.get(k) ?? `no-${k.toLowerCase()}`);

function authorization(d: Door, who: Auth): Record<string, string> {
  if (who === 'none') return {};
  if (who === 'junk') return { authorization: 'bearer not-a-token' };
  if (who === 'basic') return { authorization: 'Basic YWxpY2U6cHc=' };
  return { authorization: `bearer ${d.tokens.get(who)}` };
}

/** Notes what an answer gave that later requests use: secrets by index, ids by name. */
function harvest(d: Door, req: DoorRequest, headers: Headers, text: string): void {
  const key = new URL(headers.get('location') ?? 'x:', 'x:/').searchParams.get('auth_key');
  if (key) {
    d.secrets.push(key);
    d.vars.set('AUTH_KEY', key);
  }
  if (!headers.get('content-type')?.startsWith('application/json')) return;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return;
  }
  for (const [field, name] of [
    ['access_token', 'ACCESS'],
    ['refresh_token', 'REFRESH'],
  ] as const) {
    const v = json[field];
    if (typeof v === 'string') {
      d.secrets.push(v);
      d.vars.set(name, v);
    }
  }
  if (req.route === 'POST /v1/orders' && typeof json.order_id === 'string') d.vars.set('ORDER', json.order_id);
  if (typeof json.referral_code === 'string') d.vars.set('REFERRAL', json.referral_code);
}

/** The door's own parts of a text named: its origin, and each secret by its index (the same in both doors). */
function masked(d: Door, text: string): string {
  let out = text.replaceAll(new URL(d.base).origin, '{origin}');
  d.secrets.forEach((s, i) => (out = out.replaceAll(s, `{secret ${i}}`)));
  // A snapshot's saved_at is the real clock's (world/snapshot-shelf.ts): the two doors saved a moment apart.
  return out.replace(/"saved_at":"[^"]*"/g, '"saved_at":"{real time}"');
}

/** A request log entry as both doors must agree on it: the transport's headers and real times left out. */
const logged = (e: Record<string, unknown>) => ({
  id: e.id,
  virtual_at: e.virtual_at,
  method: e.method,
  path: e.path,
  query: e.query,
  status: e.status,
  account: e.account,
  body: e.body,
  fault: e.fault,
});

async function send(d: Door, req: DoorRequest): Promise<Seen> {
  let res: Response;
  try {
    res = await fetch(d.base + fill(d, req.target), {
      method: req.method,
      headers: { ...req.headers, ...authorization(d, req.auth) },
      ...(req.body === undefined ? {} : { body: fill(d, req.body) }),
      redirect: 'manual',
    });
  } catch (err) {
    // A dropped connection (HTTP) and Response.error() (msw) both reach the caller as fetch's TypeError.
    return { network: err instanceof TypeError ? 'TypeError' : String(err) };
  }
  // Bytes as latin1 text: one character per byte, so the comparison is of the bytes, masks aside.
  const bytes = Buffer.from(await res.arrayBuffer());
  harvest(d, req, res.headers, bytes.toString('utf8'));
  const headers: Record<string, string | string[]> = {};
  for (const h of READ_HEADERS) {
    const v = res.headers.get(h);
    if (v !== null) headers[h] = masked(d, v);
  }
  const cookies = res.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  let body = masked(d, bytes.toString('latin1'));
  // The dashboard as sent shows the request log's durations and the snapshots' saved times: real time, as masked above.
  if (req.route === 'GET /__mock' && res.status === 200)
    body = body.replace(/(<td class="[^"]*\b(?:ms|real-time)\b[^"]*">)[^<]*</g, '$1{real}<');
  if (req.route === 'GET /__mock/requests' && res.status === 200) {
    const page = JSON.parse(bytes.toString('utf8')) as { result: Record<string, unknown>[] };
    body = masked(d, JSON.stringify({ ...page, result: page.result.map(logged) }));
  }
  return { status: res.status, headers, body };
}

/** Both request logs, as both doors must agree on them. */
async function requestLogs(): Promise<unknown[]> {
  return Promise.all(
    doors.map(async (d) => JSON.parse(masked(d, JSON.stringify((await d.market.requests.list({ limit: 1000 })).map(logged))))),
  );
}

const describeRequest = (req: DoorRequest) => `${req.method} ${req.target} as ${req.auth} ${JSON.stringify(req.headers)} ${req.body ?? ''}`;

test('the HTTP door and the msw door answer every route alike, request logs included', { timeout: 240_000 }, async () => {
  const routes = routeArbitraries(facts);
  // Every route the app serves has a generator: a route added without one fails here.
  const appRoutes = appOf(doors[0]!.market)
    .handlers.filter((h): h is RouteHandler => h instanceof RouteHandler)
    .map((h) => `${h.info.method} ${String(h.info.path).replace(/^\*/, '')}`);
  expect(appRoutes.filter((r) => !routes.has(r))).toEqual([]);
  // Each run: one request per route at a random place among 200-300 random ones.
  const every = [...appRoutes, 'unrouted'].map((r) => fc.tuple(routes.get(r)!, fc.nat()));
  const runs = fc
    .tuple(
      fc.tuple(...every),
      fc.array(fc.oneof(...[...routes].map(([r, arbitrary]) => ({ arbitrary, weight: ROUTE_WEIGHTS[r] ?? 1 }))), {
        minLength: 200,
        maxLength: 300,
      }),
    )
    .map(([placed, random]) => {
      const calls = [...random];
      for (const [req, at] of placed) calls.splice(at % (calls.length + 1), 0, req);
      // fast-check prints a run as this: the failing request itself is in the assertion's message.
      return Object.assign(calls, { [fc.toStringMethod]: () => `${calls.length} requests` });
    });
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(runs, async (calls) => {
      // Each run from the same start in both worlds: the seed's world at the current virtual time, no faults, empty request logs.
      for (const d of doors) {
        await d.market.reset();
        await d.market.faults.clear();
        await d.market.requests.clear();
      }
      await issueTokens();
      for (const [i, req] of calls.entries()) {
        const [overHttp, inMsw] = [await send(doors[0]!, req), await send(doors[1]!, req)];
        sent++;
        expect(inMsw, `request ${i} (${req.route}): ${describeRequest(req)}`).toEqual(overHttp);
        if (req.route === 'POST /__mock/reset' || req.route === 'POST /__mock/snapshots/:name/load') await issueTokens();
      }
      const [overHttp, inMsw] = await requestLogs();
      expect(inMsw, 'the request logs').toEqual(overHttp);
    }),
    { seed: SEED, numRuns: 3, endOnFailure: true },
  );
  expect(sent).toBeGreaterThan(300);
});
