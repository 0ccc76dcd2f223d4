/**
 * A batch sent without an answer is in doubt: the server may have read it and place it after the client
 * gave up. Until the marketplace shows its order or the settle window has passed since it was sent, a
 * rerun neither sends it again nor records it as never placed. On the desk's fake clock, so the window's
 * edges are exact and nothing really waits.
 */
import { describe, expect, it } from 'vitest';
import { EXIT } from '../src/errors.js';
import { doubtEnds } from '../src/orders/reconcile.js';
import { bidsOn, failure, setup, T0 } from './helpers/desk-fakes.js';

/** A submit the server reads and places only after the run gave up; `never`: not within any test. */
const late = (ms: number) => ({ late: ms });
const NEVER = late(10 * 365 * 86_400_000);

const entries = (j: { list: { t: string }[] }) => j.list.map((e) => e.t);

describe('a batch whose answer was lost, on a rerun', () => {
  it('is waited for while the marketplace does not show it, recorded once it does, and not sent again (exit 2)', async () => {
    const { api, journal, desk, lines, clock } = setup();
    api.next.push(late(20_000));
    const lost = await failure(desk.place(bidsOn([1, 2])));
    expect(lost.exitCode).toBe(EXIT.UNREACHABLE);
    const again = await failure(desk.place(bidsOn([1, 2])));
    expect(again.exitCode).toBe(EXIT.USAGE);
    expect(again.message).toMatch(
      /^refusing 2 bids that could place money twice; nothing was sent:\n {2}listing 1: already PENDING in order o1\n/,
    );
    expect(api.orders).toHaveLength(1);
    expect(journal.list.find((e) => e.t === 'reconciled')).toMatchObject({ order_id: 'o1' });
    // It looked again until the order showed (placed 20 s after it was sent), no longer.
    expect(api.listedAt.at(-1)! - T0).toBeGreaterThanOrEqual(20_000);
    expect(clock.now() - T0).toBeLessThan(30_000);
    expect(
      lines.some((l) =>
        /^ {2}batch \S+ \(2 bids, sent 2026-06-01T12:00:00Z without an answer\) is not shown by the marketplace yet: it may still arrive, so it is not sent again before 2026-06-01T12:02:00Z$/.test(
          l,
        ),
      ),
    ).toBe(true);
    expect(lines).toContain('  waiting up to 120 s for the marketplace to show it (Ctrl-C stops, sending nothing)…');
    expect(lines).toContain('  order o1 was placed (the answer had been lost); it will not be sent again');
  });

  it('just before its window ends: one more look, at the end, before it is taken as never placed and sent', async () => {
    const settleMs = 60_000;
    const { api, journal, desk, clock } = setup({ deps: { settleMs } });
    api.next.push(NEVER);
    await failure(desk.place(bidsOn([1])));
    api.listedAt.splice(0);
    clock.set(T0 + settleMs - 1);
    const placed = await desk.place(bidsOn([1]));
    expect(api.listedAt).toEqual([T0 + settleMs - 1, T0 + settleMs]);
    expect(clock.sleeps).toEqual([1]);
    expect(entries(journal)).toEqual(['intent', 'lost', 'reconciled', 'intent', 'accepted', 'outcome']);
    expect(journal.list[2]).toMatchObject({ order_id: null, at: new Date(T0 + settleMs).toISOString() });
    expect(placed.orderIds).toEqual(['o1']);
  });

  it('once its window has ended: taken as never placed at the first look, and sent without waiting', async () => {
    const settleMs = 60_000;
    const { api, journal, desk, clock, lines } = setup({ deps: { settleMs } });
    api.next.push(NEVER);
    await failure(desk.place(bidsOn([1])));
    api.listedAt.splice(0);
    clock.set(T0 + settleMs);
    await desk.place(bidsOn([1]));
    expect(api.listedAt).toEqual([T0 + settleMs]);
    expect(clock.sleeps).toEqual([]);
    expect(entries(journal)).toEqual(['intent', 'lost', 'reconciled', 'intent', 'accepted', 'outcome']);
    expect(
      lines.some((l) => /batch \S+ never reached the marketplace: no order for it 60 s after it was sent \(the settle window\)/.test(l)),
    ).toBe(true);
  });

  it('a list asked for before the window ended says nothing of it, even when its answer comes after', async () => {
    const settleMs = 60_000;
    const { api, journal, desk, clock } = setup({ deps: { settleMs } });
    api.next.push(NEVER);
    await failure(desk.place(bidsOn([1])));
    api.listedAt.splice(0);
    // Every listing of the orders takes 5 s of the clock: the first begins 1 s before the end.
    const list = api.list.bind(api);
    api.list = async function* () {
      const started = clock.now();
      for await (const o of list()) yield o;
      clock.set(started + 5000);
    };
    clock.set(T0 + settleMs - 1000);
    await desk.place(bidsOn([1]));
    expect(api.listedAt[0]).toBe(T0 + settleMs - 1000);
    expect(api.listedAt).toHaveLength(2);
    expect(api.listedAt[1]).toBeGreaterThanOrEqual(T0 + settleMs);
    expect(entries(journal).slice(2)).toEqual(['reconciled', 'intent', 'accepted', 'outcome']);
  });

  it('when the window outlasts the wait: waits 120 s, then refuses naming the batch and when it may be sent; later it is sent', async () => {
    const settleMs = 600_000;
    const { api, journal, desk, clock } = setup({ deps: { settleMs } });
    api.next.push(NEVER);
    await failure(desk.place(bidsOn([1, 2])));
    const batch = journal.list[0]!.t === 'intent' ? (journal.list[0] as { batch: string }).batch : '';
    const held = await failure(desk.place(bidsOn([2, 3]), { source: 'bids.csv' }));
    expect(held.exitCode).toBe(EXIT.USAGE);
    expect(held.message).toBe(
      `refusing 1 bid that could place money twice; nothing was sent:\n  bids.csv line 2: listing 2: in doubt: sent in batch ${batch} at 2026-06-01T12:00:00Z without an answer, and the marketplace does not show that order yet; not sent again before 2026-06-01T12:10:00Z`,
    );
    expect(held.hint).toMatch(
      /^that order may still reach the marketplace: run again after 2026-06-01T12:10:00Z; .*--allow-duplicate sends these now too/,
    );
    expect(clock.now() - T0).toBe(120_000);
    expect(api.orders).toHaveLength(0);
    expect(entries(journal)).toEqual(['intent', 'lost']);
    clock.set(T0 + settleMs);
    await desk.place(bidsOn([2, 3]));
    expect(api.orders.map((o) => o.bid_requests.map((b) => b.listing_id))).toEqual([[2, 3]]);
  });

  it("waits at most 120 s in all in one run: a planner's session and its placement share the bound", async () => {
    const { api, desk, clock } = setup({ deps: { settleMs: 600_000 } });
    api.next.push(NEVER);
    await failure(desk.place(bidsOn([1])));
    const err = await failure(desk.session(() => desk.place(bidsOn([1]))));
    expect(err.message).toMatch(/listing 1: in doubt: /);
    expect(clock.now() - T0).toBe(120_000);
  });

  it('with --allow-duplicate is sent at once, without waiting: the one way round', async () => {
    const { api, desk, clock, lines } = setup();
    api.next.push(late(20_000));
    await failure(desk.place(bidsOn([1])));
    await desk.place(bidsOn([1]), { allowDuplicate: true });
    expect(clock.sleeps).toEqual([]);
    expect(
      lines.some((l) =>
        /^ {2}batch \S+ is still in doubt \(until 2026-06-01T12:02:00Z\): --allow-duplicate sends bids on its listings anyway; if that order arrives too, they are bid twice$/.test(
          l,
        ),
      ),
    ).toBe(true);
    // And it does arrive: asked for on purpose, the listing is bid twice.
    clock.set(T0 + 20_000);
    for await (const _ of api.list()) void _;
    expect(api.orders).toHaveLength(2);
  });

  it('Ctrl-C while waiting ends the run (exit 130) naming the batch; nothing is sent or recorded', async () => {
    const { api, journal, desk } = setup({ deps: { stopSignal: async () => 'SIGINT' } });
    api.next.push(NEVER);
    await failure(desk.place(bidsOn([1])));
    const err = await failure(desk.place(bidsOn([1])));
    expect(err.exitCode).toBe(EXIT.INTERRUPTED);
    expect(err.message).toMatch(
      /^interrupted \(SIGINT\) while waiting for the marketplace to show batch \S+ \(not sent again before 2026-06-01T12:02:00Z\): nothing was sent$/,
    );
    expect(api.orders).toHaveLength(0);
    expect(entries(journal)).toEqual(['intent', 'lost']);
  });
});

