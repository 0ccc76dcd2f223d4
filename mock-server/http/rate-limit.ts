/**
 * The service's request rate limits as the mock applies them (the groups and their limits:
 * src/contract/rate-limits.ts): per client and per endpoint group, a sliding window of one second of
 * real time. Pure over a time source: the app (app.ts `answer`, the one place both doors pass) asks
 * `decide` and answers a refusal with the service's 429. Only admitted requests are counted, so a client
 * that keeps asking while throttled is admitted again once a second has passed since the oldest of them.
 */
import { RATE_LIMITS, type RateGroup } from '../../src/contract/rate-limits.js';

/** The width of the window, in real milliseconds. */
export const RATE_WINDOW_MS = 1000;
/** The largest limit a group may be given (a spec past it is refused: a typo, not a wish). */
export const MAX_RATE_LIMIT = 100_000;
/** Buckets (client × group) kept at most: a caller sending a new token each time cannot grow the map without bound. */
export const MAX_BUCKETS = 10_000;
/** A client key past this length is cut (its length kept), so a huge bearer token is not kept whole. */
const MAX_KEY_LENGTH = 256;

/** Requests a second for each group. */
export type RateLimits = Readonly<Record<RateGroup, number>>;

/** The groups, in the order they are stated. */
export const RATE_GROUPS = Object.keys(RATE_LIMITS) as readonly RateGroup[];

/** What the mock throttles with: on or off, and the limits that apply when on. */
export interface RateLimitSetting {
  enabled: boolean;
  limits: RateLimits;
}

/** The setting as GET /__mock/state and GET /__mock/rate-limit show it. */
export interface RateLimitState extends RateLimitSetting {
  window_ms: number;
  per: string;
}

/** The decision for one request: admitted, or refused with the whole seconds until the window frees (at least 1). */
export type RateDecision = { admitted: true } | { admitted: false; retryAfterS: number };

/** The setting off, with the stated limits ready for when it is turned on. */
export const RATE_LIMIT_OFF: RateLimitSetting = { enabled: false, limits: RATE_LIMITS };
/** The service's limits, on. */
export const RATE_LIMIT_ON: RateLimitSetting = { enabled: true, limits: RATE_LIMITS };

/** One client's admitted requests in one group: their arrival times, oldest first, from `head`. */
interface Bucket {
  times: number[];
  head: number;
}

/**
 * Reads a `--rate-limit` value: `off`, `on` (the stated limits), one whole number for every group, or
 * `group=N` pairs separated by commas (`listings=20,orders=10`; groups not named keep their stated limit).
 * Returns the setting, or the problem in words naming what was wrong.
 */
export function parseRateLimitSpec(text: string): { setting: RateLimitSetting } | { problem: string } {
  const spec = text.trim();
  if (spec === 'off') return { setting: RATE_LIMIT_OFF };
  if (spec === 'on') return { setting: RATE_LIMIT_ON };
  const shown = JSON.stringify(spec.length > 60 ? `${spec.slice(0, 60)}…` : spec);
  if (spec === '')
    return { problem: `must be off, on, a whole number for every group, or GROUP=N pairs such as listings=20,orders=10; got ""` };
  if (/^\d+$/.test(spec)) {
    const all = limitOf(spec);
    if (typeof all === 'string') return { problem: `${shown}: ${all}` };
    return { setting: { enabled: true, limits: Object.fromEntries(RATE_GROUPS.map((g) => [g, all])) as RateLimits } };
  }
  const limits: Record<RateGroup, number> = { ...RATE_LIMITS };
  const named = new Set<string>();
  for (const part of spec.split(',')) {
    const pair = /^\s*([^=\s]*)\s*=\s*(\S*)\s*$/.exec(part);
    if (!pair)
      return {
        problem: `${shown}: ${JSON.stringify(part.trim().slice(0, 40))} is not GROUP=N (such as listings=20); groups: ${RATE_GROUPS.join(', ')}`,
      };
    const [, group, value] = pair as unknown as [string, string, string];
    if (!(RATE_GROUPS as readonly string[]).includes(group))
      return { problem: `${shown}: unknown group '${group.slice(0, 40)}'; groups: ${RATE_GROUPS.join(', ')}` };
    if (named.has(group)) return { problem: `${shown}: group '${group}' is given twice` };
    named.add(group);
    const n = limitOf(value);
    if (typeof n === 'string') return { problem: `${shown}: ${group}: ${n}` };
    limits[group as RateGroup] = n;
  }
  return { setting: { enabled: true, limits } };
}

