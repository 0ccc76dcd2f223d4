/**
 * The command printed to resume a --wait (after its timeout, or Ctrl-C) repeats every flag that shaped
 * the wait: a `--until completed` wait resumed by the printed command still waits for COMPLETED.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';
import { bidsFile, ordersIn } from './helpers/one-bid.js';

let mock: TestMock;
beforeEach(async () => {
  mock = await startMock({ listings: 120 });
});
afterEach(async () => {
  await mock.close();
});

/** The command between backticks after `lead` in `stderr`, as words. */
function printed(stderr: string, lead: string): string[] {
  const at = stderr.indexOf(lead);
  expect(at, stderr).toBeGreaterThanOrEqual(0);
  const m = /`([^`]+)`/.exec(stderr.slice(at + lead.length))!;
  return m[1]!.split(' ');
}

describe('resuming a --wait', () => {
  it('after a --until completed timeout, the printed command keeps --until completed and the timeout, and runs as printed', async () => {
    const home = tempHome();
    const r = await runMkt(['order', 'submit', bidsFile(mock, home), '--yes', '--wait', '--until', 'completed', '--timeout', '1'], {
      env: mock.env,
      home,
    });
    expect(r.code).toBe(6);
    const id = ordersIn(mock)[0]!.order_id;
    expect(r.stderr).toContain(`not yet completed`);
    const resume = printed(r.stderr, 'follow with ');
    expect(resume.join(' ')).toBe(`mkt order get ${id} --wait --until completed --timeout 1`);
    // The printed command is one the CLI takes, and it waits as the first did.
    const again = await runMkt(resume.slice(1), { env: mock.env, home });
    expect(again.code).toBe(6);
    expect(again.stderr).toContain(`gave up after 1 s with 1 bid placed and still pending (not yet completed)`);
    expect(printed(again.stderr, 'follow with ')).toEqual(resume);
  });

  it('after Ctrl-C (SIGINT to the process) during a --until completed wait, the hint keeps --until completed and --timeout', async () => {
    const home = tempHome();
    const r = await runMkt(
      ['order', 'submit', bidsFile(mock, home), '--yes', '--wait', '--until', 'completed', '--timeout', '120', '--progress', '-o', 'json'],
      {
        // The progress line (--progress: off a terminal it is quiet) comes once following has begun (and listens for Ctrl-C).
        env: mock.env,
        home,
        interrupt: { when: /IN_PROGRESS: 1 NONE; 1 PENDING/, signal: 'SIGINT' },
      },
    );
    expect(r.code).toBe(130);
    const id = ordersIn(mock)[0]!.order_id;
    expect(r.stderr).toContain(`interrupted (SIGINT) while waiting: order ${id} is placed`);
    expect(printed(r.stderr, 'resume following with ').join(' ')).toBe(`mkt order get ${id} --wait --until completed --timeout 120`);
  });

  it('a wait under another profile is resumed under that profile', async () => {
    const home = tempHome();
    const r = await runMkt(
      [
        'order',
        'submit',
        bidsFile(mock, home),
        '--yes',
        '--wait',
        '--until',
        'completed',
        '--timeout',
        '1',
        '--profile',
        'bob',
        '-o',
        'json',
      ],
      { env: mock.env, home },
    );
    expect(r.code).toBe(6);
    const resume = printed(r.stderr, 'follow with ');
    expect(resume.join(' ')).toBe(`mkt order get ${ordersIn(mock)[0]!.order_id} --wait --until completed --timeout 1 --profile bob`);
    expect((await runMkt(resume.slice(1), { env: mock.env, home })).code).not.toBe(2);
  });

  it('a wait with the default flags is resumed with none added', async () => {
    const home = tempHome();
    const r = await runMkt(['order', 'submit', bidsFile(mock, home), '--yes', '--wait', '--progress', '-o', 'json'], {
      env: mock.env,
      home,
      interrupt: { when: /IN_PROGRESS: 1 NONE; 1 PENDING/, signal: 'SIGINT' },
    });
    expect(r.code).toBe(130);
    expect(printed(r.stderr, 'resume following with ').join(' ')).toBe(`mkt order get ${ordersIn(mock)[0]!.order_id} --wait`);
  });

  it('invest run --wait --until completed that times out prints the same resume command', async () => {
    const home = tempHome();
    const f = join(home, 's.yaml');
    writeFileSync(f, 'max_bids_per_run: 1\nrules:\n  - name: any\n    filters:\n      platform_rating: [A, B, C, D]\n    amount: 25\n');
    const r = await runMkt(['invest', 'run', f, '--yes', '--wait', '--until', 'completed', '--timeout', '1', '-o', 'json'], {
      env: mock.env,
      home,
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(6);
    const id = ordersIn(mock)[0]!.order_id;
    expect(printed(r.stderr, 'follow with ').join(' ')).toBe(`mkt order get ${id} --wait --until completed --timeout 1`);
  });
});
