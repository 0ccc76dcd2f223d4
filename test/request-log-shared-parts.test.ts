/**
 * The request log shares an entry's parts with the entry before when they are equal (the same path, query,
 * headers and live tokens a client sends again and again), and refills a slot's entry in place while it is
 * still as recorded: so a loaded mock's entries hold nothing new for a collection to copy. What any entry
 * shows must be what a request log that saw only that request would show: whatever the headers' order,
 * repeated values, escaped queries, the request log's own route, tokens coming and going, reads between records (a read
 * entry is never refilled) and clears.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RequestLog, type RequestLogHost, type Seen } from '../mock-server/request-log/request-log.js';

type Live = Map<string, { kind: string; accountId: string | null }>;

/** A host whose live tokens and few secrets the test sets. */
function hostWith(live: Live, few: string[]): RequestLogHost {
  return {
    virtualNow: () => 0,
    tokens: live,
    gatherFew: (into, from) => {
      let n = from;
      for (const s of few) into[n++] = s;
      return n;
    },
  };
}

const RUNS = ['plaintokenvalue1', 'plaintokenvalue2'];
const headerValue = fc.constantFrom('bearer plaintokenvalue1', 'bearer plaintokenvalue2', 'curl/8', 'fewsecretvalue9 here');
/** Node's header object: names in an order, a value or a repeated header's list. */
const nodeHeaders = fc
  .uniqueArray(fc.constantFrom('authorization', 'user-agent', 'x-note', 'set-cookie'), { maxLength: 4 })
  .chain((names) =>
    fc
      .tuple(...names.map((n) => (n === 'set-cookie' ? fc.array(headerValue, { minLength: 1, maxLength: 2 }) : headerValue)))
      .map((values) => {
        const h: Record<string, string | string[]> = {};
        names.forEach((n, i) => (h[n] = values[i]!));
        return h;
      }),
  );
const headers = fc.oneof(
  nodeHeaders,
  nodeHeaders.map((h) => {
    const f = new Headers();
    for (const [k, v] of Object.entries(h)) for (const x of Array.isArray(v) ? v : [v]) f.append(k, x);
    return f;
  }),
);
const step = fc.record({
  path: fc.constantFrom('/v1/x', '/v1/x/plaintokenvalue1', '/v1/y', '/__mock/requests'),
  search: fc.constantFrom(
    '',
    '?limit=25',
    '?note=plaintokenvalue2',
    '?note=fewsecretvalue9',
    '?note=%70laintokenvalue2',
    '?a+b=fewsecretvalue9',
  ),
  headers,
  live: fc.subarray(RUNS),
  few: fc.subarray(['fewsecretvalue9']),
  then: fc.constantFrom('none', 'none', 'read', 'clear'),
});

/** A copy of what was seen, so that a request log that keeps the object cannot be told apart by identity. */
function seenOf(s: { path: string; search: string; headers: Seen['headers'] }): Seen {
  const h = s.headers instanceof Headers ? new Headers(s.headers) : structuredClone(s.headers);
  return { method: 'GET', path: `${s.path}`, search: `${s.search}`, headers: h, bodyText: null, status: 200 };
}

describe('the request log’s shared parts', () => {
  it('show every entry as a request log that saw only its request would', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 4 }), (steps, size) => {
        const live: Live = new Map();
        const few: string[] = [];
        const log = new RequestLog(hostWith(live, few), size, () => 0);
        // Each entry as a request log of its own shows it, read at the end with the same live tokens.
        const expected: { id: number; shown: unknown }[] = [];
        const fresh: RequestLog[] = [];
        for (const s of steps) {
          live.clear();
          for (const r of s.live) live.set(r, { kind: 'access', accountId: null });
          few.splice(0, few.length, ...s.few);
          log.record(log.arrive(undefined), seenOf(s));
          const own = new RequestLog(hostWith(live, few), 1, () => 0);
          own.record(own.arrive(undefined), seenOf(s));
          // The request log's own route is not recorded (no id is given to it): list(0) counts without reading.
          if (own.list(0).total > 0) fresh.push(own);
          // A read redacts what it shows with what is known then: every request log is read at the same moment.
          if (s.then === 'read') for (const l of [log, ...fresh]) l.list(size);
          if (s.then === 'clear') log.clear();
        }
        live.clear();
        few.length = 0;
        const shown = log.list(size).result;
        for (const e of shown) {
          const own = fresh[e.id - 1]!.list(1).result[0]!;
          expected.push({ id: e.id, shown: { ...own, id: e.id, duration_ms: 0 } });
        }
        // Durations are the real clock's: not what is compared.
        expect(shown.map((e) => ({ id: e.id, shown: { ...e, duration_ms: 0 } }))).toEqual(expected);
      }),
      { numRuns: 600 },
    );
  });
});

