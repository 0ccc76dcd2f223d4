import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../src/api/client.js';
import { requestedToday } from '../src/invest/market.js';
import { ordersStillCounting, settledBefore } from '../src/invest/simulate-orders.js';
import type { SeenOrder } from '../src/invest/run.js';

const DAY = 86_400_000;
const START = Date.parse('2026-01-05T00:00:00Z');
const STATUSES = ['PENDING', 'INVESTED', 'EXPIRED', 'CANCELLED'] as const;

interface FakeOrder {
  order_id: string;
  order_date: string;
  bid_requests: { listing_id: number; bid_amount: number; bid_status: string }[];
}

const dateText = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' +0000');

/** A client whose GET /orders/ pages `list()` (its answer read at each call), and the offsets it was asked for. */
function fakeClient(list: () => FakeOrder[]) {
  const offsets: number[] = [];
  const client = {
    call: async (c: { query: URLSearchParams; decode: (data: unknown, at: string) => unknown }) => {
      const offset = Number(c.query.get('offset'));
      const limit = Number(c.query.get('limit'));
      offsets.push(offset);
      const all = list();
      const result = structuredClone(all.slice(offset, offset + limit));
      return c.decode({ result, result_count: result.length, total_count: all.length }, 'answer');
    },
  } as unknown as ApiClient;
  return { client, offsets };
}

/** What a run takes from the orders: the PENDING bids (by listing) and the money asked for today. */
function counted(orders: Iterable<SeenOrder>, now: number) {
  const all = [...orders];
  const pending = all
    .flatMap((o) => (o.bid_requests ?? []).filter((b) => b.bid_status === 'PENDING').map((b) => Number(b.listing_id)))
    .sort((a, b) => a - b);
  return { pending, today: requestedToday(all, now) };
}

async function collect(it: AsyncIterable<SeenOrder>): Promise<SeenOrder[]> {
  const out: SeenOrder[] = [];
  for await (const o of it) out.push(o);
  return out;
}

describe("a simulated day's orders", () => {
  it('count what every order counts, day after day, while orders come and their bids settle; read from the first still counting', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Per day: orders placed (0-3, ~40 bids in all over 250 orders), and which earlier bids settle.
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.array(fc.nat(), { maxLength: 8 })), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 24 * 60 }),
        async (days, minuteOfDay) => {
          const book: FakeOrder[] = [];
          const { client, offsets } = fakeClient(() => book);
          let now = START;
          const reads = ordersStillCounting(client, () => now);
          let n = 0;
          for (const [placed, settle] of days) {
            for (let i = 0; i < placed; i++) {
              n++;
              book.push({
                order_id: `o${n}`,
                order_date: dateText(now),
                bid_requests: [1, 2].map((k) => ({ listing_id: n * 10 + k, bid_amount: 25, bid_status: 'PENDING' })),
              });
            }
            const bids = book.flatMap((o) => o.bid_requests);
            for (const s of settle) if (bids.length > 0) bids[s % bids.length]!.bid_status = STATUSES[1 + (s % 3)]!;
            const before = offsets.length;
            const seen = await collect(reads());
            expect(counted(seen, now)).toEqual(counted(book, now));
            // It read from the first order still counting at the end of the day before, or from 0.
            const first = offsets[before]!;
            expect(book.slice(0, first).every((o) => settledBefore(o, now))).toBe(true);
            now += DAY - 60_000 + minuteOfDay * 1_000;
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads every order again when one is not where it was (the list does not keep its places)', async () => {
    let book: FakeOrder[] = Array.from({ length: 150 }, (_, i) => ({
      order_id: `o${i + 1}`,
      order_date: dateText(START),
      bid_requests: [{ listing_id: i + 1, bid_amount: 25, bid_status: i < 140 ? 'INVESTED' : 'PENDING' }],
    }));
    const { client, offsets } = fakeClient(() => book);
    const now = START + 2 * DAY;
    const reads = ordersStillCounting(client, () => now);
    await collect(reads());
    expect(offsets).toEqual([0, 100]);
    // Newest first from now on: the order at place 140 is another one.
    book = [...book].reverse();
    const seen = await collect(reads());
    expect(offsets).toEqual([0, 100, 140, 0, 100]);
    expect(counted(seen, now)).toEqual(counted(book, now));
  });
});
