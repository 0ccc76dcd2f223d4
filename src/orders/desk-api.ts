/**
 * What the order desk (desk.ts) takes and gives: the marketplace calls it makes, its collaborators, the
 * bids and options of a placement, and the verdict it returns with its exit code.
 */
import type { BidRequest, Order, PlacedOrder } from '../api/orders.js';
import type { Clock } from '../clock.js';
import { DEFAULT_HTTP_TIMEOUT_MS, SETTLE_MARGIN_MS } from '../config/timeouts.js';
import { EXIT } from '../errors.js';
import type { JournalBase } from './journal.js';
import type { LookedUp } from './market-holds.js';
import type { Marketplace } from './marketplace.js';
import type { OtherJournal } from './other-addresses.js';
import type { ClockWatch } from './still-clock.js';
import type { BidRow, FollowPlan, Progress } from './wait.js';

/** The marketplace calls the desk makes. */
export interface OrdersApi {
  /**
   * Gets what the next request needs before it can leave (the access token: the credentials' lock, a
   * refresh), so that the intent journalled before an order is written when its POST leaves.
   */
  prepare?(): Promise<void>;
  /** Places one order of at most 100 bids (a POST: never retried). */
  submit(bids: BidRequest[]): Promise<PlacedOrder>;
  get(orderId: string): Promise<Order>;
  /** Every order of the account, for reconciling lost answers and finding bids already placed. */
  list(): AsyncIterable<Order>;
  /**
   * Looks `ids` up among active listings: the ones the account already has money in (amount_participation),
   * and the ones that cannot take a bid now, each with why (market-holds.ts lookUp).
   */
  lookUp(ids: readonly number[]): Promise<LookedUp>;
  /** The account's available cash, for the insufficient-funds message. */
  availableCash(): Promise<number>;
  /** Tells a marketplace whose clock stands still (a mock started with --frozen) while a --wait follows its orders. */
  clockWatch?: ClockWatch;
}

/** Runs `fn` holding the account's submit lock (or throws the error that says who holds it). */
export type SubmitLock = <T>(fn: () => Promise<T>) => Promise<T>;

/** The desk's collaborators. */
export interface DeskDeps {
  api: OrdersApi;
  journal: JournalBase;
  lock: SubmitLock;
  clock: Clock;
  /** The account the credentials act for: the journal's key. */
  market: Marketplace;
  /** Messages for the person (stderr): warnings, and what needs their action. */
  info(line: string): void;
  /** Lines about what went as asked (an order accepted): shown only on a terminal or with --progress; `info` when absent. */
  progress?(line: string): void;
  /** Resolves when the person asks to stop (Ctrl-C); stops listening once `until` aborts. Following ends with exit 130. */
  stopSignal?(until: AbortSignal): Promise<string>;
  /**
   * How long after it was sent a batch without an answer stays in doubt (default DEFAULT_SETTLE_MS):
   * not sent again, nor taken as never placed, while the marketplace does not show its order.
   */
  settleMs?: number;
  /** The client's answer timeout (default DEFAULT_HTTP_TIMEOUT_MS): journalled with each order, with the window. */
  httpTimeoutMs?: number;
  /** The journals of the same state dir under other addresses, read only (other-addresses.ts); none when absent. */
  otherJournals?(): OtherJournal[];
}

/** The settle window when none is given: the client's default answer timeout plus SETTLE_MARGIN_MS (120 s). */
export const DEFAULT_SETTLE_MS = DEFAULT_HTTP_TIMEOUT_MS + SETTLE_MARGIN_MS;

/** A bid to place; `line` is where it came from in `PlaceOptions.source`, for messages. */
export interface DeskBid extends BidRequest {
  line?: number;
}

/** How to place. */
export interface PlaceOptions {
  /** Asked once every check has passed and before anything is sent, with the bids to send; false sends nothing. */
  confirm?: (bids: readonly DeskBid[]) => Promise<boolean>;
  /**
   * Bid even on listings the journal or the marketplace holds (the marketplace is not asked what it holds; it is
   * still asked which listings can take bids: those that cannot are left out all the same).
   */
  allowDuplicate?: boolean;
  /** Leave out the listings held (instead of refusing the whole file) and place the rest. */
  skipHeld?: boolean;
  /** Follow the orders until every bid has a result; progress goes to `progress`, else to `info`. */
  wait?: FollowPlan & { progress?: Progress };
  /** Where the bids came from (a file name), named in refusals as `SOURCE line N`. */
  source?: string;
}

/** How a placement ended. Failures are thrown instead, as a CliError with their exit code. */
export type Verdict = 'placed' | 'cancelled' | 'incomplete';

/** The exit code of each verdict, from the one table. */
export const VERDICT_EXIT = { placed: EXIT.OK, cancelled: EXIT.USAGE, incomplete: EXIT.INCOMPLETE } as const satisfies Record<
  Verdict,
  number
>;

/** What a placement did. */
export interface Placement {
  verdict: Verdict;
  exitCode: (typeof VERDICT_EXIT)[Verdict];
  /** Each bid of each order placed, as last seen. */
  rows: BidRow[];
  orderIds: string[];
}
