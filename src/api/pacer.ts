/**
 * The pacer: `mkt` keeps under the marketplace's request rate limits (src/contract/rate-limits.ts) instead
 * of meeting them as 429s. One per process (the command context makes it; every HTTP client of the run
 * shares it), one bucket per endpoint group, asked before each request of that group is sent.
 *
 * Each bucket holds one token and refills at `limit − 1` a second: requests of a group leave at least
 * 1000 / (limit − 1) ms apart. The service counts a sliding second, so the count that matters is the most
 * requests any window of one second (its ends included) can hold: 1 + floor(1000 / spacing) = limit. The
 * one request a second given up (5% at 20/s) is a margin for the network: 21 requests span 1053 ms, so
 * answers delayed unevenly by up to 53 ms still reach the service at most 20 to a second. A bigger bucket
 * would let bursts through only by slowing the steady rate as much.
 *
 * On a 429 (another process on the same credentials, a limit lower than we know) the group waits what the
 * service asked, then goes on at half the rate it had, climbing back by one request a second each second
 * to where it started: slow enough at once to stop a storm, back to full speed within seconds.
 */
import type { Clock } from '../clock.js';
import { RATE_LIMITS, type RateGroup } from '../contract/rate-limits.js';

/** A group's pace never drops below this (requests a second), however many 429s it meets. */
const FLOOR_RATE = 0.5;
/** How fast a group's rate climbs back after a 429: requests a second gained each second. */
const RECOVERY_PER_SECOND = 1;

/** One group's bucket: when its next request may leave, and its rate since the last 429. */
interface Bucket {
  /** The full rate: one under the stated limit (see above). */
  readonly ceiling: number;
  /** Earliest time (epoch ms) the next request may leave. */
  next: number;
  /** Until then (epoch ms) the group waits, as the last 429 asked. */
  blockedUntil: number;
  /** The rate set by the last 429, and when its climb back starts. */
  cut: number;
  cutAt: number;
}

/** Spaces each endpoint group's requests under its limit; slows a group down after a 429. */
export class Pacer {
  private readonly buckets = new Map<RateGroup, Bucket>();

  /** `clock` is read and slept on (tests hand a virtual one); `limits` are the stated ones unless a test says. */
  constructor(
    private readonly clock: Pick<Clock, 'now' | 'sleep'>,
    private readonly limits: Readonly<Record<RateGroup, number>> = RATE_LIMITS,
  ) {}

  /**
   * Resolves when a request of `group` may leave. Its slot is reserved at once, so requests of a group sent
   * together take successive slots; and a clock that does not move (a test's) holds no request for ever.
   */
  async take(group: RateGroup): Promise<void> {
    const b = this.bucket(group);
    const now = this.clock.now();
    const at = Math.max(now, b.next, b.blockedUntil);
    b.next = at + 1000 / this.rate(b, at);
    if (at > now) await this.clock.sleep(at - now);
  }

  /** A request of `group` was answered 429: the group waits `waitMs` (what the service asked), then goes on at half its rate. */
  throttled(group: RateGroup, waitMs: number): void {
    const b = this.bucket(group);
    const now = this.clock.now();
    b.cut = Math.max(FLOOR_RATE, this.rate(b, now) / 2);
    b.blockedUntil = Math.max(b.blockedUntil, now + Math.max(0, waitMs));
    b.cutAt = b.blockedUntil;
  }

  /** The rate (requests a second) `group` is paced at now: for messages and tests. */
  rateOf(group: RateGroup): number {
    return this.rate(this.bucket(group), this.clock.now());
  }

  /** The limit the marketplace states for `group`: for messages. */
  limitOf(group: RateGroup): number {
    return this.limits[group];
  }

  private rate(b: Bucket, now: number): number {
    return Math.min(b.ceiling, b.cut + (Math.max(0, now - b.cutAt) / 1000) * RECOVERY_PER_SECOND);
  }

  private bucket(group: RateGroup): Bucket {
    let b = this.buckets.get(group);
    if (!b) {
      // A limit of 1 a second has no request to give up: it is paced at one every 2 s (a closed second holds one).
      const limit = this.limits[group];
      const ceiling = limit > 1 ? limit - 1 : limit / 2;
      b = { ceiling, next: -Infinity, blockedUntil: -Infinity, cut: ceiling, cutAt: -Infinity };
      this.buckets.set(group, b);
    }
    return b;
  }
}