describe('a loaded request log', () => {
  it('keeps one copy of the parts its requests repeat, and refills the entries it has not shown', () => {
    const log = new RequestLog(hostWith(new Map(), []), 4, () => 0);
    const ring = (log as unknown as { ring: { path: string; headers: unknown; tokens: unknown }[] }).ring;
    const request = (): Seen => ({
      method: 'GET',
      path: ['/v1', 'x'].join('/'),
      search: '?limit=25',
      headers: { host: '127.0.0.1:1', authorization: 'bearer abc' },
      bodyText: null,
      status: 200,
    });
    for (let i = 0; i < 4; i++) log.record(log.arrive(undefined), request());
    const first = ring[0]!;
    // Every entry holds the first request's headers and path: what each later request made of them died young.
    expect(ring.every((e) => e.headers === first.headers && e.path === first.path)).toBe(true);
    // The ring's entries are refilled in place once it wraps, unless they were shown.
    log.list(1);
    const [unread, shown] = [ring[1], ring[3]];
    for (let i = 0; i < 4; i++) log.record(log.arrive(undefined), request());
    expect(ring[1]).toBe(unread);
    expect(ring[3]).not.toBe(shown);
  });
});

describe('a request repeated while its tokens come and go', () => {
  it("shows each token hidden in exactly the entries recorded while it was live, a body's too", () => {
    // Each time: whether the token of the path and a header is live, whether the body's is, whether there is a body.
    const turn = fc.record({ pathToken: fc.boolean(), bodyToken: fc.boolean(), body: fc.boolean() });
    fc.assert(
      fc.property(fc.array(turn, { minLength: 2, maxLength: 12 }), fc.boolean(), (turns, asHeaders) => {
        const live: Live = new Map();
        const log = new RequestLog(hostWith(live, []), 16, () => 0);
        // The same path, query and headers each time (copies of their own: the parts the request log shares with the
        // entry before), the token in the path and a header (an Authorization header's value is hidden always); a body,
        // when there is one, holds another token.
        const request = (body: boolean): Seen => {
          const headers = { 'x-ref': 'plaintokenvalue1', 'x-note': 'plaintokenvalue2' };
          return {
            method: body ? 'POST' : 'GET',
            path: '/v1/x/plaintokenvalue1',
            search: '?limit=25',
            headers: asHeaders ? new Headers(headers) : { ...headers },
            bodyText: body ? '{"note":"plaintokenvalue3"}' : null,
            status: 200,
          };
        };
        for (const t of turns) {
          live.clear();
          if (t.pathToken) live.set('plaintokenvalue1', { kind: 'access', accountId: null });
          if (t.bodyToken) live.set('plaintokenvalue3', { kind: 'access', accountId: null });
          log.record(log.arrive(undefined), request(t.body));
        }
        // Read once no token is live: only what each entry noted when recorded can hide one.
        live.clear();
        const shown = log.list(16).result.reverse();
        expect(shown.map((e) => e.path.includes('plaintokenvalue1'))).toEqual(turns.map((t) => !t.pathToken));
        expect(shown.map((e) => e.headers['x-ref'])).toEqual(turns.map((t) => (t.pathToken ? '***' : 'plaintokenvalue1')));
        expect(shown.map((e) => e.body)).toEqual(turns.map((t) => (t.body ? { note: t.bodyToken ? '***' : 'plaintokenvalue3' } : null)));
        // A run that was never a token stays as sent.
        for (const e of shown) expect(e.headers['x-note']).toBe('plaintokenvalue2');
      }),
      { numRuns: 300 },
    );
  });
});
