/** `mkt portfolio` (its cohorts too) and `mkt invest simulate` on a terminal, in-process (main with a terminal's Io) against a real mock. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../src/main.js';
import type { Io } from '../src/io.js';
import { startMock, TEST_START, type TestMock } from './helpers/mock.js';

/** A terminal 100 columns wide, without colour. */
function terminal(env: Record<string, string>): { io: Io; out: () => string } {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d) => (out += String(d)));
  const home = mkdtempSync(join(tmpdir(), 'mkt-terminal-'));
  return {
    io: {
      stdout,
      stderr: new PassThrough(),
      stdin: new PassThrough(),
      stdoutIsTTY: true,
      stderrIsTTY: false,
      stdinIsTTY: false,
      stdoutColumns: 100,
      env: { NO_COLOR: '1', MKT_CONFIG_DIR: home, MKT_STATE_DIR: home, ...env },
      sleep: async () => undefined,
      now: () => TEST_START,
      stopSignal: () => new Promise(() => undefined),
    },
    out: () => out,
  };
}

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 50 });
});
afterAll(async () => {
  await mock.close();
});

test('mkt portfolio draws the split by status and by rating as bars', async () => {
  const t = terminal(mock.env);
  expect(await main(['portfolio'], t.io)).toBe(0);
  expect(t.out()).toMatch(/^by rating \(invested, share, notes, outstanding principal\)$/m);
  expect(t.out()).toMatch(/^ {2}HR +█+▏?▎?▍?▌?▋?▊?▉? +\d+\.\d\d +\d+\.\d%/m);
  expect(t.out()).toMatch(/^ {2}paid in full +█/m);
});

test('mkt invest simulate adds a line chart of the account value over the months', async () => {
  const strategy = join(mkdtempSync(join(tmpdir(), 'mkt-strategy-')), 's.yaml');
  writeFileSync(strategy, 'rules:\n  - name: all\n    filters:\n      platform_rating: [A, B, C]\n    amount: 25\n    max_listings: 5\n');
  const t = terminal({});
  expect(await main(['invest', 'simulate', strategy, '--months', '1', '--listings', '100', '--cash', '500'], t.io)).toBe(0);
  expect(t.out()).toMatch(/^account value, month 0 to 1$/m);
  expect(t.out()).toMatch(/^ +500 [┤┼]─+/m);
  expect(t.out()).toMatch(/^month +date +.*account_value/m);
}, 120_000);

test('--by vintage draws the realised return of each vintage as a line, the first and last vintage under it', async () => {
  const t = terminal(mock.env);
  expect(await main(['portfolio', '--by', 'vintage', '--period', 'year'], t.io)).toBe(0);
  const out = t.out();
  const [, first, last] = /^realised return by vintage, (\d{4}) to (\d{4}) \(a year\)$/m.exec(out) ?? [];
  expect(first! < last!).toBe(true);
  expect(out).toMatch(/^ +-?\d+\.\d% [┤┼]/m);
  expect(out).toMatch(new RegExp(`^ +${first} +${last}$`, 'm'));
  for (const l of out.split('\n')) expect(l.length).toBeLessThanOrEqual(100);
});

test('--by rating draws the defaulted and charged-off share of principal of each rating as bars', async () => {
  const t = terminal(mock.env);
  expect(await main(['portfolio', '--by', 'rating'], t.io)).toBe(0);
  const out = t.out();
  expect(out).toMatch(/^defaulted and charged-off principal by rating$/m);
  expect(out).toMatch(/^ {2}HR +█+[▏▎▍▌▋▊▉]? +\d+\.\d% of principal, [1-9]\d* of \d+ notes$/m);
  expect(out).toMatch(/^ {2}AA +0\.0% of principal, 0 of \d+ notes$/m);
});
