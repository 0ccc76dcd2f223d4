/**
 * Property-based fuzz of the mock's HTTP surface: over 10,000 generated requests (random methods,
 * targets with random bytes and escapes, every listing filter with random values, random and broken
 * bodies, odd headers) to a mock on port 0. No answer is a 5xx, every error body is JSON with a code,
 * the server still answers afterwards and the ledger invariants hold. FUZZ_SEED=N replays a run.
 */
import { Agent } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { checkInvariants } from '../mock-server/audit/invariants.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { isAdminPath, normaliseTarget } from '../mock-server/http/request-target.js';
import { filterParamNames } from '../src/contract/listing-filters.js';
import { applicantWith, validApplicant } from './fixtures/offers/applicants.js';
import { issueTestToken, TEST_START, testMockApp } from './helpers/mock.js';
import { rawRequest, rawSocket, type RawAnswer, type RawRequest } from './helpers/raw-http.js';

const RUNS = 1000;
const BATCH = 10;
const RAW_SOCKET_RUNS = 200;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;

let app: MockApp;
let server: RunningServer;
let agent: Agent;
let tokens: string[];
let listingIds: number[];

beforeAll(async () => {
  app = testMockApp({ seed: 7, listings: 300, frozen: true, start: TEST_START });
  server = await startHttpServer(app, '127.0.0.1', 0);
  agent = new Agent({ keepAlive: true, maxSockets: 4 });
  // The fuzz may move the mock's clock (POST /__mock/clock): tokens that outlive any run keep every request authenticated.
  const ttl = 10_000 * 365 * 86_400_000;
  tokens = [
    issueTestToken(app, 'alice-1', undefined, ttl),
    issueTestToken(app, 'bob-1', ['read_listing', 'read_loan', 'read_invest_order', 'read_platform_account'], ttl),
  ];
  listingIds = app.ctx.world.listings
    .filter((l) => l.listing_status === 2)
    .slice(0, 40)
    .map((l) => l.listing_number);
});
afterAll(async () => {
  agent.destroy();
  await server.close();
  await app.close?.();
});

