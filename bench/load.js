// A small bounded load loop for the benchmarks: `connections` keep-alive connections to 127.0.0.1,
// each sending the next request as soon as its answer is read, for a fixed duration (at most 5 s).
import { Agent, request } from 'node:http';

const MAX_DURATION_MS = 5000;

/** One GET, its body read to the end; resolves to the status and the milliseconds it took. */
function get(agent, url, headers) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(url, { agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/**
 * Loads `url` (127.0.0.1 only) with `connections` connections for `durationMs` after a short warm-up;
 * returns requests per second and the p50 / p99 latency in ms. Any status but 200 is an error.
 */
export async function load(url, { connections = 10, durationMs = 3000, warmupMs = 500, headers = {} } = {}) {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error(`load: ${url} is not on 127.0.0.1`);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const run = async (ms) => {
    const until = Date.now() + Math.min(ms, MAX_DURATION_MS);
    const times = [];
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (Date.now() < until) {
          const r = await get(agent, url, headers);
          if (r.status !== 200) throw new Error(`load: ${url} answered ${r.status}`);
          times.push(r.ms);
        }
      }),
    );
    return { seconds: Number(process.hrtime.bigint() - started) / 1e9, times };
  };
  try {
    await run(warmupMs);
    const { seconds, times } = await run(durationMs);
    times.sort((a, b) => a - b);
    return { rps: times.length / seconds, p50: quantile(times, 0.5), p99: quantile(times, 0.99), count: times.length };
  } finally {
    agent.destroy();
  }
}
