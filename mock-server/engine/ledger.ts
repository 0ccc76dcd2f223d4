/**
 * The ledger: the only way money moves. Every change of an account's cash is one entry, so the sum
 * of an account's entries is its cash; a debit that would take cash below zero is a bug and throws.
 */
import { cents } from '../kit/money.js';
import type { Bid, LedgerEntry, Note, World } from '../world/world.js';
import { notesOf, ordersOf } from '../world/world-index.js';

/**
 * Ledger entry kinds. Money entering or leaving the investor's world is external; the rest moves within it.
 * NOTE_PURCHASE is a seeded note's purchase: the bid that bought it before the world began (the seed keeps no
 * order for it). PRINCIPAL to COLLECTION_FEE are a note's share of a loan's posting (postings.ts).
 */
export const LEDGER_KINDS = {
  DEPOSIT: 'DEPOSIT',
  WITHDRAWAL: 'WITHDRAWAL',
  ORDER_DEBIT: 'ORDER_DEBIT',
  BID_REFUND: 'BID_REFUND',
  NOTE_PURCHASE: 'NOTE_PURCHASE',
  PRINCIPAL: 'PRINCIPAL',
  INTEREST: 'INTEREST',
  LATE_FEE: 'LATE_FEE',
  SERVICE_FEE: 'SERVICE_FEE',
  COLLECTION_FEE: 'COLLECTION_FEE',
} as const;

/** Kinds that bring money in from outside (or send it out): they change cash + pending + invested principal. */
export const EXTERNAL_KINDS: ReadonlySet<string> = new Set([
  'DEPOSIT',
  'WITHDRAWAL',
  'INTEREST',
  'LATE_FEE',
  'SERVICE_FEE',
  'COLLECTION_FEE',
]);

/** Kinds that are a note's share of a loan's posting: what the account's payment rows must explain. */
export const NOTE_KINDS: ReadonlySet<string> = new Set(['PRINCIPAL', 'INTEREST', 'LATE_FEE', 'SERVICE_FEE', 'COLLECTION_FEE']);

/** Posts one entry and moves the account's cash by `amount`. */
export function post(world: World, accountId: string, amount: number, kind: string, ref: string | null, at: number): void {
  const account = world.accounts.get(accountId);
  if (!account) throw new Error(`ledger: no account ${accountId}`);
  const amt = cents(amount);
  if (amt === 0) return;
  const next = cents(account.cash + amt);
  if (next < 0) throw new Error(`ledger: ${kind} of ${amt} would take ${accountId} below zero (${account.cash})`);
  account.cash = next;
  world.ledger.push({ at, accountId, amount: amt, kind, ref });
}

/** What a bid still holds of the investor's money: the whole amount until processed, then what was placed. */
export function bidPending(b: Bid): number {
  if (b.bid_status !== 'PENDING') return 0;
  return b.bid_result === 'NONE' ? b.bid_amount : b.bid_amount_placed;
}

/** Principal still outstanding on a note. */
export function notePrincipal(n: Note): number {
  return n.principal ?? n.amount;
}

/** Cash, pending investments and outstanding note principal of one account. */
export interface Balances {
  cash: number;
  pending: number;
  invested: number;
  total: number;
}

/** Balances of every account (each from its own orders and notes). */
export function allBalances(world: World): Map<string, Balances> {
  return new Map([...world.accounts.keys()].map((id) => [id, balancesOf(world, id)]));
}

/** Balances of one account, from the indexes of its orders and notes. */
export function balancesOf(world: World, accountId: string): Balances {
  const account = world.accounts.get(accountId);
  if (!account) return { cash: 0, pending: 0, invested: 0, total: 0 };
  let pending = 0;
  let invested = 0;
  for (const o of ordersOf(world, accountId)) for (const bid of o.bids) pending += bidPending(bid);
  for (const n of notesOf(world, accountId)) invested += notePrincipal(n);
  pending = cents(pending);
  invested = cents(invested);
  return { cash: account.cash, pending, invested, total: cents(account.cash + pending + invested) };
}

/**
 * The latest entry of `kind` on an account, or undefined: the last posted, as deposits and withdrawals are
 * posted in the order of their times (the seed posts a seeded investor's history before its last year's funding).
 * The ledger only grows, so the last entry of each account and kind is kept (the world's `lastEntries`) and
 * caught up with the entries posted since the previous read: the account answer read it daily by a scan of the
 * whole ledger, back to a deposit made when the world began (a sixth of a simulated year).
 */
export function lastEntry(world: World, accountId: string, kind: string): LedgerEntry | undefined {
  const ledger = world.ledger;
  let kept = world.index.lastEntries;
  // A ledger replaced or cut (nothing does either now) is read again from its start.
  if (kept === null || kept.ledger !== ledger || kept.seen > ledger.length) {
    kept = { ledger, seen: 0, byAccount: new Map() };
    world.index.lastEntries = kept;
  }
  for (; kept.seen < ledger.length; kept.seen++) {
    const e = ledger[kept.seen]!;
    let kinds = kept.byAccount.get(e.accountId);
    if (!kinds) kept.byAccount.set(e.accountId, (kinds = new Map()));
    kinds.set(e.kind, e);
  }
  return kept.byAccount.get(accountId)?.get(kind);
}
