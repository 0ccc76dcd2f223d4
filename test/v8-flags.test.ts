/**
 * The V8 flags mkt sets in its own processes (src/os/v8-flags.ts): for `mkt mock serve`'s long clock moves, the engine's
 * inlining budget from the first on and a heap growth step for each move's length (not to start, nor for a short move;
 * nor for `mkt invest simulate`: a short run), set after the bin's code cache is told, only on a Node whose V8 has the
 * flags. What they are worth is bench/year.js's and bench/scale.js's to measure, not a test's.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as V8 from 'node:v8';
import { afterEach, expect, test, vi } from 'vitest';

const calls = vi.hoisted(() => [] as string[]);
vi.mock('node:v8', async (original) => ({
  ...(await original<typeof V8>()),
  setFlagsFromString: (flags: string) => void calls.push(`flags ${flags}`),
}));

const { ENGINE_INLINING, LONG_MOVE_HEAP_GROWING, V8_HEAP_GROWING, engineFlagsApply, tuneV8ForLongMove } =
  await import('../src/os/v8-flags.js');
/** What `mkt mock serve` sets on the Node running the tests as its first long move begins, and as that move ends. */
const FIRST = `flags ${ENGINE_INLINING} ${LONG_MOVE_HEAP_GROWING}`;
const SET = engineFlagsApply() ? [FIRST] : [];
const PUT_BACK = engineFlagsApply() ? [`flags ${V8_HEAP_GROWING}`] : [];
const { main } = await import('../src/main.js');
import { captureIo } from './helpers/capture-io.js';

afterEach(() => {
  calls.length = 0;
});

/** `main`'s io, with a home of its own. */
const io = () => captureIo({ MKT_CONFIG_DIR: '/nonexistent-mkt-config', HOME: mkdtempSync(join(tmpdir(), 'mkt-v8-flags-')) });

test.runIf(engineFlagsApply())("the running Node's V8 has the flags mkt sets (an unknown one is an error on stderr)", () => {
  const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
  expect(options.status).toBe(0);
  const names = [ENGINE_INLINING, LONG_MOVE_HEAP_GROWING, V8_HEAP_GROWING].map((flag) => flag.split('=')[0]!);
  expect(names).toEqual(['--max-inlined-bytecode-size-cumulative', '--heap-growing-percent', '--heap-growing-percent']);
  // V8's own heap growth step is its default.
  expect(options.stdout).toContain(`default: ${V8_HEAP_GROWING}\n`);
  for (const name of names) expect(options.stdout).toContain(`${name} `);
});

test('the flags are set on Node 20 to 24, after the code cache is told, the heap step put back after; never outside them', () => {
  const listener = (): void => void calls.push('code cache told');
  process.on('mkt:v8-flags' as 'exit', listener);
  try {
    for (const version of ['18.20.0', '19.9.0', '25.0.0', '26.1.2']) {
      expect(engineFlagsApply(version)).toBe(false);
      expect(tuneV8ForLongMove(true, version)).toBeUndefined();
    }
    expect(calls).toEqual([]);
    const putBack = tuneV8ForLongMove(true, '20.19.0');
    expect(calls).toEqual(['code cache told', FIRST]);
    putBack!();
    expect(tuneV8ForLongMove(false, '24.21.0')).toBeTypeOf('function');
    expect(calls).toEqual([
      'code cache told',
      FIRST,
      'code cache told',
      `flags ${V8_HEAP_GROWING}`,
      'code cache told',
      `flags ${LONG_MOVE_HEAP_GROWING}`,
    ]);
  } finally {
    process.off('mkt:v8-flags' as 'exit', listener);
  }
});

test('mkt mock serve sets them as its first long clock move begins, the heap step put back as it ends: not to serve, nor for a short move', async () => {
  const run = io();
  // 6,000 listings: about 18 arrive an hour, so 400 days (the longest move) bring ~171,000 (LONG_MOVE_ARRIVALS: 150,000), 14 days ~6,000.
  const served = main(['mock', 'serve', '--port', '0', '--listings', '6000', '--frozen', '--rate-limit', 'off'], run.io);
  for (let i = 0; i < 2000 && !run.out().includes('listening on'); i++) await new Promise((r) => setTimeout(r, 5));
  const origin = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(run.out())?.[1];
  expect(origin, run.err()).toBeDefined();
  expect(calls).toEqual([]);
  const move = (advance: string) =>
    fetch(`${origin}/__mock/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance }) });
  const short = await move('14d');
  expect(short.status, await short.text()).toBe(200);
  expect(calls).toEqual([]);
  // The long move is not waited for: the flags are set as it begins, and stopping the mock ends it at its next day.
  const long = move('400d').catch(() => undefined);
  for (let i = 0; i < 2000 && calls.length < SET.length; i++) await new Promise((r) => setTimeout(r, 5));
  expect(calls).toEqual(SET);
  run.stop();
  expect(await served).toBe(0);
  await long;
  expect(calls).toEqual([...SET, ...PUT_BACK]);
});

test('mkt invest simulate, a short run of the engine, and a command that runs none leave them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mkt-v8-flags-'));
  const strategy = join(dir, 'strategy.yaml');
  writeFileSync(strategy, 'rules:\n  - name: abc\n    filters:\n      platform_rating: [A, B, C]\n    amount: 25\n');
  const run = io();
  const code = await main(['invest', 'simulate', strategy, '--months', '1', '--listings', '50', '--cash', '1000', '-o', 'json'], run.io);
  expect(code, run.err()).toBe(0);
  expect(calls).toEqual([]);
  const check = io();
  expect(await main(['invest', 'check', strategy], check.io), check.err()).toBe(0);
  expect(calls).toEqual([]);
});
