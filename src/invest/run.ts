/**
 * One `mkt invest run`: gather the market (account, orders, journal, each rule's listings), plan,
 * and hand the bids to the order desk. A real run does all of it inside the desk's session, under
 * the account's lock (its --wait included): a second run exits 2 at once, or with --wait-lock waits
 * and plans from what the first placed, so two runs never bid more than one would. `now` is the
 * marketplace's (its answers' Date), the clock its listings start on. The reads and the desk are passed in.
 */
import * as accounts from '../api/accounts.js';
import type { ApiClient, ListEnvelope } from '../api/client.js';

/** A page of listings as a run reads it: their fields by name (the planner checks what it uses). */
export type ListingPage = ListEnvelope<Record<string, unknown>>;
import * as listings from '../api/listings.js';
import * as orders from '../api/orders.js';
import { paginate } from '../api/pagination.js';
import { formatDateTime, parseFilterDate } from '../contract/dates.js';
import { PAGINATION } from '../contract/enums.js';
import { toNumber, type Bid, type Order } from '../contract/decode.js';
import { CliError, EXIT } from '../errors.js';
import type { DeskBid, PlaceOptions, Placement } from '../orders/desk-api.js';
import type { ListingHold } from '../orders/journal.js';
import { candidateFromListing, requestedToday, ruleQuery, type Candidate, type Market, type TakenReason } from './market.js';
import { whyNotBiddable } from './marketplace-rules.js';
import { noBidReason } from './no-bid-reason.js';
import { canStillUse, plan, type Decision } from './planner.js';
import type { Strategy } from './strategy.js';

/** A bid as the orders list shows it (any field may be missing; amounts may be decimal strings). */
export type SeenBid = Bid;

/** An order as a run reads it. */
export type SeenOrder = Pick<Order, 'order_date' | 'bid_requests'>;

/** The marketplace reads a run makes. */
export interface MarketReads {
  /** GET /accounts/platform. */
  account(): Promise<Record<string, unknown>>;
  /** One page of GET listings. */
  listingsPage(query: URLSearchParams): Promise<ListingPage>;
  /** Every order of the account. */
  orders(): AsyncIterable<SeenOrder>;
}

/** What a run needs of the order desk (src/orders/desk.ts). */
export interface RunDesk {
  session<T>(fn: () => Promise<T>): Promise<T>;
  holds(): Map<number, ListingHold>;
  place(bids: readonly DeskBid[], opts: PlaceOptions): Promise<Placement>;
}

/** A run's collaborators. */
export interface RunDeps {
  reads: MarketReads;
  desk: RunDesk;
  /** The marketplace's time (ApiClient.marketNow), read once the account and orders are in: "started by now", "today". */
  now(): number;
  /** The time zone the API reads filter dates in (the timezone header sent), UTC when undefined. */
  zone?: string | undefined;
  /** Messages for the person (stderr). */
  info(line: string): void;
  /** Per-listing notes the person may want at a terminal (a listing found that cannot take bids): `info` when absent. */
  progress?(line: string): void;
  /**
   * Rows a page of a rule's search asks for while the rule can still make `bids` more (Infinity: only money
   * bounds it); the API's most when absent, as over a network a round trip costs more than rows. The
   * simulation asks for few: its round trips cost nothing and each row the mock's rendering.
   */
  pageRows?(bids: number): number;
}

/** How to run. */
export interface RunOptions {
  /** Plan against the live marketplace, send nothing, take no lock. */
  dryRun: boolean;
  /** Asked under the lock once the plan is made and before anything is sent; false sends nothing (exit 2). */
  confirm?: (bids: readonly DeskBid[], total: number) => Promise<boolean>;
  wait?: PlaceOptions['wait'];
}

/** What a run did: the report printed, logged and sent, plus the exit code. */
export interface RunOutcome {
  decisions: Decision[];
  /** Order ids placed. */
  orders: string[];
  /** Dollars bid (planned, on a dry run). */
  total_bid: number;
  dry_run: boolean;
  exitCode: number;
  /** Each candidate's rating, for totals by rating. */
  ratings: ReadonlyMap<number, string>;
  /** Why nothing was bid, in one line (null when something was). */
  reason: string | null;
}

/** The reads over the HTTP client. */
export function marketReads(client: ApiClient): MarketReads {
  return {
    account: () => accounts.platform(client),
    listingsPage: (q) => listings.search(client, q),
    orders: () => orders.listAll(client),
  };
}

