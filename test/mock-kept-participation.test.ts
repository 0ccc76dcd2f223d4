/**
 * The listings search keeps a caller's participation between requests (kept-participation.ts). Whatever
 * happens to the world in between (orders, processing, the clock, a listing withdrawn), every row it
 * serves must show the participation worked out afresh from the world.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { participationOf } from '../mock-server/world/world-index.js';
import { issueTestToken, TEST_START, testMockApp } from './helpers/mock.js';

let app: MockApp;
let token: string;
beforeAll(() => {
  app = testMockApp({ seed: 5, listings: 150, frozen: true, start: TEST_START });
  // Lives past every clock move of the test.
  token = issueTestToken(app, 'alice-1', undefined, 1000 * 86_400_000);
});
afterAll(async () => {
  await app.close?.();
});

const ORIGIN = 'http://127.0.0.1:1';

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = { authorization: `bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await app.handle(
    new Request(`${ORIGIN}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
  return { status: res.status, json: await res.json() };
}

type Row = { listing_number: number; amount_participation: number };

/** Serves a page and checks every row's participation against a fresh reckoning; returns the rows. */
async function checkedPage(query: string): Promise<Row[]> {
  const { status, json } = await call('GET', `/listingsvc/v2/listings?${query}`);
  expect(status).toBe(200);
  const rows = (json as { result: Row[] }).result;
  const fresh = participationOf(app.ctx.world, 'alice-1');
  expect(rows.map((r) => [r.listing_number, r.amount_participation])).toEqual(
    rows.map((r) => [r.listing_number, fresh.get(r.listing_number) ?? 0]),
  );
  return rows;
}

const QUERIES = ['limit=30', 'limit=30&sort_by=listing_number', 'invested=true&limit=50', 'biddable=false&limit=50'];

const step = fc.oneof(
  fc.record({ kind: fc.constant('bid' as const), pick: fc.nat(29), amount: fc.constantFrom(25, 50, 137.5) }),
  fc.constant({ kind: 'process' as const }),
  fc.record({ kind: fc.constant('clock' as const), advance: fc.constantFrom('1h', '6h', '2d') }),
  fc.record({ kind: fc.constant('withdraw' as const), pick: fc.nat(29) }),
  fc.record({ kind: fc.constant('read' as const), query: fc.constantFrom(...QUERIES) }),
);

describe('kept participation', () => {
  it('serves the participation of the world as it is now, after any sequence of changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        for (const s of steps) {
          // Every step is followed by reads, so a kept value from before the step would be served if it were stale.
          const page = await checkedPage('limit=30');
          const listing = (pick: number) => page[pick % Math.max(1, page.length)]?.listing_number;
          if (s.kind === 'bid' && listing(s.pick) !== undefined) {
            await call('POST', '/v1/orders', { bid_requests: [{ listing_id: listing(s.pick), bid_amount: s.amount }] });
          } else if (s.kind === 'process') await call('POST', '/__mock/process');
          else if (s.kind === 'clock') await call('POST', '/__mock/clock', { advance: s.advance });
          else if (s.kind === 'withdraw' && listing(s.pick) !== undefined)
            await call('POST', `/__mock/listings/${listing(s.pick)}/withdraw`);
          for (const q of s.kind === 'read' ? [s.query] : QUERIES) await checkedPage(q);
        }
      }),
      { numRuns: 25, seed: 20261123 },
    );
  });

  it('shows a bid just processed in the participation of its listing', async () => {
    const [first] = await checkedPage('limit=5');
    const before = first!.amount_participation;
    expect((await call('POST', '/v1/orders', { bid_requests: [{ listing_id: first!.listing_number, bid_amount: 25 }] })).status).toBe(200);
    // A bid counts once processing has placed its amount.
    await call('POST', '/__mock/process');
    const after = (await checkedPage('limit=5&sort_by=listing_number'))
      .concat(await checkedPage('limit=5'))
      .find((r) => r.listing_number === first!.listing_number);
    expect(after?.amount_participation).toBeGreaterThan(before);
  });
});
