/**
 * `--dry-run`: checks every bid against the marketplace as it stands (listing exists and takes
 * bids (biddable.ts: the run leaves out one that does not), amount remaining, the 10% rule for young partial-funding listings, account cash), and marks
 * the bids the order desk would refuse as held (OrderDesk.review, in the words of the refusal), and
 * sends nothing.
 */
import * as accounts from '../api/accounts.js';
import type { ApiClient } from '../api/client.js';
import * as listings from '../api/listings.js';
import { toCents, youngPartialCap } from '../contract/bid-rules.js';
import { parseApiDateTime } from '../contract/dates.js';
import { DecodeError, required, toNumber, type Listing } from '../contract/decode.js';
import { BadAnswerError } from '../api/errors.js';
import type { PlannedBid } from './bids-file.js';
import { NOT_ACTIVE, whyNotBiddable } from './biddable.js';
import { chunk } from './bids-file.js';
import { money } from '../output/columns.js';

/** The verdict on one bid. */
export type DryRunRow = {
  line: number;
  listing_id: number;
  bid_amount: number;
  amount_remaining: number | null;
  verdict: string;
  ok: boolean;
};

/** What the order desk would do with held listings: refuse the file (the default), or leave them out (`--skip-held`). */
export interface HeldListings {
  /** Why each held listing is held, as the refusal says it. */
  reasons: ReadonlyMap<number, string>;
  skip: boolean;
}

/**
 * Checks `bids`; `now` (read once the listings are in: the marketplace's time) decides a listing's age
 * for the 10% rule. A held bid's row says what the run would do with it; with `held.skip` it is left
 * out of the total, as the run leaves it out of the order.
 */
export async function dryRun(
  client: ApiClient,
  bids: PlannedBid[],
  clock: () => number,
  held: HeldListings = { reasons: new Map(), skip: false },
): Promise<{ rows: DryRunRow[]; cash: number; total: number; unbiddable: Set<number> }> {
  const found = new Map<number, Listing>();
  for (const group of chunk(
    bids.map((b) => b.listing_id),
    100,
  )) {
    for (const whole of ['false', 'true']) {
      const q = new URLSearchParams({ listing_number: group.join(','), whole_loan: whole, limit: '500' });
      for (const l of (await listings.search(client, q)).result) found.set(toNumber(l.listing_number) ?? NaN, l);
    }
  }
  const account = await accounts.platform(client);
  const now = clock();
  // As the run: a listing that cannot take bids is left out of the order, so out of the total too.
  const unbiddable = (id: number): string | null => {
    const l = found.get(id);
    return l === undefined ? NOT_ACTIVE : whyNotBiddable(l, now);
  };
  const total = toCents(
    bids.reduce((s, b) => s + ((held.skip && held.reasons.has(b.listing_id)) || unbiddable(b.listing_id) !== null ? 0 : b.bid_amount), 0),
  );
  const rows = bids.map((b): DryRunRow => {
    const l = found.get(b.listing_id);
    const base = { line: b.line, listing_id: b.listing_id, bid_amount: b.bid_amount };
    const reason = held.reasons.get(b.listing_id);
    // The desk's refusal comes before any POST: it is what the run does, whatever the listing shows.
    if (reason !== undefined) {
      const amount_remaining = l ? (toNumber(l.amount_remaining) ?? null) : null;
      return {
        ...base,
        amount_remaining,
        verdict: held.skip ? `left out (--skip-held): ${reason}` : `refused as held: ${reason}`,
        ok: held.skip,
      };
    }
    // Flagged (exit 2), though the run would place the rest: a file naming such a listing is worth a look.
    const why = unbiddable(b.listing_id);
    if (why !== null) {
      const what = l ? `cannot take bids now: ${why}` : 'not an active listing';
      return {
        ...base,
        amount_remaining: l ? (toNumber(l.amount_remaining) ?? null) : null,
        verdict: `${what}: the run leaves it out`,
        ok: false,
      };
    }
    if (!l) return { ...base, amount_remaining: null, verdict: 'not an active listing: the run leaves it out', ok: false };
    const remaining = toNumber(l.amount_remaining);
    const amount = toNumber(l.listing_amount);
    if (remaining === undefined || amount === undefined) {
      return {
        ...base,
        amount_remaining: remaining ?? null,
        verdict: 'the answer gives no listing_amount or amount_remaining: cannot be checked',
        ok: false,
      };
    }
    const created = parseApiDateTime(l.listing_creation_date ?? '');
    const cap =
      created === null
        ? null
        : youngPartialCap({ listing_amount: amount, partial_funding_indicator: l.partial_funding_indicator === true }, created, now);
    if (b.bid_amount > amount)
      return { ...base, amount_remaining: remaining, verdict: `above the whole listing amount ${money(amount)} (ORD0015)`, ok: false };
    if (cap !== null && b.bid_amount > cap) {
      return {
        ...base,
        amount_remaining: remaining,
        verdict: `listing under 24 h old: at most ${money(cap)} (10%) now, else LENDER_NOT_ELIGIBLE_TO_BID`,
        ok: false,
      };
    }
    if (b.bid_amount > remaining)
      return { ...base, amount_remaining: remaining, verdict: `only ${remaining} remains: would be placed in part`, ok: true };
    return { ...base, amount_remaining: remaining, verdict: 'ok', ok: true };
  });
  let cash: number;
  try {
    cash = required(account.available_cash_balance, 'answer.available_cash_balance');
  } catch (err) {
    throw err instanceof DecodeError ? new BadAnswerError('account', err) : err;
  }
  return { rows, cash, total, unbiddable: new Set(bids.flatMap((b) => (unbiddable(b.listing_id) === null ? [] : [b.listing_id]))) };
}
