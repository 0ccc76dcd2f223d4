/**
 * Quiet cron (issue 42, item 4): cron mails whatever reaches stderr, so progress and per-bid lines
 * (`invest run`, `order submit`, their --wait) print only when stderr is a terminal or with --progress;
 * off a terminal a run that succeeds prints nothing to stderr, while a failure, and a warning that needs
 * the person (a bid of the file left out), still print. In-process (main with an injected Io) against a
 * real mock on 127.0.0.1.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.js';
import { main } from '../src/main.js';
import { startMock, type TestMock } from './helpers/mock.js';
import { captureIo } from './helpers/capture-io.js';

let mock: TestMock;
beforeAll(async () => {
  // Not frozen: --wait sees its orders processed.
  mock = await startMock({ listings: 300, frozen: false });
});
afterAll(async () => {
  await mock.close();
});

/** Runs mkt in-process with stderr a terminal or not; stdout is never one (cron sends it to a file). */
async function mkt(args: string[], o: { tty?: boolean; input?: string; home?: string } = {}) {
  const home = o.home ?? mkdtempSync(join(tmpdir(), 'mkt-quiet-'));
  const stdin = new PassThrough();
  stdin.end(o.input ?? '');
  const env = { ...mock.env, MKT_CONFIG_DIR: join(home, 'config'), MKT_STATE_DIR: join(home, 'state'), MKT_CREDENTIAL_STORE: 'file' };
  const run = captureIo(env, { stdin, stderrIsTTY: o.tty === true, ...systemClock });
  const code = await main(args, run.io);
  return { code, stdout: run.out(), stderr: run.err(), home };
}

/** Listings the mock will take a bid on now, not yet bid on by anyone in this file. */
function freshListings(n: number): number[] {
  const now = mock.app.ctx.clock.now();
  const taken = new Set([...mock.app.ctx.world.orders.values()].flatMap((o) => o.bids.map((b) => b.listing_id)));
  return mock.app.ctx.world.listings
    .filter(
      (l) =>
        l.listing_status === 2
        && l.investment_typeid === 1
        && l.amount_remaining >= 100
        && !l.borrowerUserId
        && now - l.listing_creation_date > 2 * 86_400_000
        && l.listing_start_date < now
        && !l.mockRole
        && !l.authorizedUsers
        && !taken.has(l.listing_number),
    )
    .slice(0, n)
    .map((l) => l.listing_number);
}

function strategy(home: string, text: string): string {
  const f = join(home, 'strategy.yaml');
  writeFileSync(f, text);
  return f;
}

const home = (): string => mkdtempSync(join(tmpdir(), 'mkt-quiet-'));

describe('off a terminal a run that succeeds prints nothing to stderr', () => {
  it('order submit --yes --wait: the rows on stdout, no progress and no "accepted" line', async () => {
    const ids = freshListings(2);
    const r = await mkt(['order', 'submit', '-', '--amount', '25', '--yes', '--wait'], { input: `listing_id\n${ids.join('\n')}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect((JSON.parse(r.stdout) as Array<{ listing_id: number }>).map((b) => b.listing_id)).toEqual(ids);
  });

  it('order submit --progress: the same run says each order accepted and its wait', async () => {
    const ids = freshListings(1);
    const r = await mkt(['order', 'submit', '-', '--amount', '25', '--yes', '--wait', '--progress'], { input: `listing_id\n${ids[0]}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^order 1\/1 accepted: \S+ \(1 bids\)$/m);
    expect(r.stderr.split('\n').length).toBeGreaterThan(2);
  });

  it('invest run --yes --wait: nothing on stderr; the report on stdout; --progress shows the same run', async () => {
    const h = home();
    const f = strategy(h, 'max_bids_per_run: 2\nrules:\n  - name: abc\n    filters:\n      platform_rating: [A, B, C]\n    amount: 25\n');
    const quiet = await mkt(['invest', 'run', f, '--yes', '--wait'], { home: h });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(JSON.parse(quiet.stdout)).toMatchObject({ total_bid: 50, reason: null });

    const shown = await mkt(['invest', 'run', f, '--yes', '--wait', '--progress'], { home: h });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toMatch(/^order 1\/1 accepted: /m);
  });

  it('invest run that bids nothing: the reason in the report, not on stderr (on a terminal it is said)', async () => {
    const h = home();
    const f = strategy(h, 'rules:\n  - name: huge\n    filters:\n      listing_amount_min: 1000000\n    amount: 25\n');
    const quiet = await mkt(['invest', 'run', f, '--yes'], { home: h });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(JSON.parse(quiet.stdout).reason).toBe('no active listing you have not invested in matches the rule');
    const tty = await mkt(['invest', 'run', f, '--yes'], { home: h, tty: true });
    expect(tty.stderr).toContain('nothing was bid: no active listing you have not invested in matches the rule');
  });
});

describe('what still reaches stderr off a terminal', () => {
  it('a failure: its message and its exit code', async () => {
    const h = home();
    const f = strategy(h, 'rules:\n  - name: bad\n    amount: 10\n');
    const r = await mkt(['invest', 'run', f, '--yes'], { home: h });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('rules[0].amount: 10 is below the 25.00 minimum bid');
  });

  it('a warning that needs the person: a bid of the file left out because its listing cannot take bids', async () => {
    const [id] = freshListings(1);
    const r = await mkt(['order', 'submit', '-', '--amount', '25', '--yes'], { input: `listing_id\n${id}\n1\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/leaving out 1 bid on listings that cannot take bids now:\n {2}.*listing 1: /);
    expect(r.stderr).not.toMatch(/accepted/);
  });
});

describe('on a terminal', () => {
  it('progress is shown, and --no-progress hides it', async () => {
    const ids = freshListings(2);
    const shown = await mkt(['order', 'submit', '-', '--amount', '25', '--yes'], { tty: true, input: `listing_id\n${ids[0]}\n` });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toMatch(/order 1\/1 accepted: /);
    const hidden = await mkt(['order', 'submit', '-', '--amount', '25', '--yes', '--no-progress'], {
      tty: true,
      input: `listing_id\n${ids[1]}\n`,
    });
    expect(hidden.code, hidden.stderr).toBe(0);
    expect(hidden.stderr).toBe('');
  });
});

describe('invest simulate, off a terminal', () => {
  it('prints its months only with --progress', async () => {
    const h = home();
    const f = strategy(h, 'rules:\n  - name: abc\n    filters:\n      platform_rating: [A, B, C]\n    amount: 25\n');
    const args = ['invest', 'simulate', f, '--months', '1', '--listings', '50', '--cash', '1000', '-o', 'json'];
    const quiet = await mkt(args, { home: h });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    const shown = await mkt([...args, '--progress'], { home: h });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toMatch(/^month 1\/1 \(\S+\): account value [\d,]+\.\d\d, \d+ notes$/m);
  });
});
