#!/usr/bin/env node
// A clock move's work counted, not timed (opt-in, minutes a run: not part of `npm run bench`). Wall time on a shared
// 2-core machine moves by ±10% between runs of the same build, which hides the few-percent changes left to the move;
// valgrind's cachegrind counts the instructions a run executes and simulates its caches, whatever else the machine is
// doing. Each run is the library's one-thread marketplace (bench/move-count-child.js) at LISTINGS listings from a fixed
// start, moved SPAN; the move's count is that run's less a run of the same build that is not moved (its world built
// alike). Node runs with V8's sources of variation off: one thread, a predictable collector, fixed seeds, and no
// flushing of code that has not run lately (with flushing on, which functions a collection drops and compiles again
// varied, and the same build's move varied by 3-7% of its instructions; off, by under 2%). Address randomisation off.
//
//   node bench/move-count.js [--listings 100000] [--span 15d] [--runs 3] [ROOT ...]
//
// ROOT: a built checkout (default this one); with two, the second's counts against the first's (a before and an
// after). Needs valgrind and setarch (Debian: `apt-get install valgrind util-linux`). 2.5-5 minutes a run at 100,000
// listings, by the machine; a run at 1,000,000 takes ~50. Counts compare on one machine only (V8 and the C library
// pick their code for the CPU). Not for small worlds (MIN_LISTINGS). Caveat: the one-thread marketplace draws a long
// move's arrivals in its ticks, where `mkt mock serve` draws them on another thread, and 100,000 listings has a tenth
// of a 1M move's visits.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median, root as ownRoot } from './mock-proc.js';

/** V8's sources of run-to-run variation, off. */
const NODE_FLAGS = [
  '--predictable',
  '--predictable-gc-schedule',
  '--single-threaded',
  '--random-seed=1',
  '--hash-seed=1',
  '--no-memory-reducer',
  '--no-flush-bytecode',
  '--no-flush-baseline-code',
];

/**
 * The caches simulated, given rather than read off the host (valgrind would take a shared L3 of hundreds of MiB as the
 * last level): 32 KiB L1i, 48 KiB L1d, and the 2 MiB L2 a core of this workplace's machines as the last level.
 */
const CACHES = ['--I1=32768,8,64', '--D1=49152,12,64', '--LL=2097152,16,64'];

const CHILD = join(ownRoot, 'bench', 'move-count-child.js');

/**
 * The smallest world counted: at 2,000 listings the runs not moved varied by 3% of their count (5.54-5.71G), and the
 * same build against itself read +42% for a 1-day move; at 100,000, by 0.05%.
 */
const MIN_LISTINGS = 50_000;

/** A cachegrind summary line's count (`==1== I   refs:      14,502,113,020`). */
function count(text, label) {
  const m = new RegExp(`^==\\d+== ${label.replace(' ', '\\s+')}:\\s+([\\d,]+)`, 'm').exec(text);
  if (!m) throw new Error(`cachegrind: no '${label}' line in its summary:\n${text.slice(-2000)}`);
  return Number(m[1].replaceAll(',', ''));
}

/** The counts of cachegrind's summary (its stderr with `--cache-sim=yes`): instructions, D1 misses, last-level misses. */
export function cachegrindCounts(text) {
  return { ir: count(text, 'I refs'), d1: count(text, 'D1 misses'), ll: count(text, 'LL misses') };
}

/** One run under cachegrind: instructions, D1 misses and last-level misses (data and instructions). */
function run(root, listings, span) {
  const args = [
    '-R',
    'valgrind',
    '--tool=cachegrind',
    '--cache-sim=yes',
    ...CACHES,
    '--smc-check=all-non-file',
    '--cachegrind-out-file=/dev/null',
    process.execPath,
    ...NODE_FLAGS,
    CHILD,
    root,
    String(listings),
    span,
  ];
  const started = Date.now();
  // Bounded: a run at 100,000 listings takes minutes; four hours is the most any size here is given.
  const r = spawnSync('setarch', args, { encoding: 'utf8', timeout: 4 * 3600_000, env: { ...process.env, NODE_OPTIONS: '' } });
  if (r.status !== 0) throw new Error(`valgrind run (${span}) exited ${r.status ?? r.signal}:\n${r.stderr.slice(-2000)}`);
  return { ...cachegrindCounts(r.stderr), seconds: (Date.now() - started) / 1000 };
}

