import { describe, expect, it } from 'vitest';
import { candidateFromListing, requestedToday, type Candidate, type Market } from '../src/invest/market.js';
import { canStillUse, plan, type Decision } from '../src/invest/planner.js';
import type { Rule, Strategy } from '../src/invest/strategy.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const DAY = 86_400_000;

/** A fractional, not partial-funding listing of 5,000.00 created two days ago, rated A. */
function listing(n: number, over: Partial<Candidate> = {}): Candidate {
  return {
    listing_number: n,
    platform_rating: 'A',
    listing_amount: 5000,
    amount_remaining: 4000,
    partial_funding_indicator: false,
    created_at: NOW - 2 * DAY,
    whole_loan: false,
    ...over,
  };
}

function market(candidates: Candidate[][], over: Partial<Market> = {}): Market {
  return { now: NOW, cash: 10_000, principal_by_rating: {}, requested_today: 0, taken: new Map(), candidates, ...over };
}

const rule = (name: string, over: Partial<Rule> = {}): Rule => ({ name, filters: {}, amount: 50, ...over });

/** `listing:action:amount:reason` per decision, for compact expectations. */
const brief = (ds: Decision[]): string[] => ds.map((d) => `${d.listing_id}:${d.rule}:${d.action}:${d.amount ?? '-'}:${d.reason}`);