const cents = (dollars: number): number => Math.round(dollars * 100);

/** Gathers, plans and (unless a dry run) places. Failures of the desk are thrown as CliErrors. */
export async function investRun(strategy: Strategy, deps: RunDeps, opts: RunOptions): Promise<RunOutcome> {
  const go = async (): Promise<RunOutcome> => {
    const { market, ratings } = await gatherMarket(strategy, deps);
    const decisions = plan(strategy, market);
    const bids: DeskBid[] = decisions.flatMap((d) =>
      d.action === 'bid' && d.amount !== null ? [{ listing_id: d.listing_id, bid_amount: d.amount }] : [],
    );
    const planned = bids.reduce((s, b) => s + cents(b.bid_amount), 0) / 100;
    const base = { decisions, ratings, dry_run: opts.dryRun, reason: noBidReason(strategy, market, decisions) };
    if (opts.dryRun || bids.length === 0) return { ...base, orders: [], total_bid: planned, exitCode: EXIT.OK };
    const placed = await deps.desk.place(bids, {
      ...(opts.confirm ? { confirm: () => opts.confirm!(bids, planned) } : {}),
      ...(opts.wait ? { wait: opts.wait } : {}),
    });
    return { ...base, orders: placed.orderIds, total_bid: placed.verdict === 'cancelled' ? 0 : planned, exitCode: placed.exitCode };
  };
  return opts.dryRun ? go() : deps.desk.session(go);
}

/** Everything the planner needs, read from the marketplace and the journal; `ratings` maps each candidate to its rating. */
export async function gatherMarket(strategy: Strategy, deps: RunDeps): Promise<{ market: Market; ratings: Map<number, string> }> {
  const { reads, desk } = deps;
  const note = deps.progress ?? deps.info;
  const account = await reads.account();
  const cash = account.available_cash_balance;
  if (typeof cash !== 'number' || !Number.isFinite(cash)) {
    throw new CliError('the account answer has no available_cash_balance; nothing was sent', EXIT.UNREACHABLE);
  }
  const seen: SeenOrder[] = [];
  for await (const o of reads.orders()) seen.push(o);
  const pendingBids = seen.flatMap((o) => (o.bid_requests ?? []).filter((b) => b.bid_status === 'PENDING'));

  // Strongest reason last, so it wins: journal < pending (the marketplace says so) < held.
  const taken = new Map<number, TakenReason>();
  for (const [id, hold] of desk.holds()) taken.set(id, hold.state === 'INVESTED' ? 'held' : 'journal');
  for (const b of pendingBids) if (taken.get(Number(b.listing_id)) !== 'held') taken.set(Number(b.listing_id), 'pending');

  const now = deps.now();
  const candidates: Candidate[][] = [];
  const market: Market = {
    now,
    cash,
    taken,
    candidates,
    requested_today: requestedToday(seen, now),
    // Only rating_share reads it: without one, the portfolio is not paged through.
    principal_by_rating: strategy.rating_share ? await principalByRating(account, pendingBids, reads, note) : {},
  };
  const ratings = new Map<number, string>();
  for (let i = 0; i < strategy.rules.length; i++) {
    const list: Candidate[] = [];
    candidates.push(list);
    await ruleCandidates(strategy, market, i, deps, (l) => {
      const c = candidateFromListing(l);
      const why = typeof c === 'string' ? null : whyNotBiddable(l, now);
      const unfit = typeof c === 'string' ? c : why === null ? null : `listing ${c.listing_number}: ${why}`;
      if (unfit !== null) return note(`rule ${strategy.rules[i]!.name}: ${unfit}; not bid on`);
      if (typeof c === 'string') return;
      if (l.invested === true) taken.set(c.listing_number, 'held');
      ratings.set(c.listing_number, c.platform_rating);
      list.push(c);
    });
  }
  return { market, ratings };
}

/**
 * A rule's query limited to listings that have started by `now`: a search shows listings that start
 * later today, and one bid on them (ORD0020) sinks its whole order.
 * A rule's own earlier listing_start_date_max is kept.
 */
export function startedQuery(query: URLSearchParams, now: number, zone: string | undefined): URLSearchParams {
  const q = new URLSearchParams(query);
  const own = q.get('listing_start_date_max');
  const ownMax = own === null ? null : parseFilterDate(own, zone, true);
  if (ownMax === null || ownMax > now) q.set('listing_start_date_max', formatDateTime(now, zone).slice(0, 19));
  return q;
}