const printable = (min = 0x21) => fc.string({ unit: fc.integer({ min, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 24 });
const METHODS = [
  'GET',
  'GET',
  'GET',
  'POST',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'MKCOL',
  'SEARCH',
  'PURGE',
  'LOCK',
];
const PATHS = [
  '/v1/orders',
  '/v1/orders/0b6e7d1c-8f0a-4c4e-9a55-1f2d3c4b5a69',
  '/v1/orders/x/listings',
  '/v1/loans',
  '/v1/loans/123',
  '/v1/notes',
  '/v1/notes/500001-900001',
  '/v1/accounts/platform',
  '/listingsvc/v2/listings',
  '/v1/marketplace/application/offers',
  '/apply/offers/NOPE',
  '/apply/offers/NOPE/1',
  '/oauth',
  '/v1/security/oauth/token',
  '/__mock/state',
  '/__mock/clock',
  '/__mock/process',
  '/__mock/',
  '/',
];
const NOISE = [
  '%zz',
  '%FF',
  '%2e%2e',
  '%2E',
  '..',
  '.',
  '//',
  '\\',
  '%2F',
  '%00',
  '%C3%A9',
  '%',
  '~',
  '[zz]',
  '__MOCK',
  ';x',
  '@',
  ':',
  '\u00e9',
  '?',
  '#',
  '&',
];
const PARAMS = [
  ...filterParamNames(),
  'offset',
  'limit',
  'sort_by',
  'status',
  'biddable',
  'invested',
  'whole_loan',
  'include_credit_bureau_values',
  'exclude_co_borrower_application',
  'bogus',
];
const VALUES = [
  'true',
  'FALSE',
  '0',
  '-1',
  '1e3',
  '99999999999999999999',
  'NaN',
  '760-779,780-799',
  '2026-01-01',
  '2026-13-45',
  '2026-01-01 10:00:00',
  'borrower_rate desc',
  'x asc,y',
  ',',
  '',
  '%zz',
  '%E2%82%AC',
];

const target = fc
  .tuple(
    fc.constantFrom('', '', '', '//h', 'http://h', 'http://%zz', 'https://[::1]:1', 'HTTP://x', '*', 'ftp://x'),
    fc.constantFrom(...PATHS),
    fc.array(fc.oneof(fc.constantFrom(...NOISE), printable()), { maxLength: 4 }),
    fc.array(fc.tuple(fc.constantFrom(...PARAMS), fc.oneof(fc.constantFrom(...VALUES), printable()), fc.boolean()), { maxLength: 6 }),
  )
  .map(([prefix, path, noise, query]) => {
    const q = query.map(([k, v, encode]) => `${k}=${encode ? encodeURIComponent(v) : v.replace(/[#\s]/g, '')}`).join('&');
    return `${prefix}${path}${noise.join('')}${q ? `?${q}` : ''}`;
  });

const orderBody = fc
  .array(
    fc.record({
      listing_id: fc.oneof(
        fc.constantFrom(...[0]).map(() => listingIds[0]!),
        fc.integer({ min: 0, max: 40 }).map((i) => listingIds[i] ?? i),
        fc.string(),
      ),
      bid_amount: fc.oneof(fc.constant(25), fc.double(), fc.integer(), fc.string(), fc.constant(null)),
    }),
    { maxLength: 4 },
  )
  .map((bids) => JSON.stringify({ bid_requests: bids }));
// The valid offers applicant with one field (or one whole section) replaced by any JSON value.
const applicant = validApplicant();
const applicantPaths = Object.entries(applicant).flatMap(([k, v]) => [
  k,
  ...(v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v).map((leaf) => `${k}.${leaf}`) : []),
]);
const offersBody = fc
  .tuple(fc.constantFrom(...applicantPaths), fc.oneof(fc.jsonValue(), fc.constant(undefined)))
  .map(([path, value]) => JSON.stringify(applicantWith({ [path]: value })));
const tokenForm = fc
  .record(
    {
      grant_type: fc.constantFrom('authorization_code', 'refresh_token', 'client_credentials', 'password', ''),
      code: printable(),
      refresh_token: printable(),
      client_id: fc.constantFrom('mkt-demo', ''),
      client_secret: fc.constantFrom('mkt-demo-secret', 'x'),
      redirect_uri: fc.constantFrom('http://localhost:8765/callback', '%zz', ''),
    },
    { requiredKeys: [] },
  )
  .map((f) => new URLSearchParams(f).toString());
const body = fc.oneof(
  fc.constant(undefined),
  fc.constant(undefined),
  orderBody,
  offersBody,
  tokenForm,
  fc.json(),
  fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1))),
  printable(0x20),
  fc.constantFrom(
    '{"advance":"1h"}',
    '{"to":"2026-06-01T00:00:00Z"}',
    '{"advance":"9999999d"}',
    'grant_type=authorization_code&code=x',
    '{"partner_source_code":"PARTNER-DEMO"}',
    '[]',
    'null',
    '{"bid_requests":"x"}',
  ),
);
const headers = fc
  .record(
    {
      authorization: fc.oneof(fc.constant(0), fc.constant(1)).map((i) => `bearer ${tokens[i]}`),
      'content-type': fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'application/json; charset=utf-8',
        'garbage/!!',
        '',
      ),
      timezone: fc.oneof(fc.constantFrom('America/New_York', 'UTC', 'Mars/Base'), printable()),
      accept: fc.constantFrom('application/json', '*/*', 'text/html', ''),
      'x-mock-admin-token': printable(),
      'x-odd': printable(0x20),
    },
    { requiredKeys: [] },
  )
  .chain((h) => fc.constantFrom(h, { ...h, authorization: 'Basic Zm9vOmJhcg==' }, { ...h, authorization: 'bearer' }));

// One request in ten is a well-formed order submission, so that money moves and the invariants mean something.
const submission = orderBody.map((b) => ({
  method: 'POST',
  target: '/v1/orders',
  headers: { authorization: `bearer ${tokens[0]}`, 'content-type': 'application/json' },
  body: b,
}));
const request = fc
  .oneof(
    { weight: 9, arbitrary: fc.record({ method: fc.constantFrom(...METHODS), target, headers, body }) },
    { weight: 1, arbitrary: submission },
  )
  // The fuzz must not inject faults on purpose (those are the one allowed 5xx) nor wipe the world it checks.
  .filter((r) => {
    const t = normaliseTarget(r.target, 'http://x');
    return !t.ok || !isAdminPath(t.url.pathname) || !/\/(faults|reset|listings)(\/|$)/i.test(t.url.pathname);
  }) as fc.Arbitrary<RawRequest>;

