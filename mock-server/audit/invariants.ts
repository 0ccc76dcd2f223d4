/**
 * The invariants of the marketplace, checked over the whole world: what GET /__mock/state reports
 * and what the property tests assert after every step. The books (books.ts): every account's cash from its
 * deposits, withdrawals, bids, refunds and payment rows; every note's rows against its figures.
 */
import { cents } from '../kit/money.js';
import type { World } from '../world/world.js';
import { checkBooks } from './books.js';
import { allBalances, bidPending, EXTERNAL_KINDS } from '../engine/ledger.js';

/** The outcome of a check: ok, or the first violations found. */
export interface InvariantReport {
  ok: boolean;
  violations: string[];
}

const EPS = 0.005;

/** Checks every invariant; lists at most 20 violations. */
export function checkInvariants(world: World): InvariantReport {
  const v: string[] = [];
  const note = (s: string): void => {
    if (v.length < 20) v.push(s);
  };
  const ledgerSum = new Map<string, number>();
  const external = new Map<string, number>();
  for (const e of world.ledger) {
    ledgerSum.set(e.accountId, (ledgerSum.get(e.accountId) ?? 0) + e.amount);
    if (EXTERNAL_KINDS.has(e.kind)) external.set(e.accountId, (external.get(e.accountId) ?? 0) + e.amount);
  }
  // Notes seeded before the seed posted its history entered the world without a debit; principal written off left it
  // without a credit (and what a collection brings back of it returns as principal).
  for (const n of world.notes) {
    external.set(n.accountId, (external.get(n.accountId) ?? 0) + (n.initialPrincipal ?? 0) - (n.chargedOff ?? 0));
  }
  const balances = allBalances(world);
  for (const a of world.accounts.values()) {
    if (a.cash < 0) note(`account ${a.id}: cash ${a.cash} is negative`);
    if (Math.abs(cents(ledgerSum.get(a.id) ?? 0) - a.cash) > EPS)
      note(`account ${a.id}: cash ${a.cash} differs from its ledger ${cents(ledgerSum.get(a.id) ?? 0)}`);
    const b = balances.get(a.id)!;
    const expected = cents(external.get(a.id) ?? 0);
    if (Math.abs(b.total - expected) > EPS) {
      note(`account ${a.id}: cash + pending + invested principal is ${b.total}, expected ${expected} from deposits and earnings`);
    }
  }
  const placedOn = new Map<number, number>();
  for (const o of world.orders.values()) {
    const seen = new Set<number>();
    let done = o.processed;
    for (const b of o.bids) {
      if (seen.has(b.listing_id)) note(`order ${o.order_id}: listing ${b.listing_id} appears twice`);
      seen.add(b.listing_id);
      if (b.bid_amount_placed > b.bid_amount + EPS)
        note(`order ${o.order_id}: placed ${b.bid_amount_placed} above bid ${b.bid_amount} on ${b.listing_id}`);
      if (b.bid_status === 'PENDING' || b.bid_status === 'INVESTED') {
        placedOn.set(b.listing_id, (placedOn.get(b.listing_id) ?? 0) + b.bid_amount_placed);
      }
      if ((b.bid_status === 'INVESTED') !== (b.note_number !== null))
        note(`order ${o.order_id}: bid on ${b.listing_id} is ${b.bid_status} with note ${b.note_number}`);
      if (b.bid_status === 'PENDING') done = false;
      if (bidPending(b) < 0) note(`order ${o.order_id}: negative pending on ${b.listing_id}`);
    }
    if ((o.order_status === 'COMPLETED') !== done)
      note(`order ${o.order_id}: status ${o.order_status} but bids ${done ? 'all' : 'not all'} final`);
  }
  for (const l of world.listings) {
    if (l.amount_funded > l.listing_amount + EPS)
      note(`listing ${l.listing_number}: funded ${l.amount_funded} above its amount ${l.listing_amount}`);
    const ours = placedOn.get(l.listing_number) ?? 0;
    if (ours > l.amount_funded + EPS) note(`listing ${l.listing_number}: bids placed ${cents(ours)} above its funded ${l.amount_funded}`);
    if (Math.abs(l.amount_funded + l.amount_remaining - l.listing_amount) > EPS)
      note(`listing ${l.listing_number}: funded + remaining differs from its amount`);
  }
  checkBooks(world, note);
  return { ok: v.length === 0, violations: v };
}
