/**
 * Time, injected. Everything that reads the time or waits takes a Clock; `systemClock` is the one
 * place that reads the real one, so tests (and the mock's virtual time) can stand in for it.
 */

/** Reads the time and waits. */
export interface Clock {
  /** Wall-clock time in ms since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds, or at once when `signal` aborts (its timer cleared, so Ctrl-C ends the run at once). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: the only reader of the system time outside the mock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    }),
};

/** The clock's time as an ISO 8601 string (journal time stamps). */
export function isoNow(clock: Pick<Clock, 'now'>): string {
  return new Date(clock.now()).toISOString();
}
