import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../src/errors.js';
import { cutJournal, Journal, openJournal, profileEntries, type JournalEntry } from '../src/orders/journal.js';
import { encodeLine, JournalDamageError, parseJournal } from '../src/orders/journal-file.js';
import { marketplaceKey, type Marketplace } from '../src/orders/marketplace.js';
import { MemoryJournal } from '../src/orders/memory-journal.js';

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
    j.append({
      t: 'intent',
      batch: 'b1',
      at,
      base_url: BASE,
      bids: [
        { listing_id: 1, bid_amount: 25 },
        { listing_id: 2, bid_amount: 25 },
        { listing_id: 3, bid_amount: 25 },
      ],
    });
    j.append({ t: 'accepted', batch: 'b1', at, order_id: 'o1' });
    j.append({
      t: 'outcome',
      at,
      order_id: 'o1',
      bids: [
        { listing_id: 1, bid_status: 'PENDING' },
        { listing_id: 2, bid_status: 'INVESTED' },
        { listing_id: 3, bid_status: 'EXPIRED' },
      ],
    });
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
    j.append({
      t: 'intent',
      batch: 'b1',
      at,
      base_url: BASE,
      market: marketplaceKey(BASE, 'acct-2'),
      bids: [{ listing_id: 1, bid_amount: 25 }],
    });
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
    writeFileSync(
      old,
      `${JSON.stringify({ t: 'intent', batch: 'b0', at, base_url: 'http://localhost:4010/v1', bids: [{ listing_id: 7, bid_amount: 25 }] })}\n`,
    );
    const { journal } = openJournal(state, 'default', market(BASE));
    expect(journal.holds(M).get(7)?.state).toBe('unknown');
    journal.append({ t: 'reconciled', batch: 'b0', at, order_id: null });
    expect(journal.holds(M).has(7)).toBe(false);
    expect(new Journal(old).entries()).toHaveLength(1);
  });

  it('lists for `order journal` the older journal and every account journal the profile used, by time', () => {
    const state = mkdtempSync(join(tmpdir(), 'mkt-state-'));
    mkdirSync(join(state, 'p'));
    writeFileSync(
      join(state, 'p', 'journal.jsonl'),
      `${JSON.stringify({ t: 'lost', batch: 'b0', at: '2026-01-01T00:00:02Z', error: 'x' })}\n`,
    );
    openJournal(state, 'p', market(BASE)).journal.append({ t: 'lost', batch: 'b1', at: '2026-01-01T00:00:03Z', error: 'x' });
    openJournal(state, 'p', market('https://lending.example/v1')).journal.append({
      t: 'lost',
      batch: 'b2',
      at: '2026-01-01T00:00:01Z',
      error: 'x',
    });
    openJournal(state, 'q', market('https://elsewhere.example/v1')).journal.append({ t: 'lost', batch: 'b3', at, error: 'x' });
    openJournal(state, 'p', market('http://localhost:4010/v1'));
    expect(profileEntries(state, 'p').map((e) => ('batch' in e ? e.batch : ''))).toEqual(['b2', 'b0', 'b1']);
  });
});

