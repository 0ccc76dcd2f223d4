/**
 * A batch in doubt under one address of an account holds its listings for a run under another address
 * of the same account: the journal is kept per account and address, so the run through `:4010` reads
 * the journal of `:9090` too (read only). On the desk's fakes: two desks, one marketplace, one clock.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../src/errors.js';
import type { BadLine } from '../src/orders/journal-file.js';
import { accountDir, openJournal, type JournalEntry } from '../src/orders/journal.js';
import { marketplaceKey, type Marketplace } from '../src/orders/marketplace.js';
import { readOtherJournals, type OtherJournal } from '../src/orders/other-addresses.js';
import { bidsOn, failure, MARKET, setup, T0 } from './helpers/desk-fakes.js';

const FORWARDER = 'http://127.0.0.1:9090/v1';
const VIA_FORWARDER: Marketplace = { baseUrl: FORWARDER, account: MARKET.account, key: marketplaceKey(FORWARDER, MARKET.account) };
const DAY = 86_400_000;
/** A POST the server read and places after no test looks again. */
const NEVER = 10 * 365 * DAY;

/** A journal of another address as the desk reads it from disk. */
const onDisk = (entries: JournalEntry[], modifiedAt = T0, bad: BadLine[] = []): OtherJournal => ({
  path: '/state/accounts/9090/journal.jsonl',
  read: { entries: [...entries], bad, torn: null },
  modifiedAt,
});

/** A submit through the forwarder that loses its answer, the server placing it `late` ms after; then a desk through :4010 reading that journal. */
async function lostThroughForwarder(late = 20_000, others?: (entries: JournalEntry[]) => OtherJournal[]) {
  const first = setup({ deps: { market: VIA_FORWARDER } });
  first.api.next.push({ late });
  await failure(first.desk.place(bidsOn([1, 2])));
  const batch = (first.journal.list[0] as { batch: string }).batch;
  first.clock.set(T0 + 1000);
  const rerun = setup({ on: first, deps: { otherJournals: () => (others ?? ((e) => [onDisk(e)]))(first.journal.list) } });
  return { first, rerun, batch };
}

/** Orders the fake marketplace holds once every landing due by `at` has landed. */
async function ordersBy(run: ReturnType<typeof setup>, at: number): Promise<number> {
  run.clock.set(Math.max(run.clock.now(), at));
  for await (const _ of run.api.list()) void _;
  return run.api.orders.length;
}

describe('a batch in doubt under another address of the same account', () => {
  it('is refused (exit 2) naming the batch, the other address and until when; the first order lands: one order', async () => {
    const { first, rerun, batch } = await lostThroughForwarder();
    const written = first.journal.list.length;
    const err = await failure(rerun.desk.place(bidsOn([1, 3]), { source: 'bids.csv' }));
    expect(err.exitCode).toBe(EXIT.USAGE);
    expect(err.message).toBe(
      `refusing 1 bid that could place money twice; nothing was sent:\n  bids.csv line 2: listing 1: in doubt under another address: sent in batch ${batch} through http://127.0.0.1:9090/v1 at 2026-06-01T12:00:00Z without an answer, and the marketplace does not show that order yet; not sent again before 2026-06-01T12:02:00Z`,
    );
    expect(err.hint).toMatch(/^that order may still reach the marketplace: run again after 2026-06-01T12:02:00Z;/);
    expect(await ordersBy(rerun, T0 + 20_000)).toBe(1);
    // Read only: the other address's journal is its own runs' to settle.
    expect(first.journal.list).toHaveLength(written);
    expect(rerun.journal.list).toEqual([]);
  });

  it('--skip-held leaves its listings out and places the rest; --allow-duplicate sends them anyway', async () => {
    const { rerun } = await lostThroughForwarder(NEVER);
    const placed = await rerun.desk.place(bidsOn([1, 2, 3]), { skipHeld: true });
    expect(rerun.api.orders.map((o) => o.bid_requests.map((b) => b.listing_id))).toEqual([[3]]);
    expect(placed.orderIds).toEqual(['o1']);
    expect(
      rerun.lines.some((l) => /^leaving out 2 bids on listings already held:\n {2}listing 1: in doubt under another address: /.test(l)),
    ).toBe(true);
    await rerun.desk.place(bidsOn([1]), { allowDuplicate: true });
    expect(rerun.api.orders).toHaveLength(2);
  });

  it('once its window has passed, its listings are free here (its own journal still says unknown)', async () => {
    const { first, rerun } = await lostThroughForwarder(NEVER);
    rerun.clock.set(T0 + 120_000);
    await rerun.desk.place(bidsOn([1]));
    expect(rerun.api.orders).toHaveLength(1);
    expect(first.journal.list.map((e) => e.t)).toEqual(['intent', 'lost']);
  });

  it("held with the window it was sent under, not this run's", async () => {
    const first = setup({ deps: { market: VIA_FORWARDER, settleMs: 690_000, httpTimeoutMs: 600_000 } });
    first.api.next.push({ late: 630_000, after: 600_000 });
    await failure(first.desk.place(bidsOn([1])));
    first.clock.set(T0 + 601_000);
    const rerun = setup({ on: first, deps: { otherJournals: () => [onDisk(first.journal.list)] } });
    expect((await failure(rerun.desk.place(bidsOn([1])))).message).toMatch(/not sent again before 2026-06-01T12:11:30Z$/);
  });

  it('is left out by a planner (holds) and named by --dry-run (review) as the run refuses it', async () => {
    const { rerun, batch } = await lostThroughForwarder(NEVER);
    expect(rerun.desk.holds().get(2)).toEqual({ listingId: 2, state: 'unknown', orderId: null, batch });
    expect((await rerun.desk.review(bidsOn([2, 3]))).get(2)).toMatch(/^in doubt under another address: sent in batch /);
  });

  it("another account's batches, and this address's own journal, are not read as another address's", async () => {
    const other = setup({ deps: { market: { ...VIA_FORWARDER, account: 'acct-2', key: marketplaceKey(FORWARDER, 'acct-2') } } });
    other.api.next.push({ late: NEVER });
    await failure(other.desk.place(bidsOn([1])));
    const rerun = setup({ on: other, deps: { otherJournals: () => [onDisk(other.journal.list)] } });
    await rerun.desk.place(bidsOn([1]));
    expect(rerun.api.orders).toHaveLength(1);
  });
});

