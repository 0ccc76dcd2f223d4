/**
 * One receiver's turns: at most `slots` attempts under way at once, and at most `bound` deliveries
 * waiting (for a free slot, or for the time of their retry). Past the bound the one that has waited
 * longest is dropped, handed to `dropped` (which counts and lists it): a receiver that hangs costs
 * bounded memory, never a silent loss. An item is in one place only (waiting, under way, or out of
 * the lane), an item under way is never dropped (its attempt ends on its own, bounded by the
 * attempt's timeout), and a dropped or closed item is never run again.
 */

/** Runs `run` after `ms` and returns what cancels it (injected: the interleaving tests step time themselves). */
export type Schedule = (run: () => void, ms: number) => () => void;

/** A real timer that keeps no process alive. */
export const realSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** How a lane is set up. */
export interface LaneOptions<T> {
  /** Attempts under way at once. */
  slots: number;
  /** Items waiting at most; past it the one waiting longest is dropped. */
  bound: number;
  /** One attempt of `item`, holding a slot until it settles: resolves to the wait before its next attempt, or null when it is done. */
  attempt: (item: T) => Promise<number | null>;
  /** `item` was pushed out of the waiting queue: it is tried no more. */
  dropped: (item: T) => void;
  schedule?: Schedule;
}

/** One receiver's queue of attempts. */
export class Lane<T> {
  /** Waiting items in the order they began to wait, each with what cancels its timer (null once due). */
  private readonly waiting = new Map<T, (() => void) | null>();
  /** Of those, the ones whose time has come, first come first served. */
  private readonly due = new Set<T>();
  private readonly active = new Set<T>();
  private readonly running = new Set<Promise<void>>();
  private readonly schedule: Schedule;
  private closed = false;

  constructor(private readonly options: LaneOptions<T>) {
    this.schedule = options.schedule ?? realSchedule;
  }

  /** Items waiting now (due or timed). */
  get waitingCount(): number {
    return this.waiting.size;
  }

  /** Items under way now. */
  get activeCount(): number {
    return this.active.size;
  }

  /** Queues `item` for an attempt after `ms` (0: as soon as a slot is free); past the bound the item waiting longest is dropped. */
  wait(item: T, ms: number): void {
    if (this.closed || this.waiting.has(item) || this.active.has(item)) return;
    if (ms <= 0) {
      this.waiting.set(item, null);
      this.due.add(item);
    } else {
      this.waiting.set(
        item,
        this.schedule(() => this.ripen(item), ms),
      );
    }
    // A free slot takes a due item first: the bound counts only what has to wait.
    this.pump();
    while (this.waiting.size > this.options.bound) this.drop(this.waiting.keys().next().value!);
  }

  /** Stops the lane: no item starts or waits any more. Returns the items that were waiting, in order (those under way end on their own: `settled`). */
  close(): T[] {
    this.closed = true;
    const left = [...this.waiting.keys()];
    for (const cancel of this.waiting.values()) cancel?.();
    this.waiting.clear();
    this.due.clear();
    return left;
  }

  /** Resolves once every attempt under way has ended. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  /** A timed item's time has come (a timer cancelled by a drop or a close finds it gone). */
  private ripen(item: T): void {
    if (this.closed || !this.waiting.has(item) || this.due.has(item)) return;
    this.waiting.set(item, null);
    this.due.add(item);
    this.pump();
  }

  private drop(item: T): void {
    this.waiting.get(item)?.();
    this.waiting.delete(item);
    this.due.delete(item);
    this.options.dropped(item);
  }

  /** Starts due items while slots are free. */
  private pump(): void {
    for (const item of this.due) {
      if (this.closed || this.active.size >= this.options.slots) return;
      this.due.delete(item);
      this.waiting.delete(item);
      this.begin(item);
    }
  }

  private begin(item: T): void {
    this.active.add(item);
    const run = this.options
      .attempt(item)
      .catch((err: unknown) => {
        // A bug of the attempt, not the receiver's doing: said once, and the item ends (no retry loop on a bug).
        console.error('mock: webhook delivery failed unexpectedly', err);
        return null;
      })
      .then((next) => {
        this.active.delete(item);
        this.running.delete(run);
        if (next !== null) this.wait(item, next);
        else this.pump();
      });
    this.running.add(run);
  }
}
