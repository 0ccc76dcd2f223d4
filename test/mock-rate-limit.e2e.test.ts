/**
 * `mkt mock serve` throttles by default, as the service does (issue 41, item 1), spawned as a user runs
 * it: a burst of listings requests on one token meets the service's 429 with its body and Retry-After, and
 * after that wait the next is answered; `--rate-limit off` never throttles; a bad spec is exit 2 naming
 * what was wrong. Bounded in count; no timing is asserted.
 */
import { afterEach, expect, test } from 'vitest';
import { runMkt } from './helpers/cli.js';
import { aliceToken, serveMock, type ServedMock } from './helpers/serve.js';

const children: ServedMock[] = [];
afterEach(async () => {
  for (const c of children.splice(0))
    if (c.child.exitCode === null && c.child.signalCode === null) {
      c.child.kill('SIGKILL');
      await c.exited;
    }
});

/** A served mock that is stopped after the test. */
async function serve(args: string[]): Promise<ServedMock> {
  const m = await serveMock(['--listings', '20', '--history', 'none', '--frozen', '--auto-approve', 'alice', ...args]);
  children.push(m);
  return m;
}

/** Bursts of 30 listings requests at once, at most `bursts` of them, until one is throttled; every answer seen. */
async function burst(origin: string, token: string, bursts: number): Promise<Response[]> {
  const seen: Response[] = [];
  for (let i = 0; i < bursts && !seen.some((r) => r.status === 429); i++) {
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        fetch(`${origin}/listingsvc/v2/listings/?limit=1`, { headers: { authorization: `Bearer ${token}` } }),
      ),
    );
    seen.push(...answers);
  }
  return seen;
}

test('by default a burst on one token meets the service 429 with its body and Retry-After; after it the next is answered', async () => {
  const m = await serve([]);
  expect(m.banner).toMatch(/rate limits: listings 20\/s, orders 10\/s, account 20\/s, oauth 10\/s per client token/);
  const state = (await (await fetch(`${m.origin}/__mock/state`)).json()) as { rate_limit: { enabled: boolean } };
  expect(state.rate_limit.enabled).toBe(true);
  const token = await aliceToken(m.origin);
  const seen = await burst(m.origin, token, 10);
  const refused = seen.find((r) => r.status === 429);
  expect(refused).toBeDefined();
  expect(seen.filter((r) => r.status !== 429).every((r) => r.status === 200)).toBe(true);
  const body = (await refused!.json()) as { timestamp: string; errors: { code: string; message: string }[] };
  expect(body.errors).toEqual([
    { code: 'too_many_requests', message: 'The request limit has been exceeded - you are temporarily throttled' },
  ]);
  expect(Number.isFinite(Date.parse(body.timestamp))).toBe(true);
  const wait = Number(refused!.headers.get('retry-after'));
  expect(Number.isInteger(wait) && wait >= 1).toBe(true);
  // A client that honours Retry-After is answered.
  await new Promise((r) => setTimeout(r, wait * 1000));
  const next = await fetch(`${m.origin}/listingsvc/v2/listings/?limit=1`, { headers: { authorization: `Bearer ${token}` } });
  expect(next.status).toBe(200);
  // Admin routes are never throttled, even right after a burst.
  await burst(m.origin, token, 2);
  for (let i = 0; i < 40; i++) expect((await fetch(`${m.origin}/__mock/rate-limit`)).status).toBe(200);
});

test('--rate-limit off never throttles, and says so in the state and the banner', async () => {
  const m = await serve(['--rate-limit', 'off']);
  expect(m.banner).toContain('rate limits: off');
  const token = await aliceToken(m.origin);
  const seen = await burst(m.origin, token, 3);
  expect(seen).toHaveLength(90);
  expect(seen.every((r) => r.status === 200)).toBe(true);
  const state = (await (await fetch(`${m.origin}/__mock/state`)).json()) as { rate_limit: { enabled: boolean } };
  expect(state.rate_limit.enabled).toBe(false);
});

test('a bad --rate-limit is exit 2 naming the flag and what was wrong, before anything listens', async () => {
  for (const [spec, says] of [
    ['pages=3', /--rate-limit "pages=3": unknown group 'pages'; groups: listings, orders, account, oauth/],
    ['listings=0', /--rate-limit "listings=0": listings: a limit must be a whole number .*got '0'/],
    ['fast', /--rate-limit "fast": "fast" is not GROUP=N/],
  ] as const) {
    const r = await runMkt(['mock', 'serve', '--port', '0', '--rate-limit', spec]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(says);
    expect(r.stdout).not.toContain('listening');
  }
});
