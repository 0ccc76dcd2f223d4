/**
 * The planner of `mkt invest`: one decision for every candidate, bid or skip with the reason,
 * greedy in rule order then candidate order. Pure: the run gathers the Market, the planner decides.
 *
 * Each candidate meets these checks in order; the first that fails is its reason:
 *  1. chosen-by-earlier-rule / duplicate: this run already bids on the listing (another rule / this rule);
 *  2. held / pending / journal: the listing is taken before the run (Market.taken);
 *  3. filter: a whole-loan listing, which a fractional bid cannot go to;
 *  4. max_listings (the rule's bids), max_bids_per_run (all bids): counts already reached;
 *  5. no-amount-for-rating: amount_by_rating has no amount for the listing's rating;
 *  6. the marketplace's amount rules: remaining-below-minimum when less than 25.00 remains, else the
 *     amount becomes at most the remainder; ten-percent-rule when a partial-funding listing under
 *     24 h old allows less than 25.00 (a tenth of its amount), else the amount becomes at most that;
 *  7. money caps, each on the amount from step 6 (a bid is never cut to fit a cap: it is skipped and
 *     a later, smaller bid may still fit): reserve (cash − reserve − this run's bids), max_per_run
 *     (this run's bids), max_per_day (requested today + this run's bids), rating_share.
 * rating_share for rating R with cap s: (P_R + B_R + a) ≤ s × (P + B + a), where P_R is invested plus
 * pending principal in R, P the same over every rating, B_R and B this run's earlier bids in R and in
 * total, a the amount. It holds at every bid, so it holds after the run: a later bid in another
 * rating only lowers R's share.
 */
import type { Candidate, Market, TakenReason } from './market.js';
import { MIN_BID_CENTS, RATING_ALIASES, youngPartialCap } from './marketplace-rules.js';
import type { Rule, Strategy } from './strategy.js';

/** Why a candidate is skipped. */
export type SkipReason =
  | TakenReason
  | 'chosen-by-earlier-rule'
  | 'duplicate'
  | 'filter'
  | 'max_listings'
  | 'max_bids_per_run'
  | 'no-amount-for-rating'
  | 'remaining-below-minimum'
  | 'ten-percent-rule'
  | 'reserve'
  | 'max_per_run'
  | 'max_per_day'
  | 'rating_share';

/** One candidate's fate. `amount` is the bid; on a skip, the amount it would have been once known (else null). */
export interface Decision {
  listing_id: number;
  rule: string;
  action: 'bid' | 'skip';
  amount: number | null;
  reason: 'ok' | SkipReason;
  /** What the reason alone does not say (rating_share: the rating, its share with this bid and its cap); absent otherwise. */
  detail?: string;
}

const toCents = (dollars: number): number => Math.round(dollars * 100);
const NO_LIMIT = Number.POSITIVE_INFINITY;

/** The running totals of a plan, in cents. */
interface Totals {
  spent: number;
  bids: number;
  perRule: number[];
  byRating: Map<string, number>;
  chosenBy: Map<number, number>;
}

/** Plans every candidate of `market` under `strategy`. Decisions come rule by rule, candidates in their order. */
export function plan(strategy: Strategy, market: Market): Decision[] {
  return run(strategy, market).decisions;
}

/**
 * How many more bids rule `ruleIndex` could still make after the candidates gathered so far
 * (Infinity when only money bounds it, 0 when a count cap is reached or less than 25.00 is left
 * under the money caps). The run pages a rule's search while this is above 0.
 */
export function canStillUse(strategy: Strategy, market: Market, ruleIndex: number): number {
  const rule = strategy.rules[ruleIndex];
  if (!rule) return 0;
  // Only the rules up to this one have decided anything: later rules never change earlier ones.
  const { totals } = run(strategy, { ...market, candidates: market.candidates.slice(0, ruleIndex + 1) });
  const byCount = Math.min(
    (rule.max_listings ?? NO_LIMIT) - (totals.perRule[ruleIndex] ?? 0),
    (strategy.max_bids_per_run ?? NO_LIMIT) - totals.bids,
  );
  return moneyLeft(strategy, market, totals) < MIN_BID_CENTS ? 0 : Math.max(0, byCount);
}

/** What each money cap leaves for bids before the run bids anything, in cents (Infinity when the cap is not set). */
export function moneyCaps(strategy: Strategy, market: Market): { reserve: number; max_per_run: number; max_per_day: number } {
  return {
    reserve: toCents(market.cash) - toCents(strategy.reserve ?? 0),
    max_per_run: strategy.max_per_run === undefined ? NO_LIMIT : toCents(strategy.max_per_run),
    max_per_day: strategy.max_per_day === undefined ? NO_LIMIT : toCents(strategy.max_per_day) - toCents(market.requested_today),
  };
}

/** The most another bid may be under reserve, max_per_run and max_per_day, in cents. */
function moneyLeft(strategy: Strategy, market: Market, t: Totals): number {
  return Math.min(...Object.values(moneyCaps(strategy, market))) - t.spent;
}

