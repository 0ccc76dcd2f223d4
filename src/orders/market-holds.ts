/**
 * What the marketplace itself says already holds a listing: a PENDING or INVESTED bid in one of the
 * account's orders, or the account's money already in the listing (`invested`,
 * `amount_participation`). The desk asks before placing anything, so that a journal lost, emptied,
 * deleted or cut by a repair never leads to a second bid on the same listing. The same look-up tells which
 * listings cannot take bids now (biddable.ts), so a file is checked whole before its first order is sent.
 */
import type { ApiClient } from '../api/client.js';
import * as listings from '../api/listings.js';
import type { Order } from '../api/orders.js';
import { bidsOf, toNumber } from '../contract/decode.js';
import { NOT_ACTIVE, whyNotBiddable } from './biddable.js';
import { chunk } from './bids-file.js';
import { stamp, type Doubt } from './reconcile.js';
import { UsageError } from '../errors.js';

/** Listing numbers per listings request: a URL of a hundred numbers stays well under any server's limit. */
const NUMBERS_PER_REQUEST = 100;

/** A listing id as the marketplace sent it, or null when it is not a positive whole number. */
export function listingIdOf(v: unknown): number | null {
  const n = toNumber(v);
  return n !== undefined && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/**
 * Why the account's orders hold each of `ids`: a bid PENDING (placed or waiting to be processed) or
 * INVESTED, or a bid whose status is not shown in an order not yet COMPLETED (it may still be pending).
 */
export function heldByOrders(orders: readonly Order[], ids: ReadonlySet<number>): Map<number, string> {
  const out = new Map<number, string>();
  for (const o of orders) {
    const order = typeof o.order_id === 'string' ? `order ${o.order_id}` : 'an order without an id';
    for (const b of bidsOf(o)) {
      const id = listingIdOf(b.listing_id);
      if (id === null || !ids.has(id) || out.has(id)) continue;
      const status = b.bid_status;
      if (status === 'PENDING' || status === 'INVESTED') out.set(id, `the marketplace shows a ${status} bid in ${order}`);
      else if (status !== 'EXPIRED' && o.order_status !== 'COMPLETED')
        out.set(id, `the marketplace shows a bid (status ${status ?? 'not shown'}) in ${order}, not yet completed`);
    }
  }
  return out;
}

/** What a look-up of listings by number found: the account's money already in them, and why some cannot take bids. */
export interface LookedUp {
  /** The active listings the account already has money in, with its amount_participation. */
  invested: Map<number, number>;
  /** The listings that cannot take a bid now (biddable.ts), each with why; one not found among active listings too. */
  notBiddable: Map<number, string>;
}

/**
 * Looks up `ids` among active listings: the account's money in each (amount_participation), and which cannot take a
 * bid at the marketplace's time (`now`, read once the answers are in). One request per hundred numbers for
 * fractional listings (more only if the marketplace answers in smaller pages); whole-loan listings (a separate search) only for the numbers the first did not find; a
 * number neither finds is not an active listing.
 */
export async function lookUp(client: ApiClient, ids: readonly number[], now: () => number): Promise<LookedUp> {
  const invested = new Map<number, number>();
  const seen = new Map<number, Record<string, unknown>>();
  const ask = async (numbers: readonly number[], wholeLoan: boolean): Promise<void> => {
    const q = new URLSearchParams({
      listing_number: numbers.join(','),
      biddable: 'true',
      whole_loan: String(wholeLoan),
      offset: '0',
      limit: String(numbers.length),
    });
    // Paged, should a marketplace answer fewer than asked a page; never past as many as were asked, whatever its total.
    for (let offset = 0; offset < numbers.length;) {
      q.set('offset', String(offset));
      const page = await listings.search(client, q);
      for (const l of page.result) {
        const id = listingIdOf(l.listing_number);
        if (id === null || !numbers.includes(id)) continue;
        seen.set(id, l);
        const amount = toNumber(l.amount_participation) ?? 0;
        if (l.invested === true || amount > 0) invested.set(id, amount);
      }
      offset += page.result.length;
      if (page.result.length === 0 || offset >= (toNumber(page.total_count) ?? 0)) break;
    }
  };
  const unique = [...new Set(ids)];
  for (const group of chunk(unique, NUMBERS_PER_REQUEST)) {
    await ask(group, false);
    const rest = group.filter((id) => !seen.has(id));
    if (rest.length > 0) await ask(rest, true);
  }
  const at = now();
  const notBiddable = new Map<number, string>();
  for (const id of unique) {
    const l = seen.get(id);
    const why = l === undefined ? NOT_ACTIVE : whyNotBiddable(l, at);
    if (why !== null) notBiddable.set(id, why);
  }
  return { invested, notBiddable };
}

/** The refusal of a file with held bids (`lines`, one per bid), with what to do about any order in doubt among them. */
export function heldRefusal(held: ReadonlyArray<{ doubt?: Doubt }>, lines: string): UsageError {
  const doubts = [...new Map(held.flatMap((h) => (h.doubt ? [[h.doubt.batch, h.doubt] as const] : []))).values()];
  const last = Math.max(...doubts.map((d) => d.until));
  const hint =
    doubts.length > 0
      ? `${doubts.length > 1 ? 'those orders' : 'that order'} may still reach the marketplace: run again after ${stamp(last)}; a run then sends these bids if the marketplace still shows no order for them, and refuses them as placed if it does. --skip-held places the other bids now; --allow-duplicate sends these now too, even if the first order arrives later`
      : 'bids from `mkt listings search`: add --invested false to the search to leave out listings you already have money in; or use --skip-held to place only the other bids, or --allow-duplicate if you really mean to bid again on these listings';
  return new UsageError(
    `refusing ${held.length} bid${held.length > 1 ? 's' : ''} that could place money twice; nothing was sent:\n  ${lines}`,
    hint,
  );
}