/** A limit's text as a number, or the problem. */
function limitOf(text: string): number | string {
  const n = /^\d{1,7}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_RATE_LIMIT)
    return `a limit must be a whole number of requests a second from 1 to ${MAX_RATE_LIMIT}, got '${text.slice(0, 40)}'`;
  return n;
}

/** The key of the client a request is counted against: its bearer token, else the given client id, else the one shared bucket (''). */
export function clientKeyOf(authorization: string | null, clientId: string | null): string {
  const bearer = authorization === null ? null : /^\s*bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  const key = bearer ? `token:${bearer}` : clientId ? `client:${clientId}` : '';
  return key.length > MAX_KEY_LENGTH ? `${key.slice(0, MAX_KEY_LENGTH)}…${key.length}` : key;
}

/** The throttle: one sliding window per client and group over `now` (real milliseconds; a clock stepped back is read as standing still). */
export class RateLimiter {
  private setting: RateLimitSetting;
  private readonly buckets = new Map<string, Bucket>();
  /** The latest time read: a real clock stepped back does not stretch a window. */
  private last = -Infinity;

  constructor(
    private readonly now: () => number,
    setting: RateLimitSetting = RATE_LIMIT_OFF,
  ) {
    this.setting = setting;
  }

  /** Whether requests are throttled at all. */
  get enabled(): boolean {
    return this.setting.enabled;
  }

  /** The setting, as the admin routes show it. */
  get(): RateLimitState {
    return {
      ...this.setting,
      limits: { ...this.setting.limits },
      window_ms: RATE_WINDOW_MS,
      per: 'client (bearer token; client_id at the token endpoint)',
    };
  }

  /** Replaces the setting; every window starts over. */
  set(setting: RateLimitSetting): RateLimitState {
    this.setting = setting;
    this.buckets.clear();
    return this.get();
  }

  /** Admits or refuses one request of `client` (clientKeyOf) in `group`, counting it when admitted. */
  decide(group: RateGroup, client: string): RateDecision {
    if (!this.setting.enabled) return { admitted: true };
    const now = (this.last = Math.max(this.last, this.now()));
    const key = `${group} ${client}`;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_BUCKETS) this.evict(now);
      bucket = { times: [], head: 0 };
      this.buckets.set(key, bucket);
    }
    const from = now - RATE_WINDOW_MS;
    while (bucket.head < bucket.times.length && bucket.times[bucket.head]! <= from) bucket.head++;
    // Compacted once the dropped part is the larger: each time is copied a bounded number of times.
    if (bucket.head > 32 && bucket.head * 2 > bucket.times.length) {
      bucket.times = bucket.times.slice(bucket.head);
      bucket.head = 0;
    }
    if (bucket.times.length - bucket.head >= this.setting.limits[group]) {
      const frees = bucket.times[bucket.head]! + RATE_WINDOW_MS - now;
      return { admitted: false, retryAfterS: Math.max(1, Math.ceil(frees / 1000)) };
    }
    bucket.times.push(now);
    return { admitted: true };
  }

  /**
   * Makes room for new buckets: the idle ones go first, then the oldest made, down to nine tenths of the
   * bound, so a flood of new clients sweeps the map once every thousand of them, not once each.
   */
  private evict(now: number): void {
    const from = now - RATE_WINDOW_MS;
    for (const [key, b] of this.buckets) if (b.times.length === 0 || b.times[b.times.length - 1]! <= from) this.buckets.delete(key);
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= MAX_BUCKETS * 0.9) break;
      this.buckets.delete(key);
    }
  }
}
