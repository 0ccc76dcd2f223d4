import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, openJournal, profileEntries } from '../src/orders/journal.js';
import { marketplaceKey, type Marketplace } from '../src/orders/marketplace.js';

const BASE = 'http://127.0.0.1:4010/v1';
const M = { account: 'acct-1', key: marketplaceKey(BASE, 'acct-1') };
const fresh = () => new Journal(join(mkdtempSync(join(tmpdir(), 'mkt-journal-')), 'p', 'journal.jsonl'));
const at = '2026-01-01T00:00:00Z';

describe('the order journal', () => {
  it('holds listings of an order whose answer was never seen', () => {
    const j = fresh();
    j.append({ t: 'intent', batch: 'b1', at, base_url: BASE, bids: [{ listing_id: 1, bid_amount: 25 }] });
    expect(j.holds(M).get(1)?.state).toBe('unknown');
  });

  it('holds PENDING and INVESTED bids, frees EXPIRED ones and rejected orders', () => {
    const j = fresh();
    j.append({ t: 'intent', batch: 'b1', at, base_url: BASE, bids: [{ listing_id: 1, bid_amount: 25 }, { listing_id: 2, bid_amount: 25 }, { listing_id: 3, bid_amount: 25 }] });
    j.append({ t: 'accepted', batch: 'b1', at, order_id: 'o1' });
    j.append({ t: 'outcome', at, order_id: 'o1', bids: [{ listing_id: 1, bid_status: 'PENDING' }, { listing_id: 2, bid_status: 'INVESTED' }, { listing_id: 3, bid_status: 'EXPIRED' }] });
    j.append({ t: 'intent', batch: 'b2', at, base_url: BASE, bids: [{ listing_id: 4, bid_amount: 25 }] });
    j.append({ t: 'rejected', batch: 'b2', at, status: 400, code: 'ORD0021' });
    const holds = j.holds(M);
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
    const holds = j.holds(M);
    expect(holds.get(1)).toMatchObject({ state: 'PENDING', orderId: 'o9' });
    expect(holds.has(2)).toBe(false);
  });

  it('keeps marketplaces apart', () => {
    const j = fresh();
    j.append({ t: 'intent', batch: 'b1', at, base_url: 'http://other/v1', bids: [{ listing_id: 1, bid_amount: 25 }] });
    expect(j.holds(M).size).toBe(0);
  });

  it('survives a torn last line from a crash, leaving that order unknown', () => {
    const j = fresh();
    j.append({ t: 'intent', batch: 'b1', at, base_url: BASE, bids: [{ listing_id: 1, bid_amount: 25 }] });
    appendFileSync(j.path, '{"t":"accepted","batch":"b1","at":"2026');
    expect(j.entries()).toHaveLength(1);
    expect(j.holds(M).get(1)?.state).toBe('unknown');
  });

  it('holds a keyed order whatever spelling of the address the next run uses', () => {
    const j = fresh();
    j.append({ t: 'intent', batch: 'b1', at, base_url: BASE, market: M.key, bids: [{ listing_id: 1, bid_amount: 25 }] });
    const other = { account: 'acct-1', key: marketplaceKey('HTTP://LocalHost:4010/v1//', 'acct-1') };
    expect(j.holds(other).get(1)?.state).toBe('unknown');
  });

  it('honours an entry of an older version, keyed by its URL only, under another spelling', () => {
    const j = fresh();
    j.append({ t: 'intent', batch: 'b1', at, base_url: 'http://localhost:4010/v1/', bids: [{ listing_id: 1, bid_amount: 25 }] });
    expect(j.holds(M).get(1)?.state).toBe('unknown');
  });

  it('keeps accounts apart at one marketplace', () => {
    const j = fresh();
    j.append({ t: 'intent', batch: 'b1', at, base_url: BASE, market: marketplaceKey(BASE, 'acct-2'), bids: [{ listing_id: 1, bid_amount: 25 }] });
    expect(j.holds(M).size).toBe(0);
  });
});

describe('where the journal lives', () => {
  const market = (baseUrl: string, account = 'acct-1'): Marketplace => ({ baseUrl, account, key: marketplaceKey(baseUrl, account) });

  it('is one journal and one lock per account, shared by spellings and profiles', () => {
    const state = mkdtempSync(join(tmpdir(), 'mkt-state-'));
    const a = openJournal(state, 'default', market(BASE));
    const b = openJournal(state, 'other', market('http://[::1]:4010/v1/'));
    expect(b.journal.path).toBe(a.journal.path);
    expect(b.lock).toBe(a.lock);
    expect(openJournal(state, 'default', market(BASE, 'acct-2')).journal.path).not.toBe(a.journal.path);
  });

  it("reads the profile's journal of an older version, and never writes to it", () => {
    const state = mkdtempSync(join(tmpdir(), 'mkt-state-'));
    mkdirSync(join(state, 'default'));
    const old = join(state, 'default', 'journal.jsonl');
    writeFileSync(old, `${JSON.stringify({ t: 'intent', batch: 'b0', at, base_url: 'http://localhost:4010/v1', bids: [{ listing_id: 7, bid_amount: 25 }] })}\n`);
    const { journal } = openJournal(state, 'default', market(BASE));
    expect(journal.holds(M).get(7)?.state).toBe('unknown');
    journal.append({ t: 'reconciled', batch: 'b0', at, order_id: null });
    expect(journal.holds(M).has(7)).toBe(false);
    expect(new Journal(old).entries()).toHaveLength(1);
  });

  it('lists for `order journal` the older journal and every account journal the profile used, by time', () => {
    const state = mkdtempSync(join(tmpdir(), 'mkt-state-'));
    mkdirSync(join(state, 'p'));
    writeFileSync(join(state, 'p', 'journal.jsonl'), `${JSON.stringify({ t: 'lost', batch: 'b0', at: '2026-01-01T00:00:02Z', error: 'x' })}\n`);
    openJournal(state, 'p', market(BASE)).journal.append({ t: 'lost', batch: 'b1', at: '2026-01-01T00:00:03Z', error: 'x' });
    openJournal(state, 'p', market('https://lending.example/v1')).journal.append({ t: 'lost', batch: 'b2', at: '2026-01-01T00:00:01Z', error: 'x' });
    openJournal(state, 'q', market('https://elsewhere.example/v1')).journal.append({ t: 'lost', batch: 'b3', at, error: 'x' });
    openJournal(state, 'p', market('http://localhost:4010/v1'));
    expect(profileEntries(state, 'p').map((e) => ('batch' in e ? e.batch : ''))).toEqual(['b2', 'b0', 'b1']);
  });
});
