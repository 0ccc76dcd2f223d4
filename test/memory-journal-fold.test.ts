/**
 * The memory journal keeps what it knows folded and catches it up with the entries appended since
 * (src/orders/memory-journal.ts): after any entries, appended or pushed, read at any points, its batches, outcomes and
 * holds are those a fold of every entry gives, and what it answered before is left as it was answered.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { JournalBase, type JournalEntry } from '../src/orders/journal.js';
import { MemoryJournal } from '../src/orders/memory-journal.js';

/** The journal's logic over a list, folded whole at each read: what the memory journal answered before it kept a fold. */
class WholeFold extends JournalBase {
  constructor(private readonly list: readonly JournalEntry[]) {
    super();
  }
  append(): void {
    throw new Error('read only');
  }
  entries(): JournalEntry[] {
    return [...this.list];
  }
}

const MARKETS = [
  { key: 'acct@http://a', account: 'acct' },
  { key: 'acct@http://b', account: 'acct' },
];
const batchId = fc.constantFrom('b1', 'b2', 'b3', 'b4');
const orderId = fc.constantFrom('o1', 'o2', 'o3');
const listing = fc.integer({ min: 1, max: 6 });
const at = fc.constantFrom('2026-01-05T00:00:00.000Z', '2026-01-06T00:00:00.000Z');

const entry: fc.Arbitrary<JournalEntry> = fc.oneof(
  fc.record({
    t: fc.constant('intent' as const),
    batch: batchId,
    at,
    base_url: fc.constantFrom('http://a', 'http://b'),
    // An entry of an older version has no key: read as this account's under its address.
    market: fc.option(fc.constantFrom(...MARKETS.map((m) => m.key)), { nil: undefined }),
    bids: fc.array(fc.record({ listing_id: listing, bid_amount: fc.constant(25) }), { maxLength: 3 }),
    settle_ms: fc.option(fc.constant(5000), { nil: undefined }),
  }),
  fc.record({ t: fc.constant('accepted' as const), batch: batchId, at, order_id: orderId }),
  fc.record({ t: fc.constant('rejected' as const), batch: batchId, at, status: fc.constant(400) }),
  fc.record({ t: fc.constant('lost' as const), batch: batchId, at, error: fc.constant('timeout') }),
  fc.record({ t: fc.constant('unsent' as const), batch: batchId, at, error: fc.constant('refused') }),
  fc.record({ t: fc.constant('reconciled' as const), batch: batchId, at, order_id: fc.option(orderId, { nil: null }) }),
  fc.record({
    t: fc.constant('outcome' as const),
    at,
    order_id: orderId,
    bids: fc.array(fc.record({ listing_id: listing, bid_status: fc.constantFrom('PENDING', 'INVESTED', 'EXPIRED') }), { maxLength: 3 }),
  }),
);

/** One step: an entry appended, or pushed onto the list (as other-addresses.ts fills one), or replaced, or a read of one kind. */
const step = fc.oneof(
  { weight: 4, arbitrary: fc.record({ add: entry, push: fc.boolean() }) },
  // An entry replaced in place (as a test of the desk splices one): the fold starts again.
  { weight: 1, arbitrary: fc.record({ replace: entry, at: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ read: fc.constantFrom('holds', 'batches', 'all', 'outcomes' as const), market: fc.nat(1) }) },
);

describe('the memory journal, folded as it grows', () => {
  test('answers what a whole fold answers after any steps, and leaves its earlier answers as they were', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const journal = new MemoryJournal();
        const answered: { got: unknown; copy: unknown }[] = [];
        for (const s of steps) {
          if ('replace' in s) {
            if (journal.list.length > 0) journal.list.splice(s.at % journal.list.length, 1, s.replace);
            continue;
          }
          if ('add' in s) {
            if (s.push) journal.list.push(s.add);
            else journal.append(s.add);
            continue;
          }
          const whole = new WholeFold(journal.list);
          const market = MARKETS[s.market]!;
          const [got, want] =
            s.read === 'holds'
              ? [journal.holds(market), whole.holds(market)]
              : s.read === 'batches'
                ? [journal.batches(market), whole.batches(market)]
                : s.read === 'all'
                  ? [journal.allBatches(market.account), whole.allBatches(market.account)]
                  : [journal.outcomes(), whole.outcomes()];
          expect(got, s.read).toEqual(want);
          answered.push({ got, copy: structuredClone(got) });
        }
        for (const a of answered) expect(a.got).toEqual(a.copy);
      }),
      { numRuns: 400, seed: 20261129 },
    );
  });

  test("a holds answer is the caller's own: what it adds is not in the next", () => {
    const journal = new MemoryJournal();
    journal.append({
      t: 'intent',
      batch: 'b1',
      at: '2026-01-05T00:00:00.000Z',
      base_url: 'http://a',
      market: MARKETS[0]!.key,
      bids: [{ listing_id: 1, bid_amount: 25 }],
    });
    const first = journal.holds(MARKETS[0]!);
    first.set(9, { listingId: 9, state: 'unknown', orderId: null, batch: 'x' });
    expect([...journal.holds(MARKETS[0]!).keys()]).toEqual([1]);
  });
});