describe('planner', () => {
  it('bids the rule amount on each candidate when nothing limits it', () => {
    const ds = plan({ rules: [rule('r')] }, market([[listing(1), listing(2)]]));
    expect(brief(ds)).toEqual(['1:r:bid:50:ok', '2:r:bid:50:ok']);
  });

  it('goes rule by rule: a listing chosen by an earlier rule is not chosen twice, one seen twice in a rule is a duplicate', () => {
    const s: Strategy = { rules: [rule('first', { amount: 30 }), rule('second', { amount: 70 })] };
    const ds = plan(
      s,
      market([
        [listing(1), listing(2), listing(1)],
        [listing(2), listing(3)],
      ]),
    );
    expect(brief(ds)).toEqual([
      '1:first:bid:30:ok',
      '2:first:bid:30:ok',
      '1:first:skip:-:duplicate',
      '2:second:skip:-:chosen-by-earlier-rule',
      '3:second:bid:70:ok',
    ]);
  });

  it('never chooses a listing held, pending in an open order or in the journal', () => {
    const taken = new Map([
      [1, 'held'],
      [2, 'pending'],
      [3, 'journal'],
    ] as const);
    const ds = plan({ rules: [rule('r')] }, market([[listing(1), listing(2), listing(3), listing(4)]], { taken }));
    expect(brief(ds)).toEqual(['1:r:skip:-:held', '2:r:skip:-:pending', '3:r:skip:-:journal', '4:r:bid:50:ok']);
  });

  it('skips a whole-loan listing as not matching (filter)', () => {
    expect(brief(plan({ rules: [rule('r')] }, market([[listing(1, { whole_loan: true })]])))).toEqual(['1:r:skip:-:filter']);
  });

  it('amount_by_rating: each rating its amount, a rating with no amount is skipped', () => {
    const s: Strategy = { rules: [{ name: 'r', filters: {}, amount_by_rating: { AA: 100, HR: 25 } }] };
    const ds = plan(
      s,
      market([
        [
          listing(1, { platform_rating: 'AA' }),
          listing(2, { platform_rating: 'HR' }),
          listing(3, { platform_rating: 'B' }),
          listing(4, { platform_rating: 'constructor' }),
        ],
      ]),
    );
    expect(brief(ds)).toEqual(['1:r:bid:100:ok', '2:r:bid:25:ok', '3:r:skip:-:no-amount-for-rating', '4:r:skip:-:no-amount-for-rating']);
  });

  it('bids the remainder when less than the amount but at least 25.00 remains, and skips below that', () => {
    const ds = plan(
      { rules: [rule('r', { amount: 100 })] },
      market([
        [
          listing(1, { amount_remaining: 40.37 }),
          listing(2, { amount_remaining: 25 }),
          listing(3, { amount_remaining: 24.99 }),
          listing(4, { amount_remaining: 0 }),
        ],
      ]),
    );
    expect(brief(ds)).toEqual([
      '1:r:bid:40.37:ok',
      '2:r:bid:25:ok',
      '3:r:skip:-:remaining-below-minimum',
      '4:r:skip:-:remaining-below-minimum',
    ]);
  });

  it('the 10% rule: a young partial-funding listing takes at most a tenth of its amount, or is skipped below 25.00', () => {
    const young = { partial_funding_indicator: true, created_at: NOW - DAY + 1 };
    const ds = plan(
      { rules: [rule('r', { amount: 300 })] },
      market([
        [
          listing(1, { ...young, listing_amount: 1000, amount_remaining: 1000 }), // a tenth: 100.00
          listing(2, { ...young, listing_amount: 2000.2, amount_remaining: 2000 }), // a tenth: 200.02, to the cent as the marketplace rounds
          listing(3, { ...young, listing_amount: 249.94, amount_remaining: 249.94 }), // a tenth (24.99) below 25.00
          listing(4, { ...young, created_at: NOW - DAY, listing_amount: 1000 }), // 24 h old: no longer young
          listing(5, { created_at: NOW, listing_amount: 1000 }), // young but not partial funding
        ],
      ]),
    );
    expect(brief(ds)).toEqual(['1:r:bid:100:ok', '2:r:bid:200.02:ok', '3:r:skip:-:ten-percent-rule', '4:r:bid:300:ok', '5:r:bid:300:ok']);
  });

  it('max_listings caps one rule, max_bids_per_run caps them all', () => {
    const s: Strategy = { max_bids_per_run: 3, rules: [rule('a', { max_listings: 2 }), rule('b')] };
    const ds = plan(
      s,
      market([
        [listing(1), listing(2), listing(3)],
        [listing(4), listing(5)],
      ]),
    );
    expect(brief(ds)).toEqual([
      '1:a:bid:50:ok',
      '2:a:bid:50:ok',
      '3:a:skip:-:max_listings',
      '4:b:bid:50:ok',
      '5:b:skip:-:max_bids_per_run',
    ]);
  });

  it('reserve: spends only cash minus the reserve; a bid is skipped whole, a later smaller one may still fit', () => {
    const s: Strategy = { reserve: 100, rules: [rule('r', { amount: 60 })] };
    const ds = plan(s, market([[listing(1), listing(2), listing(3, { amount_remaining: 30 })]], { cash: 200 }));
    expect(brief(ds)).toEqual(['1:r:bid:60:ok', '2:r:skip:60:reserve', '3:r:bid:30:ok']);
  });

  it('without a reserve, cash alone bounds the run (reason reserve: nothing may be kept back below 0)', () => {
    expect(brief(plan({ rules: [rule('r')] }, market([[listing(1), listing(2)]], { cash: 99.99 })))).toEqual([
      '1:r:bid:50:ok',
      '2:r:skip:50:reserve',
    ]);
  });

  it('max_per_run caps this run; max_per_day counts what was already requested today', () => {
    const perRun = plan({ max_per_run: 120, rules: [rule('r')] }, market([[listing(1), listing(2), listing(3)]]));
    expect(brief(perRun)).toEqual(['1:r:bid:50:ok', '2:r:bid:50:ok', '3:r:skip:50:max_per_run']);
    const perDay = plan(
      { max_per_day: 200, rules: [rule('r')] },
      market([[listing(1), listing(2), listing(3)]], { requested_today: 100.01 }),
    );
    expect(brief(perDay)).toEqual(['1:r:bid:50:ok', '2:r:skip:50:max_per_day', '3:r:skip:50:max_per_day']);
  });

  it('rating_share: (held + pending + this run in R) stays at or below the share of the whole after every bid', () => {
    // 1,000.00 held, 100.00 of it in HR: HR may be at most 10%, so 100 + B_HR + a ≤ 0.1 × (1000 + B + a).
    const s: Strategy = { rating_share: { HR: 0.1 }, rules: [{ name: 'r', filters: {}, amount_by_rating: { A: 450, HR: 50 } }] };
    const hr = { platform_rating: 'HR' };
    const ds = plan(
      s,
      market([[listing(1, hr), listing(2), listing(3, hr), listing(4, hr)]], { principal_by_rating: { A: 900, HR: 100 } }),
    );
    // 1: 150/1050 > 10%; 2 raises the whole to 1450; 3: 150/1500 is exactly 10%; 4: 200/1550 > 10%.
    expect(brief(ds)).toEqual(['1:r:skip:50:rating_share', '2:r:bid:450:ok', '3:r:bid:50:ok', '4:r:skip:50:rating_share']);
    // Exactly at the cap is allowed, with no float drift: 0.57 × 10000 cents is 5699.999… in floating point.
    const edge = plan(
      { rating_share: { E: 0.57 }, rules: [rule('r', { amount: 57 })] },
      market([[listing(9, { platform_rating: 'E' })]], { principal_by_rating: { A: 43 } }),
    );
    expect(brief(edge)).toEqual(['9:r:bid:57:ok']);
  });

  it('a rating_share skip names the rating, the share the bid would bring it to and its cap', () => {
    // 100.00 of 1,000.00 held in HR, cap 10%: a 50.00 HR bid would make it 150 of 1,050 (14.29%).
    const s: Strategy = { rating_share: { HR: 0.1 }, rules: [rule('r')] };
    const [d] = plan(s, market([[listing(1, { platform_rating: 'HR' })]], { principal_by_rating: { A: 900, HR: 100 } }));
    expect(d).toMatchObject({ action: 'skip', reason: 'rating_share' });
    expect(d!.detail).toBe('HR: 14.29% of invested and pending principal with this bid, over its 10.00% cap');
    // Just over the cap, two decimals would show it equal to the cap: more are shown. 50.01 of 1,000.00 is 5.001%.
    const close = plan(
      { rating_share: { E: 0.05 }, rules: [rule('r', { amount: 50.01 })] },
      market([[listing(2, { platform_rating: 'E' })]], { principal_by_rating: { A: 949.99 } }),
    );
    expect(close[0]!.detail).toBe('E: 5.0010% of invested and pending principal with this bid, over its 5.00% cap');
    // Only rating_share skips carry a detail.
    const other = plan({ rules: [rule('r')], max_per_run: 60 }, market([[listing(3), listing(4)]]));
    expect(other.map((x) => x.detail)).toEqual([undefined, undefined]);
  });

  it("rating_share counts the account's NA principal as the old loans' N/A, whichever way the strategy spells it", () => {
    // 900.00 held: 100.00 in old loans (the account keys them NA), 50.00 more in N/A (an originated listing so rated).
    const na = { platform_rating: 'N/A' };
    const held = { principal_by_rating: { A: 750, NA: 100, 'N/A': 50 } };
    // 150 + 50 = 200 of 950 is above 20%; 150 + 50 of 1000 is exactly 20% once the A bid has raised the whole.
    const ds = plan(
      { rating_share: { 'N/A': 0.2 }, rules: [{ name: 'r', filters: {}, amount_by_rating: { A: 50, 'N/A': 50 } }] },
      market([[listing(1, na), listing(2), listing(3, na)]], held),
    );
    expect(brief(ds)).toEqual(['1:r:skip:50:rating_share', '2:r:bid:50:ok', '3:r:bid:50:ok']);
  });

  it('every candidate gets exactly one decision, in rule order', () => {
    const cands = [[listing(1), listing(2)], [listing(2), listing(3)], [listing(4)]];
    const ds = plan({ rules: [rule('a'), rule('b'), rule('c')] }, market(cands));
    expect(ds.map((d) => `${d.rule}${d.listing_id}`)).toEqual(['a1', 'a2', 'b2', 'b3', 'c4']);
  });
});