describe('a damaged journal of another address', () => {
  const bad = [{ line: 3, offset: 200, what: 'checksum does not match: the line was changed after it was written' }];

  it('of this account, written within 24 h: stops the run (exit 2) naming the file and line, nothing sent', async () => {
    const { rerun } = await lostThroughForwarder(NEVER, (e) => [onDisk(e.slice(0, 1), T0 + 1000 - DAY + 1, bad)]);
    const err = await failure(rerun.desk.place(bidsOn([7])));
    expect(err.exitCode).toBe(EXIT.USAGE);
    expect(err.message).toBe(
      "the order journal /state/accounts/9090/journal.jsonl (this account's journal under http://127.0.0.1:9090/v1) is damaged at line 3: checksum does not match: the line was changed after it was written; an order sent through it in the last 24 h may still be in doubt and cannot be read, so nothing was sent",
    );
    expect(err.hint).toContain('`mkt order journal --repair` under the profile that submits through http://127.0.0.1:9090/v1');
    expect(rerun.api.orders).toHaveLength(0);
  });

  it('whose account cannot be told (nothing readable, or not readable at all): stops the run too', async () => {
    for (const file of [
      onDisk([], T0, bad),
      { path: '/state/accounts/x/journal.jsonl', read: null, error: 'is a directory, not a regular file', modifiedAt: T0 },
    ]) {
      const { rerun } = await lostThroughForwarder(NEVER, () => [file]);
      expect((await failure(rerun.desk.place(bidsOn([7])))).message).toMatch(
        /^the order journal \/state\/accounts\/\S+ \(a journal of an address this run cannot tell\)/,
      );
    }
  });

  it('of this account, last written over 24 h ago: passed over with a note; of another account: passed over', async () => {
    const old = await lostThroughForwarder(NEVER, (e) => [onDisk(e, T0 + 1000 - DAY, bad)]);
    await old.rerun.desk.place(bidsOn([7]));
    expect(old.rerun.lines).toContain(
      'note: the order journal /state/accounts/9090/journal.jsonl (this account under http://127.0.0.1:9090/v1) is damaged at line 3: checksum does not match: the line was changed after it was written; last written over 24 h ago, it holds no order still in doubt',
    );
    expect(old.rerun.api.orders).toHaveLength(1);

    const foreign = setup({ deps: { market: { ...VIA_FORWARDER, account: 'acct-2', key: marketplaceKey(FORWARDER, 'acct-2') } } });
    await foreign.desk.place(bidsOn([1]));
    const rerun = setup({ on: foreign, deps: { otherJournals: () => [onDisk(foreign.journal.list, T0, bad)] } });
    await rerun.desk.place(bidsOn([7]));
    expect(rerun.api.orders).toHaveLength(2);
  });
});

describe('the journals of other addresses on disk', () => {
  it("are every account journal of the state dir but this address's, read as they are; one that cannot be read says why", () => {
    const state = mkdtempSync(join(tmpdir(), 'mkt-other-'));
    try {
      const intent = (market: Marketplace): JournalEntry => ({
        t: 'intent',
        batch: `b-${market.key}`,
        at: new Date(T0).toISOString(),
        base_url: market.baseUrl,
        market: market.key,
        bids: [{ listing_id: 1, bid_amount: 25 }],
      });
      for (const m of [MARKET, VIA_FORWARDER]) openJournal(state, 'default', m).journal.append(intent(m));
      const blocked = join(accountDir(state, 'acct-3@http://elsewhere'), 'journal.jsonl');
      mkdirSync(blocked, { recursive: true });
      mkdirSync(join(state, 'accounts', 'by-id'), { recursive: true });
      const found = readOtherJournals(state, MARKET.key);
      expect(found).toHaveLength(2);
      const forwarder = found.find((f) => f.path === join(accountDir(state, VIA_FORWARDER.key), 'journal.jsonl'))!;
      expect(forwarder.read!.entries).toEqual([intent(VIA_FORWARDER)]);
      expect(forwarder.modifiedAt).toBeGreaterThan(0);
      expect(found.find((f) => f.path === blocked)).toMatchObject({
        read: null,
        error: expect.stringMatching(/is a directory, not a regular file/),
      });
      // A damaged line is read as such, the rest kept.
      appendFileSync(forwarder.path, '{"t":"intent","sum":"0000000000000000"}\n');
      expect(readOtherJournals(state, MARKET.key).find((f) => f.path === forwarder.path)!.read!.bad).toHaveLength(1);
      expect(readOtherJournals(join(state, 'none'), MARKET.key)).toEqual([]);
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });
});
