// The bench's reading of wrk (bench/wrk.js): the report's figures, and the server's CPU a request under that load,
// which the pages section prints beside requests a second (a figure the load tool's share of the machine moves less).
import { describe, expect, it } from 'vitest';
import { cpuPerRequestUs, parseWrk } from '../bench/wrk.js';

// A report of wrk 4 (Debian's) against bench/static-server.js on 2026-11-30, the 25-row page.
const REPORT = `Running 1s test @ http://127.0.0.1:45907/listingsvc/v2/listings/?limit=25
  1 threads and 10 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   527.70us    1.31ms  24.71ms   96.29%
    Req/Sec    29.93k    13.20k   41.82k    80.00%
  Latency Distribution
     50%  255.00us
     75%  430.00us
     90%  816.00us
     99%    4.71ms
  29701 requests in 1.00s, 1.94GB read
Requests/sec:  29669.43
Transfer/sec:      1.94GB
`;

describe('parseWrk', () => {
  it('reads the requests in all beside the rate and the percentiles', () => {
    expect(parseWrk(REPORT)).toEqual({ requests: 29701, rps: 29669.43, p50: 0.255, p99: 4.71, non2xx: 0, errors: 0, timeouts: 0 });
  });

  it('refuses a report without its count of requests', () => {
    expect(() => parseWrk(REPORT.replace('29701 requests in 1.00s, 1.94GB read\n', ''))).toThrow(/cannot read its report/);
  });

  it('reads socket errors and answers that are not 2xx', () => {
    const out = REPORT.replace(
      'Requests/sec',
      '  Socket errors: connect 1, read 2, write 3, timeout 4\n  Non-2xx or 3xx responses: 5\nRequests/sec',
    );
    expect(parseWrk(out)).toMatchObject({ errors: 6, timeouts: 4, non2xx: 5 });
  });
});

describe('cpuPerRequestUs', () => {
  it('is the CPU between the readings over the requests, in µs', () => {
    // 630 ms of CPU over 29,701 requests: 21.2 µs each.
    expect(cpuPerRequestUs(1200, 1830, 29701)).toBeCloseTo(21.21, 2);
  });

  it('is NaN with no requests or no reading', () => {
    expect(cpuPerRequestUs(0, 10, 0)).toBeNaN();
    expect(cpuPerRequestUs(NaN, NaN, 100)).toBeNaN();
  });
});
