/**
 * A stand-in for the marketplace's throttle in front of a test mock: a loopback proxy that counts each
 * client token's requests per endpoint group (src/contract/rate-limits.ts) in a sliding second, ends included,
 * and answers the one over the limit 429 with the service's body and `Retry-After`, as the mock's own
 * throttle will (issue 41 item 1). It records when every request arrived, to count the busiest second.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RATE_LIMITS, rateGroupOf, throttledBody, type RateGroup } from '../../src/contract/rate-limits.js';

/** A running throttling proxy. */
export interface ThrottleProxy {
  origin: string;
  /** Arrival times (ms, this process's monotonic clock) of the requests that went through, per group. */
  passed: Map<RateGroup, number[]>;
  /** How many were answered 429, per group. */
  throttled: Map<RateGroup, number>;
  close(): Promise<void>;
}

/** Starts a proxy to `upstream` on 127.0.0.1 that throttles at `limits` (the contract's unless told), asking `retryAfter` seconds. */
export async function startThrottleProxy(upstream: string, limits = RATE_LIMITS, retryAfter = 1): Promise<ThrottleProxy> {
  const passed = new Map<RateGroup, number[]>();
  const throttled = new Map<RateGroup, number>();
  /** Arrivals of the last second per token and group: `${token} ${group}` → times. */
  const windows = new Map<string, number[]>();
  const target = new URL(upstream);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const group = rateGroupOf(path);
    if (group) {
      const now = performance.now();
      const key = `${req.headers.authorization ?? ''} ${group}`;
      const recent = (windows.get(key) ?? []).filter((t) => now - t <= 1000);
      if (recent.length >= limits[group]) {
        windows.set(key, recent);
        throttled.set(group, (throttled.get(group) ?? 0) + 1);
        req.resume();
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(retryAfter) });
        res.end(JSON.stringify(throttledBody(new Date())));
        return;
      }
      recent.push(now);
      windows.set(key, recent);
      passed.set(group, [...(passed.get(group) ?? []), now]);
    }
    const up = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    passed,
    throttled,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** The most of `times` (ms) that one closed window of 1000 ms holds. */
export function busiestSecond(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! > 1000) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}
