import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../src/orders/journal.js';

const BASE = 'http://127.0.0.1:4010/v1';
const fresh = () => new Journal(join(mkdtempSync(join(tmpdir(), 'mkt-journal-')), 'p', 'journal.jsonl'));
const at = '2026-01-01T00:00:00Z';

describe('the order journal', () => {
  it('holds listings of an order whose answer was never seen', () => {
    const j = fresh();
    j.append({ t: 'intent', batch: 'b1', at, base_url: BASE, bids: [{ listing_id: 1, bid_amount: 25 }] });
    expect(j.holds(BASE).get(1)?.state).toBe('unknown');
  });

  it('holds PENDING and INVESTED bids, frees EXPIRED ones and rejected orders', () => {
    const j = fresh();
    j.append({ t: 'intent', batch: 'b1', at, base_url: BASE, bids: [{ listing_id: 1, bid_amount: 25 }, { listing_id: 2, bid_amount: 25 }, { listing_id: 3, bid_amount: 25 }] });
    j.append({ t: 'accepted', batch: 'b1', at, order_id: 'o1' });
    j.append({ t: 'outcome', at, order_id: 'o1', bids: [{ listing_id: 1, bid_status: 'PENDING' }, { listing_id: 2, bid_status: 'INVESTED' }, { listing_id: 3, bid_status: 'EXPIRED' }] });
    j.append({ t: 'intent', batch: 'b2', at, base_url: BASE, bids: [{ listing_id: 4, bid_amount: 25 }] });
    j.append({ t: 'rejected', batch: 'b2', at, status: 400, code: 'ORD0021' });
    const holds = j.holds(BASE);
    expect(holds.get(1)?.state).toBe('PENDING');
    expect(holds.get(2)?.state).toBe('INVESTED');
    expect(holds.has(3)).toBe(false);
    expect(holds.has(4)).toBe(false);
  });

  it('follows reconciliation: found means accepted, absent frees the bids', () => {
    const j = fresh();
    j.append({ t: 'intent', batch: 'b1', at, base_url: BASE, bids: [{ listing_id: 1, bid_amount: 25 }] });
    j.append({ t: 'lost', batch: 'b1', at, error: 'socket hang up' });
    j.append({ t: 'intent', batch: 'b2', at, base_url: BASE, bids: [{ listing_id: 2, bid_amount: 25 }] });
    j.append({ t: 'reconciled', batch: 'b1', at, order_id: 'o9' });
    j.append({ t: 'reconciled', batch: 'b2', at, order_id: null });
    const holds = j.holds(BASE);
    expect(holds.get(1)).toMatchObject({ state: 'PENDING', orderId: 'o9' });
    expect(holds.has(2)).toBe(false);
  });

  it('keeps marketplaces apart', () => {
    const j = fresh();
    j.append({ t: 'intent', batch: 'b1', at, base_url: 'http://other/v1', bids: [{ listing_id: 1, bid_amount: 25 }] });
    expect(j.holds(BASE).size).toBe(0);
  });

  it('survives a torn last line from a crash, leaving that order unknown', () => {
    const j = fresh();
    j.append({ t: 'intent', batch: 'b1', at, base_url: BASE, bids: [{ listing_id: 1, bid_amount: 25 }] });
    appendFileSync(j.path, '{"t":"accepted","batch":"b1","at":"2026');
    expect(j.entries()).toHaveLength(1);
    expect(j.holds(BASE).get(1)?.state).toBe('unknown');
  });
});
