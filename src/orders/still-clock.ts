/**
 * A marketplace whose clock stands still: the bundled mock started with `--frozen` processes no order
 * until its clock moves (or `POST /__mock/process`), so a --wait would sit out its whole timeout saying
 * nothing. The sign is the answers' `Date` standing still while this machine's clock runs; the mock's
 * `GET /__mock/clock` then confirms it. A real service's `Date` always moves, so it is never asked more.
 */
import type { Clock } from '../clock.js';

/** How long the `Date` may stand still, this machine's clock running, before the marketplace is asked (a running one moves every second). */
export const STILL_MS = 3_000;

/** After saying the clock is frozen, how long a wait goes on for someone to move it or process the orders (from another terminal). */
export const FROZEN_GRACE_MS = 30_000;

/** What tells a stopped clock: the `Date` heard, and the mock's own word. */
export interface ClockWatch {
  /** The latest answer's `Date` (epoch ms), or null before any. */
  heard(): number | null;
  /** True when the marketplace says its clock is frozen (a mock's GET /__mock/clock); false when it cannot say (a real service). */
  frozen(): Promise<boolean>;
}

/** What a look found: nothing to say; the clock found frozen (said once); or frozen past the grace (the wait gives up). */
export type Stillness = 'running' | 'found' | 'give-up';

/** Watches the `Date` across the polls of one wait, every order of it. */
export class StillClock {
  private since: { date: number; at: number } | null = null;
  private asked = false;
  private frozenAt: number | null = null;

  constructor(
    private readonly watch: ClockWatch,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /** Whether the clock was found frozen (and has not moved since). */
  get frozen(): boolean {
    return this.frozenAt !== null;
  }

  /** Called after each poll that did not end the wait. */
  async look(): Promise<Stillness> {
    const date = this.watch.heard();
    const now = this.clock.now();
    if (date === null) return 'running';
    if (this.since === null || date !== this.since.date) {
      // The clock moved (someone advanced it): a stop found before is over, and a later one is asked about again.
      this.since = { date, at: now };
      this.asked = false;
      this.frozenAt = null;
      return 'running';
    }
    if (this.frozenAt !== null) return now - this.frozenAt >= FROZEN_GRACE_MS ? 'give-up' : 'running';
    if (this.asked || now - this.since.at < STILL_MS) return 'running';
    // Asked once per stop: a marketplace that cannot say is not asked at every poll.
    this.asked = true;
    // A failed question ends nothing: the wait goes on as it would without the watch.
    if (!(await this.watch.frozen().catch(() => false))) return 'running';
    this.frozenAt = now;
    return 'found';
  }
}
