// Types of bench/wrk.js for the tests that import it (test/bench-wrk.test.ts).

/** wrk's `--latency` report, read. */
export interface WrkReport {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** Reads wrk's `--latency` report (bench/wrk.js). */
export function parseWrk(out: string): WrkReport;

/** µs of CPU a request from a process's CPU ms before and after `requests` requests (NaN when unknown or none). */
export function cpuPerRequestUs(beforeMs: number, afterMs: number, requests: number): number;