const G = (n) => `${(n / 1e9).toFixed(3)}G`;
const M = (n) => `${(n / 1e6).toFixed(2)}M`;
const spread = (xs) =>
  xs.length > 1
    ? ` (runs ${xs.map((x) => G(x)).join(', ')}; spread ${((100 * (Math.max(...xs) - Math.min(...xs))) / median(xs)).toFixed(1)}%)`
    : '';

/** The move's counts for one build: a run not moved, then `runs` runs moved, each less the first. */
function measure(root, listings, span, runs) {
  const still = run(root, listings, '0');
  console.log(`${root}: not moved ${G(still.ir)} instructions, ${M(still.ll)} LL misses (${still.seconds.toFixed(0)} s)`);
  const moves = [];
  for (let i = 0; i < runs; i++) {
    const moved = run(root, listings, span);
    moves.push({ ir: moved.ir - still.ir, d1: moved.d1 - still.d1, ll: moved.ll - still.ll });
    console.log(
      `  move ${i + 1}: ${G(moves.at(-1).ir)} instructions, ${M(moves.at(-1).d1)} D1 misses, ${M(moves.at(-1).ll)} LL misses (${moved.seconds.toFixed(0)} s)`,
    );
  }
  const figure = { ir: median(moves.map((x) => x.ir)), d1: median(moves.map((x) => x.d1)), ll: median(moves.map((x) => x.ll)) };
  console.log(
    `  the move, median of ${runs}: ${G(figure.ir)} instructions${spread(moves.map((x) => x.ir))}, ${M(figure.d1)} D1 misses, ${M(figure.ll)} LL misses`,
  );
  return figure;
}

/** The command line's options and builds (default this checkout); an Error naming what is wrong. */
export function moveCountArgs(args) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      listings: { type: 'string', default: '100000' },
      span: { type: 'string', default: '15d' },
      runs: { type: 'string', default: '3' },
    },
  });
  const listings = Number(values.listings);
  if (!/^\d+$/.test(values.listings) || !Number.isSafeInteger(listings)) {
    throw new Error(`--listings: not a whole number: ${values.listings}`);
  }
  if (listings < MIN_LISTINGS) {
    throw new Error(`--listings: at least ${MIN_LISTINGS} (a smaller world's runs vary by more than its move): ${values.listings}`);
  }
  if (!/^[1-9]$/.test(values.runs)) throw new Error(`--runs: not a whole number from 1 to 9: ${values.runs}`);
  if (!/^[1-9]\d*[mhd]$/.test(values.span)) throw new Error(`--span: not a duration such as 15d or 6h: ${values.span}`);
  if (positionals.length > 2) throw new Error(`at most two builds, a before and an after: ${positionals.length} given`);
  const roots = (positionals.length ? positionals : [ownRoot]).map((p) => resolve(p));
  return { listings, runs: Number(values.runs), span: values.span, roots };
}

function main() {
  let args;
  try {
    args = moveCountArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`move-count: ${err.message}`);
    process.exit(2);
  }
  const { listings, runs, span, roots } = args;
  for (const tool of ['valgrind', 'setarch']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
      console.error(`move-count: needs ${tool} (Debian: apt-get install valgrind util-linux)`);
      process.exit(2);
    }
  }
  for (const r of roots) {
    if (!existsSync(join(r, 'dist', 'mock-server', 'library', 'index.js'))) {
      console.error(`move-count: ${r}: not built (run node scripts/build.mjs there)`);
      process.exit(2);
    }
  }
  console.log(`clock move ${span} at ${listings} listings, counted by cachegrind (node ${process.version})`);
  const figures = roots.map((r) => measure(r, listings, span, runs));
  if (figures.length === 2) {
    const [a, b] = figures;
    const pct = (x, y) => `${x <= y ? '+' : ''}${((100 * (y - x)) / x).toFixed(1)}%`;
    console.log(`after / before: instructions ${pct(a.ir, b.ir)}, D1 misses ${pct(a.d1, b.d1)}, LL misses ${pct(a.ll, b.ll)}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