function run(strategy: Strategy, market: Market): { decisions: Decision[]; totals: Totals } {
  const totals: Totals = { spent: 0, bids: 0, perRule: strategy.rules.map(() => 0), byRating: new Map(), chosenBy: new Map() };
  const held = new Map<string, number>();
  let heldTotal = 0;
  for (const [rating, dollars] of Object.entries(market.principal_by_rating)) {
    // The account keys old loans NA; listings and the strategy say N/A.
    const key = RATING_ALIASES[rating] ?? rating;
    held.set(key, (held.get(key) ?? 0) + toCents(dollars));
    heldTotal += toCents(dollars);
  }
  const decisions: Decision[] = [];
  strategy.rules.forEach((rule, ri) => {
    for (const c of market.candidates[ri] ?? []) {
      const { reason, amount, detail } = decide(strategy, market, rule, ri, c, totals, held, heldTotal);
      const base = { listing_id: c.listing_number, rule: rule.name, amount: amount === null ? null : amount / 100 };
      if (reason !== 'ok') {
        decisions.push({ ...base, action: 'skip', reason, ...(detail === undefined ? {} : { detail }) });
        continue;
      }
      decisions.push({ ...base, action: 'bid', reason: 'ok' });
      totals.spent += amount!;
      totals.bids += 1;
      totals.perRule[ri] = (totals.perRule[ri] ?? 0) + 1;
      totals.byRating.set(c.platform_rating, (totals.byRating.get(c.platform_rating) ?? 0) + amount!);
      totals.chosenBy.set(c.listing_number, ri);
    }
  });
  return { decisions, totals };
}

function decide(
  strategy: Strategy,
  market: Market,
  rule: Rule,
  ri: number,
  c: Candidate,
  t: Totals,
  held: ReadonlyMap<string, number>,
  heldTotal: number,
): { reason: Decision['reason']; amount: number | null; detail?: string } {
  const skip = (reason: SkipReason, amount: number | null = null) => ({ reason, amount });
  const by = t.chosenBy.get(c.listing_number);
  if (by !== undefined) return skip(by === ri ? 'duplicate' : 'chosen-by-earlier-rule');
  const taken = market.taken.get(c.listing_number);
  if (taken) return skip(taken);
  if (c.whole_loan) return skip('filter');
  if (rule.max_listings !== undefined && (t.perRule[ri] ?? 0) >= rule.max_listings) return skip('max_listings');
  if (strategy.max_bids_per_run !== undefined && t.bids >= strategy.max_bids_per_run) return skip('max_bids_per_run');

  const wanted = rule.amount ?? forRating(rule.amount_by_rating, c.platform_rating);
  if (wanted === undefined) return skip('no-amount-for-rating');
  let amount = toCents(wanted);
  const remaining = toCents(c.amount_remaining);
  if (remaining < MIN_BID_CENTS) return skip('remaining-below-minimum');
  amount = Math.min(amount, remaining);
  const tenPercent = youngPartialCap(c, c.created_at, market.now);
  if (tenPercent !== null) {
    const cap = toCents(tenPercent);
    if (cap < MIN_BID_CENTS) return skip('ten-percent-rule');
    amount = Math.min(amount, cap);
  }

  if (toCents(market.cash) - toCents(strategy.reserve ?? 0) - t.spent < amount) return skip('reserve', amount);
  if (strategy.max_per_run !== undefined && t.spent + amount > toCents(strategy.max_per_run)) return skip('max_per_run', amount);
  if (strategy.max_per_day !== undefined && toCents(market.requested_today) + t.spent + amount > toCents(strategy.max_per_day)) {
    return skip('max_per_day', amount);
  }
  const share = forRating(strategy.rating_share, c.platform_rating);
  if (share !== undefined) {
    const inRating = (held.get(c.platform_rating) ?? 0) + (t.byRating.get(c.platform_rating) ?? 0) + amount;
    const total = heldTotal + t.spent + amount;
    if (!withinShare(inRating, total, share))
      return { ...skip('rating_share', amount), detail: shareDetail(c.platform_rating, inRating, total, share) };
  }
  return { reason: 'ok', amount };
}

/** A percentage with two decimals; more when two would show a share over its cap as equal to it. */
function percent(share: number, unlike?: number): string {
  const two = (share * 100).toFixed(2);
  return unlike !== undefined && two === (unlike * 100).toFixed(2) ? `${(share * 100).toFixed(4)}%` : `${two}%`;
}

/** Which rating a rating_share skip is about, the share this bid would bring it to, and its cap: `HR: 5.31% … over its 5.00% cap`. */
function shareDetail(rating: string, partCents: number, wholeCents: number, cap: number): string {
  return `${rating}: ${percent(partCents / wholeCents, cap)} of invested and pending principal with this bid, over its ${percent(cap)} cap`;
}

/** The entry for `rating`, own keys only: a rating text from the API such as 'constructor' finds nothing. */
function forRating(map: Readonly<Record<string, number>> | undefined, rating: string): number | undefined {
  return map !== undefined && Object.hasOwn(map, rating) ? map[rating] : undefined;
}

/** part ≤ share × whole, exactly: the share as parts per million, the product in BigInt (no float drift at the boundary). */
function withinShare(partCents: number, wholeCents: number, share: number): boolean {
  const ppm = BigInt(Math.round(share * 1_000_000));
  return BigInt(partCents) * 1_000_000n <= ppm * BigInt(wholeCents);
}