describe('the journal on disk: a checksum per line', () => {
  const intent = (batch: string, listing_id = 1): JournalEntry => ({
    t: 'intent',
    batch,
    at,
    base_url: BASE,
    market: M.key,
    bids: [{ listing_id, bid_amount: 25.5 }],
  });

  it('writes each entry as one JSON line ending in its checksum, and reads it back', () => {
    const j = fresh();
    j.append(intent('b1'));
    const text = readFileSync(j.path, 'utf8');
    expect(text).toMatch(/^\{"t":"intent",.*,"sum":"[0-9a-f]{16}"\}\n$/);
    expect(j.entries()).toEqual([intent('b1')]);
  });

  it('reads the unchecksummed lines of older versions as before', () => {
    const j = fresh();
    mkdirSync(dirname(j.path), { recursive: true });
    writeFileSync(j.path, `${JSON.stringify(intent('old'))}\n`);
    j.append(intent('new', 2));
    expect(j.entries().map((e) => ('batch' in e ? e.batch : ''))).toEqual(['old', 'new']);
  });

  it('stops at a damaged line, naming the file and the line (exit 2)', () => {
    const j = fresh();
    j.append(intent('b1'));
    j.append({ t: 'accepted', batch: 'b1', at, order_id: 'o1' });
    const buf = readFileSync(j.path);
    buf[10] = 0;
    writeFileSync(j.path, buf);
    const err = (() => {
      try {
        j.entries();
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(JournalDamageError);
    expect((err as JournalDamageError).exitCode).toBe(EXIT.USAGE);
    expect((err as JournalDamageError).message).toContain(`the order journal ${j.path} is damaged at line 1: `);
  });

  it('names what is wrong: not UTF-8, not JSON, a line without a checksum after lines with one, a malformed checksum', () => {
    const line = encodeLine(intent('b1'));
    const cases: Array<[string, RegExp]> = [
      [`${line}\n\xff\n`, /not UTF-8/],
      [`${line}\n{"t":\n`, /not JSON|no checksum/],
      [`${line}\n${JSON.stringify(intent('b2'))}\n`, /no checksum after lines that have one/],
      [`${JSON.stringify({ ...intent('b2'), sum: 'xyz' })}\n`, /checksum is malformed/],
      [`${line.replace('25.5', '255')}\n`, /checksum does not match/],
    ];
    for (const [text, what] of cases) {
      const buf = Buffer.from(text, text.includes('\xff') ? 'latin1' : 'utf8');
      expect(parseJournal(buf).bad[0]?.what, text).toMatch(what);
    }
  });

  it('keeps out, as intact, a checksummed entry of a type a later version writes', () => {
    const later = encodeLine({ t: 'someday', at } as unknown as JournalEntry);
    const read = parseJournal(Buffer.from(`${later}\n${encodeLine(intent('b1'))}\n`));
    expect(read.bad).toEqual([]);
    expect(read.entries).toHaveLength(1);
  });

  it('tells any one changed byte from an entry: the line is bad, or the last line torn, never read as another entry', () => {
    const entries: JournalEntry[] = [
      intent('b1', 7),
      { t: 'accepted', batch: 'b1', at, order_id: 'o1' },
      { t: 'outcome', at, order_id: 'o1', bids: [{ listing_id: 7, bid_status: 'PENDING' }] },
    ];
    const whole = Buffer.from(entries.map((e) => `${encodeLine(e)}\n`).join(''));
    fc.assert(
      fc.property(fc.nat({ max: whole.length - 1 }), fc.integer({ min: 0, max: 255 }), (at, byte) => {
        fc.pre(whole[at] !== byte);
        const buf = Buffer.from(whole);
        buf[at] = byte;
        const read = parseJournal(buf);
        expect(read.bad.length > 0 || read.torn !== null).toBe(true);
        for (const e of read.entries) expect(entries).toContainEqual(e);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the window an order was sent under and when its answer was lost; any other value of those fields is a damaged line', () => {
    const sent = { ...intent('b1'), settle_ms: 690_000, timeout_ms: 600_000 } as JournalEntry;
    const lost: JournalEntry = { t: 'lost', batch: 'b1', at: '2026-06-01T12:10:00.000Z', error: 'Headers Timeout Error' };
    const read = parseJournal(Buffer.from(`${encodeLine(sent)}\n${encodeLine(lost)}\n`));
    expect(read).toMatchObject({ bad: [], entries: [sent, lost] });
    const j = new MemoryJournal();
    j.list.push(...read.entries);
    expect(j.batches(M)).toEqual([
      expect.objectContaining({ batch: 'b1', status: 'unknown', settleMs: 690_000, timeoutMs: 600_000, lostAt: lost.at }),
    ]);
    // Without them (an older version's entry) the batch says nothing of its window.
    j.list.splice(0, 1, intent('b1'));
    expect(j.batches(M)[0]).not.toHaveProperty('settleMs');
    const notMs = fc.oneof(
      fc.integer({ max: -1 }),
      fc.string(),
      fc.constant(null),
      fc.boolean(),
      fc.array(fc.nat(), { maxLength: 2 }),
      fc.double({ max: -Number.MIN_VALUE }),
    );
    fc.assert(
      fc.property(fc.constantFrom('settle_ms', 'timeout_ms'), notMs, (field, value) => {
        const line = encodeLine({ ...intent('b1'), [field]: value } as JournalEntry);
        expect(parseJournal(Buffer.from(`${line}\n`)).bad[0]?.what).toBe('not a whole intent entry');
      }),
      { numRuns: 300 },
    );
  });

  it('cuts a torn last line before the next entry, so that entry is not glued to it and lost', () => {
    const j = fresh();
    j.append(intent('b1'));
    appendFileSync(j.path, '{"t":"accepted","batch":"b1","at":"2026');
    expect(parseJournal(readFileSync(j.path)).torn?.line).toBe(2);
    j.append({ t: 'lost', batch: 'b1', at, error: 'x' });
    const read = parseJournal(readFileSync(j.path));
    expect(read).toMatchObject({ bad: [], torn: null });
    expect(read.entries.map((e) => e.t)).toEqual(['intent', 'lost']);
  });

  it('a repair keeps the whole file beside it and cuts at the first damaged line', () => {
    const j = fresh();
    j.append(intent('b1'));
    j.append(intent('b2', 2));
    j.append(intent('b3', 3));
    const whole = readFileSync(j.path);
    const second = whole.indexOf(0x0a) + 1;
    const buf = Buffer.from(whole);
    buf[second + 5] = 0x00;
    writeFileSync(j.path, buf);
    expect(cutJournal(j.path, '2026-06-01T12:00:00.000Z')).toMatchObject({
      bad: { line: 2 },
      dropped: 2,
      copy: `${j.path}.damaged-2026-06-01T12-00-00-000Z`,
    });
    expect(readFileSync(`${j.path}.damaged-2026-06-01T12-00-00-000Z`)).toEqual(buf);
    expect(j.entries().map((e) => ('batch' in e ? e.batch : ''))).toEqual(['b1']);
    expect(cutJournal(j.path, 'again')).toBeNull();
  });
});