/** Checks one answer: no 5xx, and an error body is JSON with a code (RFC 6749 `error` on OAuth, `errors[]` on offers). */
function checkAnswer(req: RawRequest, res: RawAnswer): void {
  const what = `${req.method} ${req.target} -> ${res.status} ${res.text.slice(0, 200)}`;
  expect(res.status, what).toBeGreaterThanOrEqual(200);
  expect(res.status, what).toBeLessThan(500);
  const type = String(res.headers['content-type'] ?? '');
  if (req.method === 'HEAD' || res.status === 302) return;
  if (/text\/html/.test(type)) {
    // The pages: the consent page, the offer pages, and the admin dashboard (its page only, never an error of it).
    const t = normaliseTarget(req.target, 'http://x');
    if (!(t.ok && t.url.pathname === '/__mock' && res.status === 200)) expect(req.target, what).toMatch(/\/(oauth|apply\/offers)/i);
    return;
  }
  expect(type, what).toMatch(/application\/json/);
  const parsed = JSON.parse(res.text) as Record<string, unknown>;
  if (res.status >= 400) {
    const errors = parsed.errors as { code?: unknown }[] | undefined;
    const coded = typeof parsed.code === 'string' || typeof parsed.error === 'string' || typeof errors?.[0]?.code === 'string';
    expect(coded, what).toBe(true);
  }
}

it(`answers ${RUNS * BATCH} generated requests without a 5xx, with a coded JSON body, and keeps its invariants`, async () => {
  let sent = 0;
  const started = Date.now();
  console.log(`fuzz: seed ${SEED} (FUZZ_SEED=${SEED} replays it)`);
  await fc.assert(
    fc.asyncProperty(fc.array(request, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
      const answers = await Promise.all(batch.map((r) => rawRequest(server.port, r, agent)));
      sent += batch.length;
      batch.forEach((r, i) => checkAnswer(r, answers[i]!));
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );

  // Bytes node:http will not send: raw targets with spaces, controls and non-ASCII, broken request lines.
  const junk = fc.tuple(
    fc.constantFrom('GET', 'POST', 'FOO', 'G ET', ''),
    fc.uint8Array({ maxLength: 40 }),
    fc.constantFrom('HTTP/1.1', 'HTTP/9.9', ''),
  );
  await fc.assert(
    fc.asyncProperty(junk, async ([method, bytes, version]) => {
      const head = Buffer.concat([
        Buffer.from(`${method} /v1/`),
        Buffer.from(bytes),
        Buffer.from(` ${version}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
      ]);
      const res = await rawSocket(server.port, head);
      sent += 1;
      if (res.status === 0) return; // the socket closed without an answer: a request line too broken to answer
      expect(res.status, head.toString('latin1')).toBeLessThan(500);
      if (res.status >= 400) expect(JSON.parse(res.text).code ?? JSON.parse(res.text).error, res.text).toBeDefined();
    }),
    { numRuns: RAW_SOCKET_RUNS, seed: SEED, endOnFailure: true },
  );

  const after = await rawRequest(
    server.port,
    { target: '/v1/accounts/platform', headers: { authorization: `bearer ${tokens[0]}` } },
    agent,
  );
  expect(after.status).toBe(200);
  expect(checkInvariants(app.ctx.world)).toEqual({ ok: true, violations: [] });
  expect(app.ctx.world.orders.size).toBeGreaterThan(0);
  console.log(
    `fuzz: ${sent} requests (${app.ctx.world.orders.size} orders placed), seed ${SEED} (FUZZ_SEED=${SEED} replays it), ${Math.round((Date.now() - started) / 100) / 10} s`,
  );
  expect(sent).toBeGreaterThanOrEqual(RUNS * BATCH);
}, 180_000);
