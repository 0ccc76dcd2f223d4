/**
 * Whether a listing, as a search shows it, can take a bid now. The marketplace refuses a whole order over
 * one listing that cannot (ORD0019 `Listing [N] is in status [PENDING_COMPLETION] and cannot currently
 * accept bids.`, ORD0020 not started, ORD0037 no investment type, ORD0013 ended), so `order submit` and
 * `invest run` leave such a listing out before anything is sent rather than lose every other bid of its order.
 */
import { parseApiDateTime } from '../contract/dates.js';
import { toNumber } from '../contract/decode.js';
import { LISTING_STATUS } from '../contract/enums.js';

/** Why `l` cannot take a bid at `now` (the marketplace's time), naming the refusal it would meet; null when it can. */
export function whyNotBiddable(l: Readonly<Record<string, unknown>>, now: number): string | null {
  if (l.biddable === false) return 'the marketplace shows it biddable: false';
  const status = toNumber(l.listing_status);
  if (status !== undefined && status !== LISTING_STATUS.ACTIVE) {
    const reason = typeof l.listing_status_reason === 'string' ? `${l.listing_status_reason} ` : '';
    return `its status is ${reason}(${status}), not Active: it cannot take bids (ORD0019)`;
  }
  const type = toNumber(l.investment_typeid);
  if (type !== 1 && type !== 2) return 'it has no investment type (ORD0037)';
  const start = typeof l.listing_start_date === 'string' ? parseApiDateTime(l.listing_start_date) : null;
  if (start !== null && start > now) {
    return `it has not started: listing_start_date ${l.listing_start_date} is after the marketplace's time ${new Date(now).toISOString()} (ORD0020)`;
  }
  return null;
}

/** Why a listing a search by number did not find cannot take a bid. */
export const NOT_ACTIVE =
  'the marketplace shows no active listing with this number (funded and pending completion, ended, withdrawn, or none): it cannot take bids (ORD0019/ORD0013/ORD0003)';

/**
 * The bids whose listings can take bids; the others are left out with a line each for the person (`where`
 * names a bid's line in its file), in the style of `--skip-held`.
 */
export function leaveOutUnbiddable<B extends { listing_id: number }>(
  bids: readonly B[],
  notBiddable: ReadonlyMap<number, string>,
  where: (b: B) => string,
  info: (line: string) => void,
): B[] {
  const out = bids.filter((b) => notBiddable.has(b.listing_id));
  if (out.length === 0) return [...bids];
  const lines = out.map((b) => `${where(b)}listing ${b.listing_id}: ${notBiddable.get(b.listing_id)!}`).join('\n  ');
  info(`leaving out ${out.length} bid${out.length > 1 ? 's' : ''} on listings that cannot take bids now:\n  ${lines}`);
  return bids.filter((b) => !notBiddable.has(b.listing_id));
}
