import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Pacer } from '../src/api/pacer.js';
import { RATE_LIMITS, type RateGroup } from '../src/contract/rate-limits.js';

/**
 * Virtual time: `sleep` parks a waiter, `run` wakes them in time order, letting every promise chain settle
 * between wakes. Nothing here reads the wall clock.
 */
class VirtualClock {
  private t = 0;
  private seq = 0;
  private readonly timers: { at: number; seq: number; wake: () => void }[] = [];
  readonly now = (): number => this.t;
  readonly sleep = (ms: number): Promise<void> =>
    new Promise((wake) => this.timers.push({ at: this.t + Math.max(0, ms), seq: this.seq++, wake }));

  /** Runs until no one waits. */
  async run(): Promise<void> {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      if (this.timers.length === 0) return;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift()!;
      this.t = Math.max(this.t, next.at);
      next.wake();
    }
  }
}

/** The most sends of `times` (sorted) that one closed window of 1000 ms holds. */
function busiestSecond(times: readonly number[]): number {
  let most = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j]! - times[i]! > 1000) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

const GROUPS = Object.keys(RATE_LIMITS) as RateGroup[];

/** A request that wants to leave at `at` (virtual ms), answered 429 asking `throttle` ms when that is not null. */
interface Arrival {
  at: number;
  group: RateGroup;
  throttle: number | null;
}

/** Requests in any order of time and group, some of them answered 429. */
const arrivals = fc.array(
  fc.record({
    at: fc.integer({ min: 0, max: 1500 }),
    group: fc.constantFrom(...GROUPS),
    // One answer in about twenty a 429.
    throttle: fc.oneof({ weight: 19, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 3000 }) }),
  }),
  { maxLength: 200, size: 'max' },
);

/** Sends every arrival through one pacer on virtual time; returns each group's send times, sorted. */
async function pace(list: readonly Arrival[], limits = RATE_LIMITS) {
  const clock = new VirtualClock();
  const pacer = new Pacer(clock, limits);
  const sent = new Map<RateGroup, number[]>();
  const all = list.map(async (a) => {
    await clock.sleep(a.at);
    await pacer.take(a.group);
    sent.set(a.group, [...(sent.get(a.group) ?? []), clock.now()]);
    if (a.throttle !== null) pacer.throttled(a.group, a.throttle);
  });
  await clock.run();
  await Promise.all(all);
  for (const times of sent.values()) times.sort((x, y) => x - y);
  return { sent, pacer, clock };
}

describe('the pacer', () => {
  it('lets through at most the stated limit of a group in any one second, whenever requests come and 429s fall', async () => {
    await fc.assert(
      fc.asyncProperty(arrivals, async (list) => {
        const { sent } = await pace(list);
        for (const [group, times] of sent) expect(busiestSecond(times), group).toBeLessThanOrEqual(RATE_LIMITS[group]);
        // Every request went.
        expect([...sent.values()].flat().length).toBe(list.length);
      }),
      { numRuns: 200 },
    );
  });

  it('holds any limit, 1 a second included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 80, size: 'max' }),
        async (limit, ats) => {
          const limits = { ...RATE_LIMITS, listings: limit };
          const { sent } = await pace(
            ats.map((at) => ({ at, group: 'listings' as const, throttle: null })),
            limits,
          );
          expect(busiestSecond(sent.get('listings') ?? [])).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is no slower than the margin: requests waiting together leave one every 1000 / (limit − 1) ms', async () => {
    const { sent } = await pace(Array.from({ length: 40 }, () => ({ at: 0, group: 'listings' as const, throttle: null })));
    const times = sent.get('listings')!;
    const spacing = 1000 / (RATE_LIMITS.listings - 1);
    times.forEach((t, i) => expect(t).toBeCloseTo(i * spacing, 6));
    // 40 requests in 2.05 s of virtual time: the limit itself (20 a second) would need 1.95 s.
    expect(busiestSecond(times)).toBe(RATE_LIMITS.listings);
  });

  it('does not wait for a request that comes after the spacing', async () => {
    const { sent } = await pace([0, 100, 200, 300].map((at) => ({ at, group: 'listings' as const, throttle: null })));
    expect(sent.get('listings')).toEqual([0, 100, 200, 300]);
  });

  it('after a 429 waits what the service asked, goes on at half the rate, and climbs back a request a second each second', async () => {
    const clock = new VirtualClock();
    const pacer = new Pacer(clock);
    const times: number[] = [];
    const run = (async () => {
      await pacer.take('listings');
      times.push(clock.now());
      pacer.throttled('listings', 2000);
      expect(pacer.rateOf('listings')).toBe(9.5);
      await pacer.take('listings');
      times.push(clock.now());
      await pacer.take('listings');
      times.push(clock.now());
      await clock.sleep(20_000);
      expect(pacer.rateOf('listings')).toBe(19);
    })();
    await clock.run();
    await run;
    expect(times[1]).toBe(2000);
    // The rate climbs from 9.5 a second as soon as the wait is over: the next leaves a little under 1000 / 9.5 ms later.
    expect(times[2]! - times[1]!).toBeCloseTo(1000 / 9.5, 6);
    // Other groups are not held by one group's 429.
    expect(pacer.rateOf('orders')).toBe(RATE_LIMITS.orders - 1);
  });

  it('holds no request for ever under a clock that does not move (frozen clocks of in-process tests)', async () => {
    const waits: number[] = [];
    const pacer = new Pacer({ now: () => 0, sleep: async (ms) => void waits.push(ms) });
    for (let i = 0; i < 5; i++) await pacer.take('orders');
    const spacing = 1000 / (RATE_LIMITS.orders - 1);
    // Each reserved the slot after the one before: the waits asked are what a moving clock would have slept.
    waits.forEach((w, i) => expect(w).toBeCloseTo((i + 1) * spacing, 6));
  });

  it('never drops below one request every two seconds, however many 429s come', async () => {
    const clock = new VirtualClock();
    const pacer = new Pacer(clock);
    for (let i = 0; i < 50; i++) pacer.throttled('orders', 0);
    expect(pacer.rateOf('orders')).toBe(0.5);
  });
});
