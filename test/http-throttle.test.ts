import { createServer, type IncomingMessage } from 'node:http';
import fc from 'fast-check';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ThrottledError } from '../src/api/errors.js';
import { HttpClient, MAX_THROTTLED_RESENDS, retryAfterMs, THROTTLE_WAIT_BOUND_MS } from '../src/api/http.js';
import { throttledBody } from '../src/contract/rate-limits.js';
import { EXIT } from '../src/errors.js';

/** A loopback server answering 429 (the service's throttled body, `Retry-After: retryAfter`) to the first `throttled` requests, then 200. */
async function throttling(throttled: number, retryAfter: string | null) {
  const seen: { method: string; body: string }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', body });
      if (seen.length <= throttled) {
        res.writeHead(429, { 'content-type': 'application/json', ...(retryAfter === null ? {} : { 'retry-after': retryAfter }) });
        res.end(JSON.stringify(throttledBody(new Date(0))));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ order_id: 'o-1' }));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/orders/`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Virtual time for one request at a time: a sleep moves the clock on at once, and is recorded. */
function steppedClock() {
  let t = 1_700_000_000_000;
  const waits: number[] = [];
  return {
    waits,
    now: () => t,
    sleep: async (ms: number) => {
      waits.push(ms);
      t += ms;
    },
  };
}

describe('the HTTP client under throttling', () => {
  it('sends a throttled order POST again after the wait asked, and returns its answer: the 429 placed nothing', async () => {
    const s = await throttling(2, '3');
    const clock = steppedClock();
    const client = new HttpClient({ clock, random: () => 0.5 });
    const res = await client.send({
      method: 'POST',
      url: s.url,
      json: { bid_requests: [{ listing_id: 1, bid_amount: 25 }] },
      group: 'orders',
    });
    expect(res.status).toBe(200);
    expect(s.seen.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
    expect(new Set(s.seen.map((r) => r.body)).size).toBe(1);
    // The pacer waited what each 429 asked (the first request of a group goes at once).
    expect(clock.waits).toEqual([3000, 3000]);
    await client.close();
    await s.close();
  });

  it('never sends a POST again after a 5xx: that answer may come after the order was placed', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end('{}');
    });
    let hits = 0;
    server.on('request', () => hits++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const client = new HttpClient({ clock: steppedClock() });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/orders/`;
    expect((await client.send({ method: 'POST', url, json: {}, group: 'orders' })).status).toBe(503);
    expect(hits).toBe(1);
    await client.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('fails with exit 5 once the waits asked would pass the bound, naming the group, its limit and the wait', async () => {
    const s = await throttling(1000, '7');
    const clock = steppedClock();
    const client = new HttpClient({ clock, random: () => 0.5 });
    const err = await client
      .send({ method: 'GET', url: s.url.replace('/v1/orders/', '/listingsvc/v2/listings/'), group: 'listings' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ThrottledError);
    const t = err as ThrottledError;
    expect(t.exitCode).toBe(EXIT.UNREACHABLE);
    expect(t.group).toBe('listings');
    expect(t.askedMs).toBe(7000);
    // 8 waits of 7 s (56 s); a ninth would make 63 s, past 60 s: the ninth answer ends it.
    expect(clock.waits).toEqual(Array<number>(8).fill(7000));
    expect(s.seen).toHaveLength(9);
    expect(t.message).toBe(
      'GET /listingsvc/v2/listings/ failed (HTTP 429): too_many_requests: The request limit has been exceeded - you are temporarily throttled; '
        + "the marketplace asked to wait 7 s more after 56 s, past mkt's bound of 60 s of waiting for one request (listings group: 20 requests a second)",
    );
    expect(clock.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(THROTTLE_WAIT_BOUND_MS);
    await client.close();
    await s.close();
  });

  it('does not wait at all when the first Retry-After asks more than the bound, nor hold the group after', async () => {
    const s = await throttling(1, '120');
    const clock = steppedClock();
    const client = new HttpClient({ clock });
    const err = (await client.send({ method: 'POST', url: s.url, json: {}, group: 'orders' }).catch((e: unknown) => e)) as ThrottledError;
    expect(err.message).toContain(
      "the marketplace asked to wait 120 s, past mkt's bound of 60 s of waiting for one request (orders group: 10 requests a second)",
    );
    expect(clock.waits).toEqual([]);
    expect(s.seen).toHaveLength(1);
    // A run that goes on (a later read of the group) is not made to sit out the 120 s: it goes at the group's pace.
    expect((await client.send({ method: 'GET', url: s.url, group: 'orders' })).status).toBe(200);
    expect(clock.waits).toHaveLength(1);
    expect(clock.waits[0]).toBeCloseTo(1000 / 9, 0);
    await client.close();
    await s.close();
  });

  it('ends a storm of Retry-After: 0 after a bounded number of sends, slowing the group meanwhile', async () => {
    const s = await throttling(1000, '0');
    const clock = steppedClock();
    const client = new HttpClient({ clock });
    const err = (await client.send({ method: 'GET', url: s.url, group: 'account' }).catch((e: unknown) => e)) as ThrottledError;
    expect(err).toBeInstanceOf(ThrottledError);
    expect(err.message).toContain(`throttled ${MAX_THROTTLED_RESENDS + 1} times in a row (account group: 20 requests a second)`);
    expect(s.seen).toHaveLength(MAX_THROTTLED_RESENDS + 1);
    // Each 429 halved the group's pace: the first resend went at the full pace's spacing (the service asked
    // no wait), every later one at least twice as far apart, and the group is still far below full pace.
    expect(clock.waits).toHaveLength(MAX_THROTTLED_RESENDS);
    expect(clock.waits[0]).toBeCloseTo(1000 / 19, 0);
    for (const w of clock.waits.slice(1)) expect(w).toBeGreaterThan(2 * (1000 / 19) - 1);
    expect(client.pacer.rateOf('account')).toBeLessThan(19 / 4);
    await client.close();
    await s.close();
  });

  it('backs off without a Retry-After, and returns a 429 as it is when told not to retry', async () => {
    const s = await throttling(1, null);
    const clock = steppedClock();
    const client = new HttpClient({ clock, random: () => 1 });
    expect((await client.send({ method: 'GET', url: s.url })).status).toBe(200);
    expect(clock.waits).toEqual([250]);
    await client.close();
    const s2 = await throttling(1, '1');
    const once = new HttpClient({ clock, maxRetries: 0 });
    expect((await once.send({ method: 'GET', url: s2.url, group: 'listings' })).status).toBe(429);
    expect(s2.seen).toHaveLength(1);
    await once.close();
    await s.close();
    await s2.close();
  });

  it('reads any Retry-After as a wait of zero or more, or none: seconds and HTTP dates as asked', () => {
    const now = 1_700_000_000_000;
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const ms = retryAfterMs(value, now);
        expect(ms === undefined || (Number.isFinite(ms) && ms >= 0)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.nat(86_400), (secs) => {
        expect(retryAfterMs(String(secs), now)).toBe(secs * 1000);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 86_400 }), (secs) => {
        expect(retryAfterMs(new Date(now + secs * 1000).toUTCString(), now)).toBe(secs * 1000);
      }),
    );
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs(' ', now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});
