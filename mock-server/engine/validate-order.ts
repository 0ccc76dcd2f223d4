/**
 * Validation of POST /orders: all-or-nothing, the first error found wins. The checks run in a fixed
 * order, documented in README.md beside this file: the body, the investor, the shape of every entry,
 * each entry against its listing, then the order as a whole against the account.
 */
import { MIN_BID } from '../../src/contract/bid-rules.js';
import { LISTING_STATUS, MAX_BIDS_PER_ORDER } from '../../src/contract/enums.js';
import { ORDER_ERRORS } from '../../src/contract/errors.js';
import { ApiError, invalidToken } from '../kit/api-error.js';
import { decimalPlaces, numberTexts } from '../kit/json-numbers.js';
import { cents } from '../kit/money.js';
import type { Account, Listing, World, User } from '../world/world.js';
import { heldByUnprocessedBid } from './lifecycle.js';
import { biddableUntil } from './timeline.js';

/** The most one bid may carry (ORD0014). */
export const MAX_BID_AMOUNT = 50_000;
/** The most one order may carry in total (ORD0034). */
export const MAX_ORDER_TOTAL = 500_000;
/** Email verification is asked for during this long after registration; later the user cannot log in. */
const EMAIL_GRACE_MS = 3 * 86_400_000;

/** One accepted bid request. */
export interface BidRequest {
  listing: Listing;
  amount: number;
}

/** An ORD error with the status ORDER_ERRORS gives it and a message naming what was wrong. */
export function orderError(code: string, detail?: string): ApiError {
  const info = ORDER_ERRORS[code];
  if (!info) throw new Error(`unknown order error ${code}`);
  return new ApiError(info.status, { code, message: detail ? `${info.message} ${detail}` : info.message });
}

/**
 * The status names ORD0019 gives, by listing_status. PENDING_COMPLETION (funded, awaiting origination: our
 * Pending) is the one the real service is seen to send (cwalsh525/liveLongAndProsperBot,
 * run_v1/search_and_destroy.py:269 at commit 8188c71); the others are our choice, the reason text in the same form.
 */
const REFUSED_STATUS_NAMES: Readonly<Record<number, string>> = {
  [LISTING_STATUS.WITHDRAWN]: 'WITHDRAWN',
  [LISTING_STATUS.COMPLETED]: 'COMPLETED',
  [LISTING_STATUS.CANCELLED]: 'CANCELLED',
  [LISTING_STATUS.PENDING]: 'PENDING_COMPLETION',
};

/**
 * ORD0019 for a listing whose status takes no bids, in the real service's own words (not the spec's
 * table text): clients read the listing number out of them (the bot above slices it from `Listing [`).
 */
export function statusRefusal(l: Pick<Listing, 'listing_number' | 'listing_status' | 'listing_status_reason'>): ApiError {
  const name = REFUSED_STATUS_NAMES[l.listing_status] ?? l.listing_status_reason.toUpperCase().replace(/\W+/g, '_');
  return new ApiError(ORDER_ERRORS.ORD0019!.status, {
    code: 'ORD0019',
    message: `Listing [${l.listing_number}] is in status [${name}] and cannot currently accept bids.`,
  });
}

/** The body of POST /orders: its JSON value, and the same shape with each number as its token's text (json-numbers.ts). */
export interface OrderBody {
  value: unknown;
  numbers: unknown;
}

/** The body of POST /orders as JSON; ORD0032 when it is not JSON. */
export function parseOrderBody(text: string): OrderBody {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw orderError('ORD0032', 'The body is not valid JSON.');
  }
  return { value, numbers: numberTexts(text) };
}

/** The token text of `bid_requests[i].bid_amount` in a body's numbers, if it is there. */
function amountToken(numbers: unknown, i: number): string | undefined {
  const entries = (numbers as { bid_requests?: unknown } | null)?.bid_requests;
  const entry = Array.isArray(entries) ? (entries[i] as { bid_amount?: unknown } | null | undefined) : undefined;
  const token = entry && typeof entry === 'object' ? entry.bid_amount : undefined;
  return typeof token === 'string' ? token : undefined;
}

