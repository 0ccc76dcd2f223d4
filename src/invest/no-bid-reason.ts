/**
 * Why a run bid nothing, in one line: a run that exits 0 having done nothing must say whether the
 * caps were used up, no listing matched, or every listing found was skipped (and for what).
 */
import { money } from '../output/columns.js';
import type { Market } from './market.js';
import { MIN_BID_CENTS } from './marketplace-rules.js';
import { moneyCaps, type Decision } from './planner.js';
import type { Strategy } from './strategy.js';

const dollars = (cents: number): string => money(cents / 100);
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What stops any bid before a listing is looked at (a count cap of 0, money caps below the minimum bid), or null. */
function usedUp(strategy: Strategy, market: Market): string | null {
  if (strategy.max_bids_per_run === 0) return 'max_bids_per_run is 0';
  if (strategy.rules.every((r) => r.max_listings === 0)) return "every rule's max_listings is 0";
  const caps = moneyCaps(strategy, market);
  const minimum = `less than the ${dollars(MIN_BID_CENTS)} minimum bid`;
  if (caps.max_per_day < MIN_BID_CENTS) {
    const today = Math.round(market.requested_today * 100);
    return `max_per_day is used up: ${dollars(today)} of ${dollars(Math.round(strategy.max_per_day! * 100))} already requested today leaves ${dollars(Math.max(0, caps.max_per_day))}, ${minimum}`;
  }
  if (caps.max_per_run < MIN_BID_CENTS) return `max_per_run ${dollars(caps.max_per_run)} is ${minimum}`;
  if (caps.reserve < MIN_BID_CENTS) {
    const reserve = strategy.reserve ? ` after the ${dollars(Math.round(strategy.reserve * 100))} reserve` : '';
    return `cash is below the minimum: ${dollars(Math.round(market.cash * 100))} available leaves ${dollars(Math.max(0, caps.reserve))}${reserve}, ${minimum}`;
  }
  return null;
}

/**
 * A skip's reason as skips are counted: rating_share with the rating it is about (`rating_share HR`),
 * since a count of "rating_share" alone does not say which cap to raise; `ratingOf` maps listing to rating.
 */
export function skipKey(ratingOf: ReadonlyMap<number, string>): (d: Decision) => string {
  return (d) => (d.reason === 'rating_share' ? `rating_share ${ratingOf.get(d.listing_id) ?? '?'}` : d.reason);
}

/** Why nothing was bid, in one line; null when something was. */
export function noBidReason(strategy: Strategy, market: Market, decisions: readonly Decision[]): string | null {
  if (decisions.some((d) => d.action === 'bid')) return null;
  const stopped = usedUp(strategy, market);
  if (stopped !== null) return stopped;
  if (decisions.length === 0)
    return `no active listing you have not invested in matches ${strategy.rules.length === 1 ? 'the rule' : `any of the ${strategy.rules.length} rules`}`;
  const byReason = new Map<string, number>();
  const key = skipKey(new Map(market.candidates.flat().map((c) => [c.listing_number, c.platform_rating])));
  for (const d of decisions) byReason.set(key(d), (byReason.get(key(d)) ?? 0) + 1);
  const counts = [...byReason]
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');
  const allTaken = [...byReason.keys()].every((r) => r === 'held' || r === 'pending' || r === 'journal');
  const found = plural(new Set(decisions.map((d) => d.listing_id)).size, 'listing');
  return allTaken
    ? `every listing the rules found is already held or bid on (${counts})`
    : `none of the ${found} the rules found could be bid on: ${counts} (see each one's reason)`;
}