describe("the window a rerun holds a batch in doubt for is the sending run's, counted from when it gave up too", () => {
  /** Orders the fake marketplace holds once every landing due by `at` has landed. */
  const ordersBy = async (api: ReturnType<typeof setup>['api'], clock: ReturnType<typeof setup>['clock'], at: number): Promise<number> => {
    clock.set(Math.max(clock.now(), at));
    for await (const _ of api.list()) void _;
    return api.orders.length;
  };

  it('sent under MKT_HTTP_TIMEOUT=600 (window 690 s), lost after 600 s: a rerun with the default window 1 s later still waits for it', async () => {
    const first = setup({ deps: { settleMs: 690_000, httpTimeoutMs: 600_000 } });
    // The server places the order 30 s after the client gave up.
    first.api.next.push({ late: 630_000, after: 600_000 });
    const lost = await failure(first.desk.place(bidsOn([1])));
    expect(lost.message).toMatch(/is in doubt until 2026-06-01T12:11:30Z\.$/);
    expect(first.journal.list[0]).toMatchObject({ t: 'intent', settle_ms: 690_000, timeout_ms: 600_000 });
    expect(first.journal.list[1]).toMatchObject({ t: 'lost', at: new Date(T0 + 600_000).toISOString() });
    const { clock, api } = first;
    clock.set(T0 + 601_000);
    const rerun = setup({ on: first, deps: { journal: first.journal } });
    const again = await failure(rerun.desk.place(bidsOn([1])));
    expect(again.message).toMatch(/listing 1: already PENDING in order o1$/);
    expect(rerun.lines.some((l) => /not sent again before 2026-06-01T12:11:30Z$/.test(l))).toBe(true);
    expect(await ordersBy(api, clock, T0 + 630_000)).toBe(1);
  });

  it('sent under a 300 s window, the run killed after its POST left (no lost entry): a rerun with the default window at 130 s still waits for it', async () => {
    const first = setup({ deps: { settleMs: 300_000 } });
    first.api.next.push({ late: 200_000 });
    await failure(first.desk.place(bidsOn([1])));
    first.journal.list.splice(
      first.journal.list.findIndex((e) => e.t === 'lost'),
      1,
    );
    first.clock.set(T0 + 130_000);
    const rerun = setup({ on: first, deps: { journal: first.journal } });
    await failure(rerun.desk.place(bidsOn([1])));
    expect(first.journal.list.find((e) => e.t === 'reconciled')).toMatchObject({ order_id: 'o1' });
    expect(await ordersBy(first.api, first.clock, T0 + 200_000)).toBe(1);
  });

  it("lost 100 s after its intent (a 401, a fresh token, the POST again): its window's 90 s margin counts from then", async () => {
    const { api, journal, desk, clock } = setup();
    api.next.push({ late: 150_000, after: 100_000 });
    const lost = await failure(desk.place(bidsOn([1])));
    expect(lost.message).toMatch(/is in doubt until 2026-06-01T12:03:10Z\.$/);
    expect(lost.hint).toContain('until 2026-06-01T12:03:10Z (190 s after it was sent)');
    clock.set(T0 + 101_000);
    await failure(desk.place(bidsOn([1])));
    expect(journal.list.find((e) => e.t === 'reconciled')).toMatchObject({ order_id: 'o1' });
    expect(await ordersBy(api, clock, T0 + 150_000)).toBe(1);
    // Had it never landed, the run would have freed it once the margin had passed since it was lost.
    const never = setup();
    never.api.next.push({ late: 10 * 365 * 86_400_000, after: 100_000 });
    await failure(never.desk.place(bidsOn([1])));
    never.clock.set(T0 + 190_000);
    await never.desk.place(bidsOn([1]));
    expect(
      never.lines.some((l) =>
        /never reached the marketplace: no order for it 190 s after it was sent, 90 s after the client gave up \(the settle window\)/.test(
          l,
        ),
      ),
    ).toBe(true);
  });

  it('the token is got before the intent is written: a run killed after a POST that waited 40 s for its token is held from when the POST left', async () => {
    const { api, journal, desk, clock } = setup();
    api.tokenMs = 40_000;
    api.next.push({ late: 100_000 });
    await failure(desk.place(bidsOn([1])));
    expect(journal.list[0]).toMatchObject({ t: 'intent', at: new Date(api.postedAt[0]!).toISOString() });
    // Killed after the POST left: no lost entry.
    journal.list.splice(
      journal.list.findIndex((e) => e.t === 'lost'),
      1,
    );
    clock.set(T0 + 125_000);
    api.tokenMs = 0;
    await failure(desk.place(bidsOn([1])));
    expect(await ordersBy(api, clock, T0 + 140_000)).toBe(1);
  });

  it("a batch an older version journalled, without its window, is read under this run's", () => {
    const at = new Date(T0).toISOString();
    const now = { settleMs: 120_000, timeoutMs: 30_000 };
    expect(doubtEnds({ at }, now)).toBe(T0 + 120_000);
    expect(doubtEnds({ at, lostAt: new Date(T0 + 50_000).toISOString() }, now)).toBe(T0 + 140_000);
    expect(doubtEnds({ at, settleMs: 690_000, timeoutMs: 600_000, lostAt: new Date(T0 + 600_000).toISOString() }, now)).toBe(T0 + 690_000);
    // A window below the timeout (refused now; an older setting) leaves no margin after giving up.
    expect(doubtEnds({ at, settleMs: 10_000, timeoutMs: 30_000, lostAt: new Date(T0 + 30_000).toISOString() }, now)).toBe(T0 + 30_000);
  });
});

