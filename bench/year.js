#!/usr/bin/env node
// A year of the market through the CLI (issue 43, "Years, not days"): `mkt mock serve --listings N --frozen
// --rate-limit off`, then 12 × `mkt mock clock advance 30d` and one `5d`, each a CLI process, timed by wall
// clock. Prints each move's time, the total, month 12's move over month 1's, the mock's resident memory
// before and after (Linux /proc) and the bytes of it per loan the year added (loans from GET /__mock/state).
// All traffic to 127.0.0.1. Run alone: `node bench/year.js [listings]` (default 100,000), after `npm run build`;
// bench/run.js runs it as its year section (BENCH_ONLY=year). MKT_BENCH_BIN runs another build's bin/mkt.cjs
// (an old copy of dist beside its own bin, for a before figure).
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { accessToken, bin as ownBin, cpuMs, rssMiB, startMock, stopServer, UNTHROTTLED } from './mock-proc.js';

/** Where the walk's world begins (its seed's time). */
const YEAR_START = '2026-06-01T12:00:00Z';

const MONTHS = [...Array.from({ length: 12 }, () => '30d'), '5d'];

/** The mock's loans and listings (GET /__mock/state), on a connection of its own (a kept one may have timed out meanwhile). */
async function counts(origin) {
  const s = await (await fetch(`${origin}/__mock/state`, { headers: { connection: 'close' } })).json();
  return { loans: s.loans, listings: s.listings };
}

/**
 * The year walk at `listings` listings against a fresh mock of `bin`: each move's ms, the total, memory before and
 * after (MiB) and the loans and listings before and after.
 */
export async function yearWalk(listings = 100_000, bin = ownBin) {
  // A fixed start: the seeded world, and so the loans a year makes, are the same in every run (with the real time as
  // the start they moved with it, and a before and an after figure walked different worlds).
  const m = await startMock(listings, [...UNTHROTTLED, '--start', YEAR_START], [], bin);
  try {
    const token = await accessToken(m.origin);
    const env = { ...process.env, MKT_ROOT_URL: m.origin, MKT_ACCESS_TOKEN: token };
    const before = await counts(m.origin);
    // The idle work after the start (the timeline built, listings settled) is done before the first move is timed.
    await new Promise((r) => setTimeout(r, 2000));
    const rssBefore = rssMiB(m.child.pid);
    const moves = [];
    for (const span of MONTHS) {
      const started = process.hrtime.bigint();
      const cpu = cpuMs(m.child.pid);
      const r = spawnSync(process.execPath, [bin, 'mock', 'clock', 'advance', span], { env });
      if (r.status !== 0) throw new Error(`mock clock advance ${span} exited ${r.status}: ${r.stderr}`);
      moves.push({ span, ms: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: cpuMs(m.child.pid) - cpu });
      if (process.env.BENCH_YEAR_VERBOSE) console.error(`move ${moves.length}: ${moves.at(-1).ms.toFixed(0)} ms`);
    }
    const rssAfter = rssMiB(m.child.pid);
    const after = await counts(m.origin);
    const total = moves.reduce((s, x) => s + x.ms, 0);
    const loansAdded = after.loans - before.loans;
    return {
      moves,
      total,
      ratio: moves[11].ms / moves[0].ms,
      rssBefore,
      rssAfter,
      before,
      after,
      loansAdded,
      bytesPerLoan: ((rssAfter - rssBefore) * 1024 * 1024) / Math.max(1, loansAdded),
    };
  } finally {
    await stopServer(m);
  }
}

/** The walk's figures as lines of text. */
export function yearLines(y) {
  const lines = y.moves.map(
    (x, i) => `move ${String(i + 1).padStart(2)} (${x.span}): ${(x.ms / 1000).toFixed(2)} s (mock CPU ${(x.cpuMs / 1000).toFixed(2)} s)`,
  );
  const cpu = y.moves.reduce((s, x) => s + x.cpuMs, 0);
  lines.push(
    `total: ${(y.total / 1000).toFixed(1)} s (mock CPU ${(cpu / 1000).toFixed(1)} s); month 12 / month 1: ${y.ratio.toFixed(2)}x (CPU ${(y.moves[11].cpuMs / y.moves[0].cpuMs).toFixed(2)}x)`,
  );
  lines.push(
    `resident memory ${y.rssBefore.toFixed(0)} MiB -> ${y.rssAfter.toFixed(0)} MiB; loans ${y.before.loans} -> ${y.after.loans}, listings ${y.before.listings} -> ${y.after.listings}; ${y.bytesPerLoan.toFixed(0)} bytes per loan added`,
  );
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const y = await yearWalk(Number(process.argv[2] ?? 100_000), process.env.MKT_BENCH_BIN ?? ownBin);
  for (const line of yearLines(y)) console.log(line);
}
