#!/usr/bin/env node
// The mock's scale curve (opt-in, several minutes: not part of `npm run bench`): for each size in
// BENCH_SIZES (default 10000,100000,300000,1000000), start time, resident memory after start and after
// the searches, and req/s, p50, p99 of the unfiltered limit=25 and three-filter limit=500 searches
// (10 connections, BENCH_SECONDS ≤ 5 each), each next to its floor: a raw node:http server answering
// JSON.stringify of the same page (bench/floor-server.js) under the same load. At a million listings, also the issue's
// bars of round four: a new (never asked) query of 25 rows, the median over NEW_QUERIES, and `clock advance 15d`, last
// (it moves the world). All traffic goes to 127.0.0.1.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from './load.js';
import { accessToken, median, root, rssMiB, startMock, startServer, stopServer, UNTHROTTLED } from './mock-proc.js';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000,300000,1000000').split(',').map(Number);
const MS = Math.min(5, Number(process.env.BENCH_SECONDS ?? 3)) * 1000;
const QUERIES = {
  unfiltered: '/listingsvc/v2/listings/?limit=25',
  filtered: '/listingsvc/v2/listings/?limit=500&fico_score=700-719,720-739,740-759&borrower_rate_min=0.1&listing_term=36,60',
};

/** Searches of 25 rows no one asked before: filters of each kind (codes, integers, booleans, ranges), sorts both ways, offsets. */
const NEW_QUERIES = [
  'fico_score=760-779&sort_by=lender_yield desc',
  'fico_score=700-719,720-739&listing_term=36',
  'platform_rating=A,B&sort_by=borrower_rate',
  'borrower_rate_min=0.15&sort_by=listing_amount desc',
  'listing_term=60&offset=200',
  'platform_rating=AA&sort_by=percent_funded desc',
  'fico_score=640-659&borrower_rate_max=0.2',
  'income_range=4,5&sort_by=listing_start_date desc',
  'sort_by=borrower_rate desc&offset=1000',
  'listing_amount_min=10000&listing_amount_max=20000',
  'platform_rating=C&sort_by=lender_yield',
  'fico_score=800-819&sort_by=listing_number desc',
  'employment_status_description=Employed',
  'percent_funded_min=0.5&sort_by=percent_funded',
  'listing_category_id=1,7&sort_by=borrower_apr desc',
  'platform_rating=D,E&listing_term=36&sort_by=amount_remaining',
  'borrower_rate_min=0.08&borrower_rate_max=0.1',
  'sort_by=listing_amount&offset=5000',
  'fico_score=740-759&percent_funded_max=0.3',
  'platform_rating=B&income_range=6&sort_by=lender_yield desc',
  'has_mortgage=true',
].map((q) => `/listingsvc/v2/listings/?limit=25&${q}`);

/** Milliseconds of each of NEW_QUERIES, asked once each in turn; their median. */
async function newQueries(origin, headers) {
  const ms = [];
  for (const path of NEW_QUERIES) {
    const t0 = performance.now();
    const res = await fetch(origin + path, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

/** Seconds `POST /__mock/clock {"advance":"15d"}` takes to answer (the whole move). */
async function advance15d(origin) {
  const t0 = performance.now();
  const res = await fetch(`${origin}/__mock/clock`, {
    method: 'POST',
    body: JSON.stringify({ advance: '15d' }),
    headers: { 'content-type': 'application/json' },
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`clock advance: ${res.status}`);
  return (performance.now() - t0) / 1000;
}

/** The pages the mock answers to QUERIES, served by the floor server; resolves with the server. */
async function floorFor(origin, headers, dir) {
  const pages = {};
  for (const path of Object.values(QUERIES)) pages[path] = await (await fetch(origin + path, { headers })).json();
  writeFileSync(join(dir, 'pages.json'), JSON.stringify(pages));
  return startServer([join(root, 'bench', 'floor-server.js'), join(dir, 'pages.json')]);
}

console.log('listings  start_s  rss_start_MiB  rss_end_MiB  | query: mock req/s p50_ms p99_ms (floor req/s p50_ms p99_ms)');
const dir = mkdtempSync(join(tmpdir(), 'mkt-bench-scale-'));
try {
  for (const n of SIZES) {
    // Requests a second under load: past the listings limit by design.
    const mock = await startMock(n, UNTHROTTLED);
    let floor = null;
    try {
      const rssStart = rssMiB(mock.child.pid);
      const headers = { authorization: `bearer ${await accessToken(mock.origin)}` };
      const parts = [];
      const p50 = {};
      const floorP50 = {};
      const measured = {};
      // Asked before any other search, so that none is kept and the first pays for the indexes it builds.
      const newQueryMs = n === 1_000_000 ? await newQueries(mock.origin, headers) : null;
      for (const [label, path] of Object.entries(QUERIES)) measured[label] = await load(mock.origin + path, { headers, durationMs: MS });
      const rssEnd = rssMiB(mock.child.pid);
      floor = await floorFor(mock.origin, headers, dir);
      for (const [label, path] of Object.entries(QUERIES)) {
        const r = measured[label];
        const f = await load(floor.origin + path, { durationMs: MS });
        parts.push(
          `${label}: ${r.rps.toFixed(0)} ${r.p50.toFixed(1)} ${r.p99.toFixed(1)} (${f.rps.toFixed(0)} ${f.p50.toFixed(1)} ${f.p99.toFixed(1)})`,
        );
        p50[label] = r.p50;
        floorP50[label] = f.p50;
      }
      console.log(
        `${String(n).padStart(8)}  ${(mock.startMs / 1000).toFixed(2).padStart(7)}  ${rssStart.toFixed(0).padStart(13)}  ${rssEnd.toFixed(0).padStart(11)}  | ${parts.join(' | ')}`,
      );
      if (n === 1_000_000) {
        // The bars at a million listings (CI machine): start < 4 s, RSS < 1 GiB, filtered p50 < 50 ms.
        const verdict = (ok) => (ok ? 'ok' : 'OVER');
        console.log(
          `  bars at 1M: start < 4 s ${verdict(mock.startMs < 4000)}, RSS < 1024 MiB ${verdict(rssEnd < 1024)}, filtered p50 < 50 ms ${verdict(p50.filtered < 50)} (the floor's own p50 on this machine: ${floorP50.filtered.toFixed(1)} ms)`,
        );
        const moveS = await advance15d(mock.origin);
        console.log(
          `  round four at 1M: new query of 25 rows, median of ${NEW_QUERIES.length}: ${newQueryMs.toFixed(1)} ms (≤ 25 ms ${verdict(newQueryMs <= 25)}); clock advance 15d: ${moveS.toFixed(2)} s (≤ 3 s ${verdict(moveS <= 3)})`,
        );
      }
    } finally {
      await Promise.all([mock, floor].filter((s) => s !== null).map((s) => stopServer(s)));
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