describe('the first POST landing at any point of a rerun', () => {
  /** Bids on listing 1 the fake marketplace holds once every landing due by `at` has landed. */
  const bidsOnOne = async (api: ReturnType<typeof setup>['api'], clock: ReturnType<typeof setup>['clock'], at: number): Promise<number> => {
    clock.set(Math.max(clock.now(), at));
    for await (const _ of api.list()) void _;
    return api.orders.flatMap((o) => o.bid_requests).filter((b) => b.listing_id === 1).length;
  };
  // Each second of the window, the moments around each of the rerun's looks (1, 3, 7, 12 s… then every 5 s), and its last millisecond.
  const landings = [...Array.from({ length: 120 }, (_, i) => i * 1000), 999, 1001, 2999, 3001, 6999, 7001, 119_999, 120_000];
  const reruns = [0, 1000, 59_000, 119_000, 119_999];

  it('lands within the window: whenever the rerun starts, the listing is bid on once', async () => {
    for (const landsAfter of landings) {
      for (const rerunAt of reruns) {
        const { api, desk, clock } = setup();
        api.next.push(late(landsAfter));
        await failure(desk.place(bidsOn([1])));
        clock.set(T0 + rerunAt);
        await desk.place(bidsOn([1])).catch(() => undefined);
        expect(await bidsOnOne(api, clock, T0 + landsAfter), `lands after ${landsAfter} ms, rerun at ${rerunAt} ms`).toBe(1);
      }
    }
  });

  it('lands after the window ended and after the rerun looked: bid twice, the limit the settle window states', async () => {
    const { api, desk, clock } = setup();
    api.next.push(late(120_001));
    await failure(desk.place(bidsOn([1])));
    await desk.place(bidsOn([1]));
    expect(await bidsOnOne(api, clock, T0 + 120_001)).toBe(2);
  });
});

