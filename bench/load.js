// A small bounded load loop (no wrk here): `connections` requests in flight over keep-alive undici
// connections to one 127.0.0.1 URL, for a fixed duration (at most 5 s) and at most `maxRequests`.
import { Pool } from 'undici';

/** Latency percentile (ms) of a sorted list. */
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

/** Runs the loop; returns requests per second, p50 and p99 latency (ms), and the request count. */
export async function load(url, { headers = {}, connections = 10, durationMs = 3000, warmupMs = 500, maxRequests = 200_000 } = {}) {
  const u = new URL(url);
  if (u.hostname !== '127.0.0.1') throw new Error(`load goes to 127.0.0.1 only, not ${u.hostname}`);
  const pool = new Pool(u.origin, { connections, pipelining: 1 });
  const path = u.pathname + u.search;
  const one = async () => {
    const res = await pool.request({ path, method: 'GET', headers });
    await res.body.arrayBuffer();
    if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}`);
  };
  try {
    // Warm up (JIT, caches) without recording.
    const warmUntil = Date.now() + Math.min(warmupMs, 2000);
    await Promise.all(Array.from({ length: connections }, async () => { while (Date.now() < warmUntil) await one(); }));
    const times = [];
    const until = Date.now() + Math.min(durationMs, 5000);
    const started = process.hrtime.bigint();
    await Promise.all(Array.from({ length: connections }, async () => {
      while (Date.now() < until && times.length < maxRequests) {
        const t = process.hrtime.bigint();
        await one();
        times.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }));
    const secs = Number(process.hrtime.bigint() - started) / 1e9;
    times.sort((a, b) => a - b);
    return { rps: times.length / secs, p50: pct(times, 50), p99: pct(times, 99), n: times.length };
  } finally {
    await pool.close();
  }
}
