#!/usr/bin/env node
// Listings search against its floor (DESIGN.md "Bars"), at BENCH_LISTINGS listings (default 100,000):
//   unfiltered limit=25 and three filters limit=500, 10 connections, BENCH_SECONDS (≤ 5) each: the mock vs a
//   raw node:http server that JSON.stringify's the same page; req/s, p50, p99 and the ratio;
//   `mkt listings search --all -o ndjson --limit 500` vs a bare undici paging loop over the same pages.
// All traffic goes to 127.0.0.1; every loop is bounded. Run after `npm run build`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { load } from './load.js';
import { accessToken, bin, startMock } from './mock-proc.js';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const MS = Math.min(5, Number(process.env.BENCH_SECONDS ?? 3)) * 1000;
export const QUERIES = {
  'unfiltered limit=25': '/listingsvc/v2/listings/?limit=25',
  '3 filters limit=500': '/listingsvc/v2/listings/?limit=500&fico_score=700-719,720-739,740-759&borrower_rate_min=0.1&listing_term=36,60',
};

function startFloor(file) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, 'floor-server.js'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (d) => {
      const m = /listening on (\S+)/.exec(String(d));
      if (m) resolve({ child, origin: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`floor server exited ${code}`)));
  });
}

const fmt = (r) => `${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms`;
const dir = mkdtempSync(join(tmpdir(), 'mkt-bench-search-'));
const mock = await startMock(LISTINGS);
try {
  const token = await accessToken(mock.origin);
  const headers = { authorization: `bearer ${token}` };
  console.log(`listings search, ${LISTINGS} listings, 10 connections, ${MS / 1000} s each (mock started in ${(mock.startMs / 1000).toFixed(2)} s)`);
  for (const [label, path] of Object.entries(QUERIES)) {
    const page = await (await fetch(mock.origin + path, { headers })).text();
    const file = join(dir, 'page.json');
    writeFileSync(file, page);
    const m = await load(mock.origin + path, { headers, durationMs: MS });
    const floor = await startFloor(file);
    let f;
    try { f = await load(floor.origin + path, { durationMs: MS }); } finally { floor.child.kill('SIGTERM'); }
    console.log(`${label.padEnd(20)} mock  ${fmt(m)}   p99/p50 ${(m.p99 / m.p50).toFixed(1)}`);
    console.log(`${''.padEnd(20)} floor ${fmt(f)}   floor/mock ${(f.rps / m.rps).toFixed(2)}x`);
  }

  // --all: the CLI streaming every page vs a bare undici loop fetching the same pages.
  const t0 = process.hrtime.bigint();
  const env = { ...process.env, MKT_ROOT_URL: mock.origin, MKT_ACCESS_TOKEN: token };
  const r = spawnSync(process.execPath, [bin, 'listings', 'search', '--all', '-o', 'ndjson', '--limit', '500'], { env, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`search --all exited ${r.status}: ${r.stderr}`);
  const cliMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const lines = r.stdout.toString().split('\n').length - 1;
  const pool = new Pool(mock.origin, { connections: 1 });
  const t1 = process.hrtime.bigint();
  let rows = 0;
  try {
    for (let offset = 0, pages = 0; pages < 10_000; offset += 500, pages++) {
      const res = await pool.request({ path: `/listingsvc/v2/listings/?limit=500&offset=${offset}`, method: 'GET', headers });
      const body = await res.body.json();
      rows += body.result.length;
      if (body.result.length < 500) break;
    }
  } finally {
    await pool.close();
  }
  const rawMs = Number(process.hrtime.bigint() - t1) / 1e6;
  console.log(`search --all -o ndjson: ${lines} rows in ${(cliMs / 1000).toFixed(2)} s; bare paging loop ${rows} rows in ${(rawMs / 1000).toFixed(2)} s (${(cliMs / rawMs).toFixed(2)}x)`);
} finally {
  mock.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
