/**
 * The mock's virtual clock. It runs in real time from a chosen start (or stands still when frozen)
 * and can be moved forward; engines listen for moves. Only a snapshot loaded puts it back (putAt).
 * Real time comes from an injected source.
 */

/** Called after the clock has moved, with the time before and after. */
export type ClockListener = (from: number, to: number) => void;

/** A virtual clock over an injected real-time source. */
export class VirtualClock {
  private base: number;
  private realBase: number;
  private readonly listeners: ClockListener[] = [];
  /** While set, `now()` reads this (an operation runs, or replays, at one instant). */
  private held: number | null = null;

  constructor(
    start: number,
    readonly frozen: boolean = false,
    private readonly realNow: () => number = Date.now,
  ) {
    this.base = start;
    this.realBase = realNow();
  }

  /** The current virtual time in epoch ms. */
  now(): number {
    if (this.held !== null) return this.held;
    return this.frozen ? this.base : this.base + (this.realNow() - this.realBase);
  }

  /** Moves the clock forward by `ms` and notifies listeners. */
  advance(ms: number): number {
    if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
    return this.set(this.now() + ms);
  }

  /** Moves the clock to `to` (never backwards) and notifies listeners. */
  set(to: number): number {
    const from = this.now();
    if (to < from) throw new RangeError('the clock only moves forward');
    this.base = to;
    this.realBase = this.realNow();
    for (const l of this.listeners) l(from, to);
    return to;
  }

  /**
   * Puts the clock at `to`, earlier or later (a named snapshot loaded at its saved time), running on from
   * there unless frozen; returns what puts it back where it was (the load refused). No listener is told:
   * the world put in place with it is at `to` already, and nothing follows a move back.
   */
  putAt(to: number): () => void {
    const { base, realBase } = this;
    this.base = to;
    this.realBase = this.realNow();
    return () => {
      this.base = base;
      this.realBase = realBase;
    };
  }

  /**
   * Stops time at `at` for the length of `fn` (synchronous): an operation of the log reads one
   * instant, the one its record holds, however long it runs; the running clock goes on meanwhile.
   */
  holding<T>(at: number, fn: () => T): T {
    const outer = this.held;
    this.held = at;
    try {
      return fn();
    } finally {
      this.held = outer;
    }
  }

  /** Registers a listener for clock moves. */
  onMove(listener: ClockListener): void {
    this.listeners.push(listener);
  }
}
