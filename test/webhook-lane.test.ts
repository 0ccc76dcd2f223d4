/**
 * A receiver's lane of turns (mock-server/webhooks/lane.ts) under every interleaving fast-check finds of
 * new deliveries, attempts ending (delivered, or a retry after a wait), timers firing and a close, each
 * a point where another may come first: never more attempts under way than slots, never more waiting
 * than the bound, the one dropped is always the one that waited longest (and none while a free slot
 * could take a due one), a dropped item never runs again, no slot idles while an item is due, and
 * every item is accounted for.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Lane, type Schedule } from '../mock-server/webhooks/lane.js';

/** Timers on a clock the test moves. */
function fakeClock() {
  let now = 0;
  const timers: { at: number; run: () => void; live: boolean }[] = [];
  const schedule: Schedule = (run, ms) => {
    const t = { at: now + ms, run, live: true };
    timers.push(t);
    return () => void (t.live = false);
  };
  const advance = (ms: number) => {
    now += ms;
    for (const t of timers.filter((x) => x.live && x.at <= now).sort((x, y) => x.at - y.at)) {
      t.live = false;
      t.run();
    }
  };
  return { schedule, advance };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

type Op = { kind: 'add'; delay: number } | { kind: 'end'; pick: number; retry: number | null } | { kind: 'tick'; ms: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), delay: fc.constantFrom(0, 0, 10, 30) }),
  fc.record({ kind: fc.constant('end' as const), pick: fc.nat(), retry: fc.option(fc.constantFrom(0, 10, 30), { nil: null }) }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.constantFrom(5, 10, 40) }),
);

describe('a webhook lane', () => {
  test('keeps its bounds, drops the longest waiting, never runs a dropped item, idles no slot while one is due, and loses none', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(op, { maxLength: 60 }),
        fc.boolean(),
        async (slots, bound, ops, closeAtEnd) => {
          const clock = fakeClock();
          const running = new Map<number, (next: number | null) => void>();
          const done = new Set<number>();
          const dropped = new Set<number>();
          /** Items in the order they began to wait (the model of the lane's queue), each with when it is due. */
          const waitingModel: { item: number; dueAt: number }[] = [];
          let now = 0;
          let started = 0;
          const lane = new Lane<number>({
            slots,
            bound,
            schedule: clock.schedule,
            attempt: (item) => {
              expect(dropped.has(item)).toBe(false);
              expect(running.has(item)).toBe(false);
              const at = waitingModel.findIndex((w) => w.item === item);
              expect(at).toBeGreaterThanOrEqual(0);
              // Only an item whose time has come starts.
              expect(waitingModel[at]!.dueAt).toBeLessThanOrEqual(now);
              waitingModel.splice(at, 1);
              started++;
              return new Promise((resolve) => running.set(item, resolve));
            },
            dropped: (item) => {
              // The one that has waited longest goes, never one under way; and none goes while a free slot could take a due one.
              expect(waitingModel[0]?.item).toBe(item);
              if (running.size < slots) expect(waitingModel.some((w) => w.dueAt <= now)).toBe(false);
              waitingModel.shift();
              dropped.add(item);
            },
          });
          const wait = (item: number, delay: number) => {
            waitingModel.push({ item, dueAt: now + delay });
            lane.wait(item, delay);
          };
          let next = 0;
          const check = () => {
            expect(lane.activeCount).toBe(running.size);
            expect(lane.activeCount).toBeLessThanOrEqual(slots);
            expect(lane.waitingCount).toBe(waitingModel.length);
            expect(lane.waitingCount).toBeLessThanOrEqual(bound);
            // A due item waits only while every slot is taken.
            if (waitingModel.some((w) => w.dueAt <= now)) expect(running.size).toBe(slots);
            expect(running.size + waitingModel.length + done.size + dropped.size).toBe(next);
          };
          for (const o of ops) {
            if (o.kind === 'add') wait(next++, o.delay);
            else if (o.kind === 'tick') {
              now += o.ms;
              clock.advance(o.ms);
            } else if (running.size > 0) {
              const [item, resolve] = [...running][o.pick % running.size]!;
              running.delete(item);
              // The lane re-queues a retry itself once the attempt settles: the model of its queue learns it the same way.
              if (o.retry === null) done.add(item);
              else waitingModel.push({ item, dueAt: now + o.retry });
              resolve(o.retry);
            }
            await settle();
            check();
          }
          if (closeAtEnd) {
            const left = lane.close();
            expect(left).toEqual(waitingModel.map((w) => w.item));
            now += 1000;
            clock.advance(1000);
            await settle();
            // Nothing starts after a close, and what ends under way does not come back.
            const before = started;
            for (const [item, resolve] of running) {
              running.delete(item);
              resolve(5);
            }
            await settle();
            clock.advance(1000);
            await settle();
            expect(started).toBe(before);
            expect(lane.waitingCount).toBe(0);
            expect(lane.activeCount).toBe(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