/** Validates a parsed body for `account` at `now`; returns the bids or throws the first ApiError. */
export function validateOrder(world: World, account: Account, parsed: OrderBody, now: number): BidRequest[] {
  const body = parsed.value;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw orderError('ORD0032', 'The body must be a JSON object with a bid_requests array.');
  }
  const entries = (body as Record<string, unknown>).bid_requests;
  if (!Array.isArray(entries)) throw orderError('ORD0032', 'bid_requests must be an array.');
  checkInvestor(world.users.get(account.userId), now);
  if (entries.length === 0) throw orderError('ORD0008');
  if (entries.length > MAX_BIDS_PER_ORDER) {
    throw orderError('ORD0029', `The order has ${entries.length} bid requests; at most ${MAX_BIDS_PER_ORDER} are allowed.`);
  }

  const shaped: { id: number; amount: number }[] = [];
  const seen = new Set<number>();
  entries.forEach((e, i) => {
    const at = `bid_requests[${i}]`;
    if (e === null || typeof e !== 'object' || Array.isArray(e)) throw orderError('ORD0033', `${at} is not an object.`);
    const entry = e as Record<string, unknown>;
    if (!('listing_id' in entry) || entry.listing_id === null) throw orderError('ORD0033', `${at} has no listing_id.`);
    if (!('bid_amount' in entry) || entry.bid_amount === null) throw orderError('ORD0033', `${at} has no bid_amount.`);
    const id = entry.listing_id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
      throw orderError('ORD0009', `${at}.listing_id must be a positive integer, got ${JSON.stringify(id)}.`);
    }
    const amount = readAmount(entry.bid_amount, amountToken(parsed.numbers, i), at);
    if (amount > MAX_BID_AMOUNT)
      throw orderError('ORD0014', `${at}.bid_amount ${amount} is above the ${MAX_BID_AMOUNT.toFixed(2)} a bid may carry.`);
    if (seen.has(id)) throw orderError('ORD0030', `Listing ${id} appears more than once.`);
    seen.add(id);
    shaped.push({ id, amount });
  });

  const user = world.users.get(account.userId)!;
  const bids = shaped.map(({ id, amount }, i) => ({ listing: checkListing(world, user, id, amount, i, now), amount }));

  const total = cents(bids.reduce((s, b) => s + b.amount, 0));
  if (total > MAX_ORDER_TOTAL)
    throw orderError('ORD0034', `The order totals ${total.toFixed(2)}; at most ${MAX_ORDER_TOTAL.toFixed(2)} is allowed.`);
  if (user.suitabilityLimit !== undefined && total > user.suitabilityLimit) {
    throw orderError('ORD0022', `Orders from ${user.state} are limited to ${user.suitabilityLimit.toFixed(2)} for this investor.`);
  }
  if (total > account.cash)
    throw orderError('ORD0021', `The order totals ${total.toFixed(2)}; available cash is ${account.cash.toFixed(2)}.`);
  if (account.ledgerFrozen) throw orderError('ORD0035', 'The account ledger is frozen for review.');
  return bids;
}

/**
 * A bid amount: a positive JSON number (a string is not one) whose exact value, as its token spells
 * it, has at most 2 decimals (`25`, `25.0`, `25.000`, `2.5e1` are 25; `24.999999999999999` is
 * refused, though JSON.parse rounds it to 25), at least MIN_BID.
 */
function readAmount(v: unknown, token: string | undefined, at: string): number {
  const places = typeof v === 'number' && token !== undefined ? decimalPlaces(token) : null;
  if (places === null || places > 2 || !Number.isFinite(v) || (v as number) <= 0) {
    throw orderError('ORD0005', `${at}.bid_amount must be a positive amount with at most 2 decimals, got ${token ?? JSON.stringify(v)}.`);
  }
  const amount = cents(v as number);
  if (amount < MIN_BID) throw orderError('ORD0005', `${at}.bid_amount ${amount} is below the ${MIN_BID.toFixed(2)} minimum.`);
  return amount;
}

function checkInvestor(user: User | undefined, now: number): void {
  if (!user) throw orderError('ORD0024');
  if (!user.active) throw orderError('ORD0038');
  if (!user.emailVerified) {
    const since = user.registeredAt ?? 0;
    if (now - since > EMAIL_GRACE_MS) throw invalidToken('The user never verified their email and can no longer log in');
    throw orderError('ORD0042', 'Verify the email address to invest.');
  }
  if (user.agreementsSigned === false) throw orderError('ORD0039', 'Sign the investor agreements to invest.');
  if (!user.stateAllowsInvesting) throw orderError('ORD0040', `Investing is not allowed in ${user.state}.`);
  if (user.delinquent) throw orderError('ORD0041');
}

function checkListing(world: World, user: User, id: number, amount: number, i: number, now: number): Listing {
  const l = world.listingByNumber.get(id);
  const at = `bid_requests[${i}]`;
  if (!l) throw orderError('ORD0003', `${at}: no listing ${id}.`);
  if (l.investmentTypeUnset) throw orderError('ORD0037', `${at}: listing ${id}.`);
  if (l.listing_status === LISTING_STATUS.EXPIRED) throw orderError('ORD0013', `${at}: listing ${id} expired.`);
  if (l.listing_status !== LISTING_STATUS.ACTIVE) throw statusRefusal(l);
  if (l.listing_start_date > now) throw orderError('ORD0020', `${at}: listing ${id} has not started.`);
  if (biddableUntil(l) <= now) throw orderError('ORD0013', `${at}: listing ${id} ended.`);
  if (l.borrowerUserId === user.id) throw orderError('ORD0011', `${at}: listing ${id} is your own.`);
  if (l.authorizedUsers && l.authorizedUsers.length > 0 && !l.authorizedUsers.includes(user.id)) {
    throw orderError('ORD0016', `${at}: listing ${id}.`);
  }
  if (l.investment_typeid === 2) {
    if (!user.wholeLoanEligible) throw orderError('ORD0012', `${at}: listing ${id} is a whole loan.`);
    if (amount !== l.listing_amount) {
      throw orderError('ORD0018', `${at}: bid ${amount.toFixed(2)} on whole loan ${id} of ${l.listing_amount.toFixed(2)}.`);
    }
    if (l.amount_funded > 0 || heldByUnprocessedBid(world, id)) throw orderError('ORD0017', `${at}: whole loan ${id} is already taken.`);
    return l;
  }
  if (user.fractionalEligible === false) throw orderError('ORD0036', `${at}: listing ${id} is fractional.`);
  if (amount > l.listing_amount) {
    throw orderError('ORD0015', `${at}: bid ${amount.toFixed(2)} is above the listing amount ${l.listing_amount.toFixed(2)}.`);
  }
  return l;
}