describe('canStillUse: how far a rule is worth paging', () => {
  it('counts the bids a rule can still make, and 0 once a count or money cap is reached', () => {
    const s: Strategy = { max_bids_per_run: 5, rules: [rule('a', { max_listings: 2 }), rule('b')] };
    expect(canStillUse(s, market([]), 0)).toBe(2);
    expect(canStillUse(s, market([[listing(1)]]), 0)).toBe(1);
    expect(canStillUse(s, market([[listing(1), listing(2)]]), 0)).toBe(0);
    expect(canStillUse(s, market([[listing(1), listing(2)], [listing(3)]]), 1)).toBe(2);
    expect(canStillUse({ rules: [rule('a')] }, market([]), 0)).toBe(Number.POSITIVE_INFINITY);
    expect(canStillUse({ reserve: 976, rules: [rule('a')] }, market([], { cash: 1000 }), 0)).toBe(0);
    expect(canStillUse({ max_per_day: 100, rules: [rule('a')] }, market([], { requested_today: 75.01 }), 0)).toBe(0);
    expect(canStillUse({ rules: [rule('a')] }, market([]), 7)).toBe(0);
  });

  it('ignores candidates of later rules (they cannot change an earlier rule)', () => {
    const s: Strategy = { max_bids_per_run: 1, rules: [rule('a'), rule('b')] };
    expect(canStillUse(s, market([[], [listing(1)]]), 0)).toBe(1);
  });
});

describe('market helpers', () => {
  it('reads a listing from the API as a candidate, refusing one it cannot judge', () => {
    const l = {
      listing_number: 7,
      platform_rating: 'B',
      listing_amount: 1000,
      amount_remaining: '250.5',
      partial_funding_indicator: true,
      listing_creation_date: '2026-06-01 08:00:00 -0400',
      investment_typeid: 1,
    };
    expect(candidateFromListing(l)).toEqual({
      listing_number: 7,
      platform_rating: 'B',
      listing_amount: 1000,
      amount_remaining: 250.5,
      partial_funding_indicator: true,
      created_at: Date.parse('2026-06-01T12:00:00Z'),
      whole_loan: false,
    });
    expect(candidateFromListing({ ...l, listing_creation_date: 'yesterday' })).toMatch(/listing 7: listing_creation_date/);
    expect(candidateFromListing({ ...l, listing_number: -1 })).toMatch(/listing_number/);
    expect(candidateFromListing({ ...l, investment_typeid: 2 })).toMatchObject({ whole_loan: true });
  });

  it('requestedToday sums the bids of orders dated today in UTC, whatever offset they are written in', () => {
    const orders = [
      { order_date: '2026-06-01 00:00:00 +0000', bid_requests: [{ bid_amount: 25.1 }, { bid_amount: 25.2 }] },
      { order_date: '2026-05-31 20:30:00 -0400', bid_requests: [{ bid_amount: 100 }] }, // 00:30 UTC on the 1st
      { order_date: '2026-05-31 23:59:59 +0000', bid_requests: [{ bid_amount: 1000 }] }, // yesterday
      { order_date: '2026-06-02 00:00:00 +0000', bid_requests: [{ bid_amount: 1000 }] }, // tomorrow
    ];
    expect(requestedToday(orders, NOW)).toBe(150.3);
  });
});
