/**
 * `--wait` against a marketplace whose clock stands still (the mock started with --frozen): said within
 * seconds with what to do, given up after the grace with exit 6's words, never the whole timeout. The
 * interleavings: the orders processed or the clock moved after it was said (the wait goes on and ends
 * well); a real service (its Date moves) or a mock that cannot say (admin off, a failed question): the
 * wait is what it was, to its timeout.
 */
import { describe, expect, it } from 'vitest';
import type { Order } from '../src/api/orders.js';
import type { Clock } from '../src/clock.js';
import { FROZEN_GRACE_MS, STILL_MS, type ClockWatch } from '../src/orders/still-clock.js';
import { followOrders, type FollowDeps } from '../src/orders/wait.js';

const PLAN = { until: 'processed', timeoutMs: 600_000 } as const;
const START = Date.UTC(2026, 5, 1, 12);

/** A virtual clock: sleeping moves it at once. */
function virtualClock(): Clock & { t: number } {
  const c = {
    t: START,
    now: () => c.t,
    sleep: async (ms: number) => void (c.t += ms),
  };
  return c;
}

const order = (id: string, result: string): Order => ({
  order_id: id,
  order_status: 'IN_PROGRESS',
  bid_requests: [{ listing_id: 10000001, bid_amount: 25, bid_status: 'PENDING', bid_result: result }],
});

/**
 * A world to follow: `processedAt` (virtual ms after the start) when the orders get their results, and
 * the Date the marketplace's answers carry (`date(t)`); `frozen` is the mock's word.
 */
function world(opts: { date: (t: number) => number; frozen: () => Promise<boolean>; processedAt?: (clock: { t: number }) => boolean }) {
  const clock = virtualClock();
  const lines: string[] = [];
  let heard: number | null = null;
  let asked = 0;
  const watch: ClockWatch = {
    heard: () => heard,
    frozen: () => {
      asked++;
      return opts.frozen();
    },
  };
  const deps: FollowDeps = {
    get: async (id) => {
      heard = opts.date(clock.t);
      return order(id, opts.processedAt?.(clock) ? 'BID_SUCCEEDED' : 'NONE');
    },
    clock,
    progress: { change: () => undefined, settled: () => undefined },
    info: (line) => lines.push(line),
    watch,
  };
  return { clock, lines, deps, asked: () => asked };
}

/** A Date in whole seconds, as the header carries it. */
const running = (t: number) => Math.floor(t / 1000) * 1000;
const stopped = () => START - 86_400_000;

describe('--wait against a mock whose clock is frozen', () => {
  it('says so within seconds with what to do, and gives up after the grace with exit 6, not after the timeout', async () => {
    const w = world({ date: stopped, frozen: async () => true });
    const r = await followOrders(['o-1', 'o-2'], PLAN, w.deps);
    expect(r.incomplete).toBe(true);
    expect(r.rows).toHaveLength(2);
    expect(w.asked()).toBe(1);
    const [said, gaveUp1, gaveUp2, last] = w.lines;
    expect(said).toContain("the marketplace's clock stands still: it is a mock started with --frozen");
    // Bid results: the queued orders processed now, the clock left where it was frozen.
    expect(said).toContain('which processes no order until its clock moves or it is told to; run `mkt mock process` from another terminal');
    expect(gaveUp1).toBe("order o-1: gave up: the mock's clock is frozen, with 1 bid placed and still pending (not yet processed)");
    // The second order is not waited for all over again.
    expect(gaveUp2).toBe("order o-2: gave up: the mock's clock is frozen, with 1 bid placed and still pending (not yet processed)");
    expect(last).toBe(
      "the mock's clock is frozen (exit 6): its orders are processed once it moves or is told to: run `mkt mock process`, then follow with `mkt order get o-1 --wait`, `mkt order get o-2 --wait`",
    );
    // Virtual time: the wait ended after the stillness and the grace (with one poll's backoff), far from its 600 s.
    expect(w.clock.t - START).toBeLessThan(STILL_MS + FROZEN_GRACE_MS + 10_000);
  });

  it('waiting for completion, names the days a listing takes', async () => {
    const w = world({ date: stopped, frozen: async () => true });
    await followOrders(['o-1'], { ...PLAN, until: 'completed' }, w.deps);
    expect(w.lines[0]).toContain('`mkt mock clock advance 15d`');
  });

  it('goes on, and ends well, when the orders are processed after it was said (POST /__mock/process: the clock stays)', async () => {
    let said = -1;
    const w = world({ date: stopped, frozen: async () => true, processedAt: () => said >= 0 });
    const info = w.deps.info;
    w.deps.info = (line) => {
      if (line.includes('clock stands still')) said = w.clock.t;
      info(line);
    };
    const r = await followOrders(['o-1'], PLAN, w.deps);
    expect(said).toBeGreaterThan(0);
    expect(r).toMatchObject({ incomplete: false });
    expect(w.lines.filter((l) => l.includes('gave up') || l.includes('exit 6'))).toEqual([]);
  });

  it('goes on past the grace when the clock is moved after it was said, to the orders processed', async () => {
    // Frozen for 5 s, then `mkt mock clock advance` from another terminal; processed 60 s in.
    let movedAt: number | null = null;
    const w = world({
      date: (t) => (t - START < 5_000 ? stopped() : ((movedAt ??= t), running(t))),
      frozen: async () => movedAt === null,
      processedAt: (c) => c.t - START >= 60_000,
    });
    const r = await followOrders(['o-1'], PLAN, w.deps);
    expect(w.lines[0]).toContain('clock stands still');
    expect(r.incomplete).toBe(false);
    expect(w.lines.slice(1)).toEqual([]);
  });
});

describe('--wait where the clock is not known to stand still: as before', () => {
  for (const [what, date, frozen] of [
    ['a real service (its Date moves): never asked', running, async () => true],
    ['a Date standing still, the marketplace not saying it is frozen (admin off, not a mock)', stopped, async () => false],
    [
      'a Date standing still, the question failing',
      stopped,
      async () => {
        throw new Error('ECONNRESET');
      },
    ],
  ] as const) {
    it(`${what}: waits to its timeout, with the timeout's words`, async () => {
      const w = world({ date, frozen });
      const r = await followOrders(['o-1'], PLAN, w.deps);
      expect(r.incomplete).toBe(true);
      expect(w.clock.t - START).toBeGreaterThanOrEqual(PLAN.timeoutMs);
      expect(w.asked()).toBe(date === running ? 0 : 1);
      expect(w.lines).toEqual([
        'order o-1: gave up after 600 s with 1 bid placed and still pending (not yet processed)',
        'the wait timed out with bids placed and pending (exit 6); they go on at the marketplace: follow with `mkt order get o-1 --wait`',
      ]);
    });
  }
});