describe('the hint after a lost answer says what a rerun will do', () => {
  it('within the wait: it waits for the order until the window ends, then sends', async () => {
    const { api, desk } = setup();
    api.next.push(NEVER);
    const lost = await failure(desk.place(bidsOn([1])));
    expect(lost.message).toMatch(/it may or may not have been placed: batch \S+ is in doubt until 2026-06-01T12:02:00Z\.$/);
    expect(lost.hint).toBe(
      'run the same command again: it first looks for this order at the marketplace. If the order shows, it is recorded as placed and these bids are not sent again; while it does not, the run waits for it to show until 2026-06-01T12:02:00Z (120 s after it was sent); an order still not shown after that is taken as never received and the bids are sent. --allow-duplicate sends them at once',
    );
  });

  it('past the wait: it waits 120 s, then refuses until the window ends', async () => {
    const { api, desk } = setup({ deps: { settleMs: 600_000 } });
    api.next.push(NEVER);
    const lost = await failure(desk.place(bidsOn([1])));
    expect(lost.hint).toMatch(
      /while it does not, the run waits up to 120 s for it to show, and refuses these bids \(exit 2\) until 2026-06-01T12:10:00Z \(600 s after it was sent\);/,
    );
  });
});

describe('review: what a run would refuse now, for --dry-run', () => {
  it("names each held listing as the run's refusal does, writes nothing and waits for nothing", async () => {
    const { api, journal, desk, clock } = setup();
    await desk.place(bidsOn([1]));
    api.next.push(NEVER);
    await failure(desk.place(bidsOn([2])));
    api.participation.set(3, 50);
    const written = journal.list.length;
    const review = await desk.review(bidsOn([1, 2, 3, 4]));
    expect([...review.keys()]).toEqual([1, 2, 3]);
    expect(review.get(1)).toBe('already PENDING in order o1');
    expect(review.get(2)).toMatch(
      /^in doubt: sent in batch \S+ at 2026-06-01T12:00:00Z without an answer, and the marketplace does not show that order yet; not sent again before 2026-06-01T12:02:00Z$/,
    );
    expect(review.get(3)).toBe('the marketplace shows 50.00 of yours already in it');
    expect(journal.list).toHaveLength(written);
    expect(clock.sleeps).toEqual([]);
    // The real run refuses the same listings for the same reasons (after its wait, which the review does not make).
    clock.set(T0 + 1000);
    const err = await failure(desk.place(bidsOn([1, 3]), { skipHeld: false }));
    expect(err.message.split('\n').slice(1)).toEqual([`  listing 1: ${review.get(1)}`, `  listing 3: ${review.get(3)}`]);
  });

  it('past the window, frees what the run would free: the batch is not held', async () => {
    const { api, journal, desk, clock } = setup();
    api.next.push(NEVER);
    await failure(desk.place(bidsOn([2])));
    clock.set(T0 + 120_000);
    expect(await desk.review(bidsOn([2]))).toEqual(new Map());
    expect(entries(journal)).toEqual(['intent', 'lost']);
  });
});