/**
 * Pages rule `i`'s search, handing each listing to `add`, while the caps can still use another bid. The
 * candidates come in the search's order whatever the pages' sizes (the market stands still while a run
 * reads it), so a page size changes the requests and never the plan.
 */
async function ruleCandidates(
  strategy: Strategy,
  market: Market,
  i: number,
  deps: Pick<RunDeps, 'reads' | 'zone' | 'pageRows'>,
  add: (l: Record<string, unknown>) => void,
): Promise<void> {
  const query = startedQuery(ruleQuery(strategy.rules[i]!), market.now, deps.zone);
  const max = PAGINATION.listings.max;
  for (let offset = 0, usable = canStillUse(strategy, market, i); usable > 0; usable = canStillUse(strategy, market, i)) {
    const limit = Math.min(max, Math.max(1, Math.ceil(deps.pageRows?.(usable) ?? max)));
    const q = new URLSearchParams(query);
    q.set('offset', String(offset));
    q.set('limit', String(limit));
    const page = await deps.reads.listingsPage(q);
    page.result.forEach(add);
    offset += page.result.length;
    if (page.result.length < limit || offset >= (toNumber(page.total_count) ?? Infinity)) return;
  }
}

const isRatingMap = (v: unknown): v is Record<string, number> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'number' && Number.isFinite(x));

/**
 * Invested plus pending principal per rating, for rating_share. The account's `invested_notes` and
 * `pending_bids` by rating when it has them (DESIGN.md: the real account carries them); otherwise
 * the caller's `amount_participation` in the originated listings they invested in (the principal
 * invested, not what is still outstanding: the loans resource gives only whole-loan balances) plus
 * the PENDING bids of their orders, each rated by its listing.
 */
export async function principalByRating(
  account: Record<string, unknown>,
  pendingBids: readonly SeenBid[],
  reads: MarketReads,
  info: (line: string) => void,
): Promise<Record<string, number>> {
  const out = new Map<string, number>();
  const add = (rating: string, dollars: number): void => void out.set(rating, (out.get(rating) ?? 0) + cents(dollars));
  const done = (): Record<string, number> => Object.fromEntries([...out].map(([r, c]) => [r, c / 100]));
  const { invested_notes: notes, pending_bids: pending } = account;
  if (isRatingMap(notes) && isRatingMap(pending)) {
    for (const m of [notes, pending]) for (const [r, v] of Object.entries(m)) add(r, v);
    return done();
  }
  const originated = new URLSearchParams({ biddable: 'false', invested: 'true' });
  const pageOf = (offset: number, limit: number): Promise<ListingPage> => {
    const p = new URLSearchParams(originated);
    p.set('offset', String(offset));
    p.set('limit', String(limit));
    return reads.listingsPage(p);
  };
  for await (const l of paginate(pageOf, PAGINATION.listings.max)) {
    const amount = Number(l.amount_participation);
    if (typeof l.platform_rating === 'string' && Number.isFinite(amount)) add(l.platform_rating, amount);
  }
  // A processed bid holds what was placed; an unprocessed one the whole amount (debited at once).
  const pendingBy = new Map<number, number>();
  for (const b of pendingBids) {
    const amount = b.bid_result && b.bid_result !== 'NONE' ? (b.bid_amount_placed ?? b.bid_amount) : b.bid_amount;
    pendingBy.set(Number(b.listing_id), (pendingBy.get(Number(b.listing_id)) ?? 0) + cents(toNumber(amount) ?? 0));
  }
  const rated = new Map<number, string>();
  const ids = [...pendingBy.keys()];
  for (let i = 0; i < ids.length; i += 100) {
    for (const whole of ['false', 'true']) {
      const q = new URLSearchParams({
        listing_number: ids.slice(i, i + 100).join(','),
        whole_loan: whole,
        offset: '0',
        limit: String(PAGINATION.listings.max),
      });
      for (const l of (await reads.listingsPage(q)).result)
        if (typeof l.platform_rating === 'string') rated.set(Number(l.listing_number), l.platform_rating);
    }
  }
  let unrated = 0;
  for (const [id, c] of pendingBy) {
    const rating = rated.get(id);
    if (rating === undefined) unrated++;
    else add(rating, c / 100);
  }
  if (unrated > 0) info(`${unrated} pending bid${unrated > 1 ? 's are' : ' is'} on listings no longer found; left out of rating_share`);
  return done();
}
