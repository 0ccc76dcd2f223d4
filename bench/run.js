#!/usr/bin/env node
// Benchmarks, as ratios against a baseline measured in the same run (DESIGN.md "Bars"):
//   mkt --version / --help vs `node -e ''`, mkt listings search vs `node -e ''`,
//   orders per second the mock acknowledges (2,000 listings) without and with --state (each acknowledged order fsynced),
//   and the mock with 100,000 listings: start time, median filtered search (limit=500, three filters), resident memory.
// All traffic goes to 127.0.0.1; every loop is bounded. Run after `npm run build`.
// More, opt-in: bench/search.js (search vs its raw node:http floor, req/s and p99; --all vs a bare paging
// loop) and bench/scale.js (start, memory and search latency at 10k to 1M listings; several minutes).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accessToken, bin, median, root, rssMiB, startMock } from './mock-proc.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);

function timeCommand(args, env = {}) {
  const times = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    if (i >= 2) times.push(ms); // the first two runs warm the file cache
  }
  return median(times);
}

const rows = [];
const row = (what, value, bar, ok) => rows.push({ what, value, bar, verdict: ok ? 'ok' : 'OVER' });

const baseline = timeCommand(['-e', '']);
const version = timeCommand([bin, '--version']);
const help = timeCommand([bin, '--help']);
row('node -e "" (baseline)', `${baseline.toFixed(1)} ms`, '', true);
row('mkt --version / baseline', `${(version / baseline).toFixed(2)}x (${version.toFixed(1)} ms)`, '<= 1.5x', version / baseline <= 1.5);
row('mkt --help / baseline', `${(help / baseline).toFixed(2)}x (${help.toFixed(1)} ms)`, '<= 1.5x', help / baseline <= 1.5);

const small = await startMock(2000);
try {
  const env = { MKT_ROOT_URL: small.origin, MKT_ACCESS_TOKEN: await accessToken(small.origin) };
  const search = timeCommand([bin, 'listings', 'search', '--fico_score=760-779', '-o', 'json'], env);
  row('mkt listings search / baseline', `${(search / baseline).toFixed(2)}x (${search.toFixed(1)} ms)`, '<= 3x', search / baseline <= 3);
} finally {
  small.child.kill('SIGTERM');
}

/** Orders acknowledged per second by `origin` with `clients` in flight: a 2 s window, at most 4,000 orders (alice has cash for 10,000). */
async function ordersPerSecond(origin, token, listingId, clients) {
  const post = () => fetch(`${origin}/v1/orders/`, {
    method: 'POST', headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ bid_requests: [{ listing_id: listingId, bid_amount: 25 }] }),
  });
  const started = process.hrtime.bigint();
  const until = Date.now() + 2000;
  let sent = 0;
  let acked = 0;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (Date.now() < until && sent < 4000) {
      sent++;
      const res = await post();
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`order answered ${res.status}`);
      acked++;
    }
  }));
  return acked / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** The first listed listing that accepts alice's 25.00 bid. */
async function biddableListing(origin, token) {
  const res = await fetch(`${origin}/listingsvc/v2/listings/?limit=50`, { headers: { authorization: `bearer ${token}` } });
  for (const l of (await res.json()).result) {
    const r = await fetch(`${origin}/v1/orders/`, {
      method: 'POST', headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ bid_requests: [{ listing_id: l.listing_number, bid_amount: 25 }] }),
    });
    await r.arrayBuffer();
    if (r.status === 200) return l.listing_number;
  }
  throw new Error('no listing accepts a bid');
}

const stateDir = mkdtempSync(join(tmpdir(), 'mkt-bench-'));
try {
  for (const [label, args] of [['without --state', []], ['with --state', ['--state', join(stateDir, 'world.json')]]]) {
    const m = await startMock(2000, args);
    try {
      const token = await accessToken(m.origin);
      const listingId = await biddableListing(m.origin, token);
      for (const clients of [1, 8]) {
        const rate = await ordersPerSecond(m.origin, token, listingId, clients);
        row(`orders/s, 2000 listings, ${label}, ${clients} client${clients > 1 ? 's' : ''}`, `${rate.toFixed(0)} orders/s`, '', true);
      }
    } finally {
      m.child.kill('SIGTERM');
    }
  }
} finally {
  rmSync(stateDir, { recursive: true, force: true });
}

const big = await startMock(LISTINGS);
try {
  row(`mock start, ${LISTINGS} listings`, `${(big.startMs / 1000).toFixed(2)} s`, '< 5 s', big.startMs < 5000);
  const url = `${big.origin}/listingsvc/v2/listings/?limit=500&fico_score=700-719,720-739,740-759&borrower_rate_min=0.1&listing_term=36,60`;
  const token = await accessToken(big.origin);
  const times = [];
  let count = 0;
  for (let i = 0; i < 32; i++) {
    const t = process.hrtime.bigint();
    const res = await fetch(url, { headers: { authorization: `bearer ${token}` } });
    const body = await res.json();
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (res.status !== 200) throw new Error(`search answered ${res.status}`);
    count = body.result_count;
    if (i >= 2) times.push(ms);
  }
  const med = median(times);
  row(`filtered search, limit=500, 3 filters (${count} rows)`, `${med.toFixed(1)} ms median`, '< 50 ms', med < 50);
  const rss = rssMiB(big.child.pid);
  row('mock resident memory', `${rss.toFixed(0)} MiB`, '< 1024 MiB', rss < 1024);

  // Streaming: the CLI's peak memory for --all -o ndjson over a small and a large result should match.
  const env = { ...process.env, MKT_ROOT_URL: big.origin, MKT_ACCESS_TOKEN: token };
  const peak = (filters) => {
    const r = spawnSync(process.execPath, ['-r', join(root, 'bench', 'report-rss.cjs'), bin, 'listings', 'search', '--all', '-o', 'ndjson', '--limit', '500', ...filters], { env, maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`search --all exited ${r.status}: ${r.stderr}`);
    return { kib: Number(/maxrss_kib=(\d+)/.exec(r.stderr.toString())[1]), lines: r.stdout.toString().split('\n').length - 1 };
  };
  const smallRun = peak(['--platform_rating', 'AA']);
  const bigRun = peak([]);
  const growth = bigRun.kib / smallRun.kib;
  row(`search --all -o ndjson peak memory, ${bigRun.lines} vs ${smallRun.lines} rows`, `${(bigRun.kib / 1024).toFixed(0)} vs ${(smallRun.kib / 1024).toFixed(0)} MiB (${growth.toFixed(2)}x)`, '~flat', growth < 1.5);
} finally {
  big.child.kill('SIGTERM');
}

const w = Math.max(...rows.map((r) => r.what.length));
console.log(`mkt benchmarks (node ${process.version}, ${RUNS} runs each, medians)`);
for (const r of rows) console.log(`${r.what.padEnd(w)}  ${r.value.padEnd(28)} ${r.bar.padEnd(10)} ${r.bar ? r.verdict : ''}`);
