/**
 * How `mkt invest run` prints its decisions in a table: the bids first, then the skips counted by reason
 * (hundreds of skip rows would bury a few bids), every skip listed with --show-skipped; -o json, csv and
 * ndjson carry every decision as planned. And the totals per rule and rating a person reads on stderr.
 */
import type { Decision } from '../invest/planner.js';
import { skipKey } from '../invest/no-bid-reason.js';
import type { RunOutcome } from '../invest/run.js';
import type { Strategy } from '../invest/strategy.js';
import { money, percent } from '../output/columns.js';

/** The decision columns of every format; `detail` only says something on a rating_share skip. */
export const DECISION_COLUMNS = ['listing_id', 'rule', 'action', 'amount', 'reason'];
/** The columns of -o csv and ndjson: the table's, and the detail a table puts in the reason. */
export const DECISION_FIELDS = [...DECISION_COLUMNS, 'detail'];

/** A decision as a table row: its reason with what the reason alone does not say (rating_share: which rating, its share, its cap). */
function tableRow(d: Decision): Record<string, unknown> {
  return { ...d, reason: d.detail === undefined ? d.reason : `${d.reason} (${d.detail})` };
}

/** What a table shows of the decisions: the rows (bids first), and the skips counted when they are not listed. */
export interface DecisionTable {
  rows: Record<string, unknown>[];
  /** Skips counted by reason, most first (rating_share by rating, with its cap); empty when every skip is a row. */
  skipped: Record<string, unknown>[];
  /** How many skips the counts stand for. */
  skips: number;
}

/** The decisions for a table: bids first in plan order; skips listed after them with `showSkipped`, else counted by reason. */
export function decisionTable(
  decisions: readonly Decision[],
  ratings: ReadonlyMap<number, string>,
  strategy: Strategy | undefined,
  showSkipped: boolean,
): DecisionTable {
  const bids = decisions.filter((d) => d.action === 'bid');
  const skips = decisions.filter((d) => d.action !== 'bid');
  if (showSkipped) return { rows: [...bids, ...skips].map(tableRow), skipped: [], skips: 0 };
  const key = skipKey(ratings);
  const counts = new Map<string, number>();
  for (const d of skips) counts.set(key(d), (counts.get(key(d)) ?? 0) + 1);
  const cap = (k: string): string => {
    const caps: Readonly<Record<string, number>> = strategy?.rating_share ?? {};
    const rating = k.startsWith('rating_share ') ? k.slice('rating_share '.length) : undefined;
    const share = rating !== undefined && Object.hasOwn(caps, rating) ? caps[rating] : undefined;
    return share === undefined ? k : `${k} (cap ${percent(share)})`;
  };
  const skipped = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, n]) => ({ skipped: cap(k), listings: n }));
  return { rows: bids.map(tableRow), skipped, skips: skips.length };
}

/** Bids and amount per rule and per rating, as rows for a small table on stderr. */
export function totals(outcome: RunOutcome): Record<string, unknown>[] {
  const rows = new Map<string, { by: string; name: string; bids: number; cents: number }>();
  const add = (by: string, name: string, d: Decision): void => {
    const r = rows.get(`${by}\0${name}`) ?? { by, name, bids: 0, cents: 0 };
    r.bids++;
    r.cents += Math.round((d.amount ?? 0) * 100);
    rows.set(`${by}\0${name}`, r);
  };
  for (const d of outcome.decisions) {
    if (d.action !== 'bid') continue;
    add('rule', d.rule, d);
    add('rating', outcome.ratings.get(d.listing_id) ?? '?', d);
  }
  return [...rows.values()].map((r) => ({ by: r.by, name: r.name, bids: r.bids, amount: money(r.cents / 100) }));
}
