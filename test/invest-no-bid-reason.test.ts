import { describe, expect, it } from 'vitest';
import type { Candidate, Market } from '../src/invest/market.js';
import { noBidReason } from '../src/invest/no-bid-reason.js';
import { plan } from '../src/invest/planner.js';
import type { Rule, Strategy } from '../src/invest/strategy.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');

function listing(n: number, over: Partial<Candidate> = {}): Candidate {
  return {
    listing_number: n,
    platform_rating: 'A',
    listing_amount: 5000,
    amount_remaining: 4000,
    partial_funding_indicator: false,
    created_at: NOW - 2 * 86_400_000,
    whole_loan: false,
    ...over,
  };
}
const market = (candidates: Candidate[][], over: Partial<Market> = {}): Market => ({
  now: NOW,
  cash: 10_000,
  principal_by_rating: {},
  requested_today: 0,
  taken: new Map(),
  candidates,
  ...over,
});
const rule = (name: string, over: Partial<Rule> = {}): Rule => ({ name, filters: {}, amount: 50, ...over });
const reason = (s: Strategy, m: Market): string | null => noBidReason(s, m, plan(s, m));

describe('why a plan bids nothing', () => {
  it('is null as soon as one bid is planned', () => {
    expect(reason({ rules: [rule('r')] }, market([[listing(1)]], { taken: new Map([[1, 'held']]) }))).toBe(
      'every listing the rules found is already held or bid on (1 held)',
    );
    expect(reason({ rules: [rule('r')] }, market([[listing(1), listing(2)]], { taken: new Map([[1, 'held']]) }))).toBeNull();
  });

  it('names a count cap of 0 before anything else', () => {
    expect(reason({ rules: [rule('r')], max_bids_per_run: 0 }, market([[]]))).toBe('max_bids_per_run is 0');
    expect(reason({ rules: [rule('a', { max_listings: 0 }), rule('b', { max_listings: 0 })] }, market([[], []]))).toBe(
      "every rule's max_listings is 0",
    );
  });

  it("names the money cap that leaves less than the minimum bid: the day's before the run's before the cash", () => {
    const s: Strategy = { rules: [rule('r')], max_per_day: 100, max_per_run: 20, reserve: 9_990 };
    expect(reason(s, market([[]], { requested_today: 90 }))).toBe(
      'max_per_day is used up: 90.00 of 100.00 already requested today leaves 10.00, less than the 25.00 minimum bid',
    );
    expect(reason(s, market([[]]))).toBe('max_per_run 20.00 is less than the 25.00 minimum bid');
    expect(reason({ rules: [rule('r')] }, market([[]], { cash: 12.5 }))).toBe(
      'cash is below the minimum: 12.50 available leaves 12.50, less than the 25.00 minimum bid',
    );
  });

  it('says when no listing matched, and counts the reasons when every one found was skipped', () => {
    expect(reason({ rules: [rule('a'), rule('b')] }, market([[], []]))).toBe(
      'no active listing you have not invested in matches any of the 2 rules',
    );
    const s: Strategy = { rules: [rule('r', { amount: 60 })], max_per_run: 100 };
    const m = market([[listing(1, { amount_remaining: 10 }), listing(2, { whole_loan: true }), listing(3, { amount_remaining: 20 })]]);
    expect(reason(s, m)).toBe(
      "none of the 3 listings the rules found could be bid on: 2 remaining-below-minimum, 1 filter (see each one's reason)",
    );
  });

  it('counts rating_share skips by the rating they are about', () => {
    const s: Strategy = { rules: [rule('r')], rating_share: { HR: 0.05, E: 0.1 } };
    const m = market(
      [[listing(1, { platform_rating: 'HR' }), listing(2, { platform_rating: 'E' }), listing(3, { platform_rating: 'HR' })]],
      {
        principal_by_rating: { A: 100 },
      },
    );
    expect(reason(s, m)).toBe(
      "none of the 3 listings the rules found could be bid on: 2 rating_share HR, 1 rating_share E (see each one's reason)",
    );
  });
});
