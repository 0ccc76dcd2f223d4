/**
 * The order journal: an append-only, fsync'd JSON-lines file per profile that records every order
 * before it is sent and its result after, so that money is never bid twice — not after a crash,
 * not after a lost answer, not when the same file is submitted again.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BidRequest } from '../api/orders.js';

/** One journal line. */
export type JournalEntry =
  | { t: 'intent'; batch: string; at: string; base_url: string; bids: BidRequest[] }
  | { t: 'accepted'; batch: string; at: string; order_id: string }
  | { t: 'rejected'; batch: string; at: string; status: number; code?: string; message?: string }
  | { t: 'lost'; batch: string; at: string; error: string }
  | { t: 'reconciled'; batch: string; at: string; order_id: string | null }
  | { t: 'outcome'; at: string; order_id: string; bids: Array<{ listing_id: number; bid_status: string; bid_result?: string }> };

/** What the journal knows of one sent (or attempted) order. */
export interface BatchState {
  batch: string;
  at: string;
  baseUrl: string;
  bids: BidRequest[];
  /** unknown: sent, answer not seen; accepted: the marketplace has it; rejected / not-placed: nothing placed. */
  status: 'unknown' | 'accepted' | 'rejected' | 'not-placed';
  orderId: string | null;
}

/** Why a listing may not be bid on again. */
export interface ListingHold {
  listingId: number;
  state: 'unknown' | 'PENDING' | 'INVESTED';
  orderId: string | null;
  batch: string;
}

/** The journal file of a profile. */
export class Journal {
  constructor(readonly path: string) {}

  /** Appends one entry and forces it to disk before returning. */
  append(entry: JournalEntry): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const fd = openSync(this.path, 'a', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(entry)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** Every entry; a torn last line (a crash mid-write) is skipped. */
  entries(): JournalEntry[] {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return [];
    }
    const out: JournalEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as JournalEntry);
      } catch {
        // A partial line can only be the last one written before a crash: its batch stays unknown.
      }
    }
    return out;
  }

  /** The state of every batch sent to `baseUrl`, oldest first. */
  batches(baseUrl: string): BatchState[] {
    const map = new Map<string, BatchState>();
    for (const e of this.entries()) {
      if (e.t === 'intent') {
        map.set(e.batch, { batch: e.batch, at: e.at, baseUrl: e.base_url, bids: e.bids, status: 'unknown', orderId: null });
        continue;
      }
      if (e.t === 'outcome') continue;
      const b = map.get(e.batch);
      if (!b) continue;
      if (e.t === 'accepted') Object.assign(b, { status: 'accepted', orderId: e.order_id });
      else if (e.t === 'rejected') b.status = 'rejected';
      else if (e.t === 'lost') b.status = 'unknown';
      else if (e.t === 'reconciled') Object.assign(b, e.order_id ? { status: 'accepted', orderId: e.order_id } : { status: 'not-placed' });
    }
    return [...map.values()].filter((b) => b.baseUrl === baseUrl);
  }

  /** The last bid statuses seen per order. */
  outcomes(): Map<string, Map<number, string>> {
    const out = new Map<string, Map<number, string>>();
    for (const e of this.entries()) {
      if (e.t !== 'outcome') continue;
      out.set(e.order_id, new Map(e.bids.map((b) => [Number(b.listing_id), b.bid_status])));
    }
    return out;
  }

  /** Listings that must not be bid on again: outcome unknown, or a bid PENDING or INVESTED. */
  holds(baseUrl: string): Map<number, ListingHold> {
    const outcomes = this.outcomes();
    const holds = new Map<number, ListingHold>();
    for (const b of this.batches(baseUrl)) {
      if (b.status === 'rejected' || b.status === 'not-placed') continue;
      for (const bid of b.bids) {
        if (b.status === 'unknown') {
          holds.set(bid.listing_id, { listingId: bid.listing_id, state: 'unknown', orderId: null, batch: b.batch });
          continue;
        }
        const seen = outcomes.get(b.orderId!)?.get(bid.listing_id) ?? 'PENDING';
        if (seen === 'EXPIRED') continue;
        holds.set(bid.listing_id, { listingId: bid.listing_id, state: seen === 'INVESTED' ? 'INVESTED' : 'PENDING', orderId: b.orderId, batch: b.batch });
      }
    }
    return holds;
  }
}
