/** Shared set-up of the engine and orders tests: a frozen mock, tokens for any seeded account, JSON calls. */
import type { MockApp } from '../mock-server/app.js';
import type { MockOptions } from '../mock-server/context.js';
import { cancelledAtOrigination } from '../mock-server/engine/market.js';
import { READ_ONLY_SCOPES, READ_WRITE_SCOPES } from '../src/contract/enums.js';
import { testMockApp } from './helpers/mock.js';

/** A fixed virtual start for every test world. */
export const START = Date.parse('2026-03-02T12:00:00Z');
/** An hour and a day in milliseconds. */
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** A frozen mock world with a fixed seed and start. */
export function makeApp(opts: Partial<MockOptions> = {}): MockApp {
  return testMockApp({ seed: 7, listings: 300, start: START, frozen: true, admin: true, ...opts }, () => START);
}

/** Puts an access token for `accountId` into the world (read/write grant unless `readOnly`). */
export function tokenFor(app: MockApp, accountId: string, readOnly = false): string {
  const value = `test-${accountId}-${readOnly ? 'ro' : 'rw'}`;
  app.ctx.world.tokens.set(value, {
    value,
    kind: 'access',
    clientId: 'mkt-demo',
    accountId,
    scopes: [...(readOnly ? READ_ONLY_SCOPES : READ_WRITE_SCOPES)],
    expiresAt: START + 3650 * DAY,
    authKey: 'test',
  });
  return value;
}

/** A JSON answer. */
export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** Calls the app in-process: `path` under http://mock.test, `body` sent as JSON (a string as is). */
export async function call(
  app: MockApp,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.token !== undefined) headers.authorization = `bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await app.handle(new Request(`http://mock.test${path}`, { method, headers, body }));
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** Submits an order as `token`. */
export function order(app: MockApp, token: string, bids: { listing_id: number; bid_amount: number }[]): Promise<Answer> {
  return call(app, 'POST', '/v1/orders', { token, body: { bid_requests: bids } });
}

/**
 * Active fractional listings nobody special owns, oldest first (numbered as created; older than `minAgeMs`: no 10% rule),
 * none the operator will cancel, each with more than `minLeftMs` to run (a clock move of the test's does not end it).
 */
export function plainListings(app: MockApp, minAgeMs = 2 * DAY, minLeftMs = 2 * DAY) {
  const now = app.ctx.clock.now();
  return app.ctx.world.listings.filter(
    (l) =>
      l.listing_status === 2
      && l.investment_typeid === 1
      && !l.borrowerUserId
      && !l.mockRole
      && !cancelledAtOrigination(app.ctx.world, l)
      && now - l.listing_creation_date >= minAgeMs
      && l.listing_end_date - now > minLeftMs,
  );
}

/**
 * A real token for alice-1, through the OAuth flow as a client goes through it (the consent page with
 * autoApprove, then the token endpoint): it is in the operation log, where a token put straight into the
 * world would not be, and a reset forgets it.
 */
export async function aliceToken(app: MockApp): Promise<string> {
  const redirect = await app.handle(new Request('http://mock.test/oauth?client_id=mkt-demo&response_type=auth_key&state=s'));
  const key = new URL(redirect.headers.get('location')!).searchParams.get('auth_key')!;
  const form = new URLSearchParams({
    grant_type: 'authorization_key',
    client_id: 'mkt-demo',
    client_secret: 'mkt-demo-secret',
    auth_key: key,
  });
  const res = await app.handle(
    new Request('http://mock.test/v1/security/oauth/token', {
      method: 'POST',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
  );
  return ((await res.json()) as { access_token: string }).access_token;
}
