/**
 * What the HTTP adapter lets in at once: open connections and request-body bytes held in memory.
 * Without a bound, 400 concurrent 1 MiB bodies took the mock from 187 MB to 1.5 GB; beyond either
 * bound a request is answered 503 (JSON, Retry-After) and its connection closed, its body unread.
 */

/** The bounds of one server. */
export interface LoadLimits {
  /** Open connections; a request on a connection past this many gets 503. */
  maxConnections: number;
  /** Request-body bytes held at once by all requests still being answered. */
  maxBytesInFlight: number;
}

/** The bounds a server has unless told: 64 bodies of the largest size, and a generous number of sockets. */
export const DEFAULT_LOAD_LIMITS: LoadLimits = { maxConnections: 1024, maxBytesInFlight: 64 << 20 };

/** Seconds a refused client is told to wait. */
export const BUSY_RETRY_AFTER_S = 1;

/** The JSON body of a 503 for load (`what` says which bound). */
export function busyBody(what: 'connections' | 'bytes'): { code: string; message: string } {
  const bound = what === 'connections' ? 'too many open connections' : 'too many request bytes in flight';
  return { code: 'SYS0503', message: `Server busy (${bound}); retry after ${BUSY_RETRY_AFTER_S} s` };
}

/** The adapter's own accounting of what it holds: the numbers the bounds are checked against. */
export class LoadGauge {
  connections = 0;
  bytesInFlight = 0;
  /** The most body bytes ever held at once (never above maxBytesInFlight). */
  peakBytesInFlight = 0;
  /** Requests answered 503 for load. */
  refused = 0;

  constructor(readonly limits: LoadLimits = DEFAULT_LOAD_LIMITS) {}

  /** Counts a new connection; false when it is past the bound (its requests are refused). */
  open(): boolean {
    this.connections++;
    return this.connections <= this.limits.maxConnections;
  }

  /** Counts a connection closed. */
  closed(): void {
    this.connections--;
  }

  /** Takes `n` more body bytes into memory; false (and nothing taken) when that would pass the bound. */
  reserve(n: number): boolean {
    if (this.bytesInFlight + n > this.limits.maxBytesInFlight) return false;
    this.bytesInFlight += n;
    if (this.bytesInFlight > this.peakBytesInFlight) this.peakBytesInFlight = this.bytesInFlight;
    return true;
  }

  /** Gives back `n` body bytes (their request was answered or dropped). */
  release(n: number): void {
    this.bytesInFlight -= n;
  }
}
