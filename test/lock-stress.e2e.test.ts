/**
 * Two starts at once from a stale lock, many times over, through the built binary: two `mkt order submit`
 * runs of one bids file for one account, and two `mkt mock serve --state` on one folder. Before the
 * kernel's lock, 3 of 48 rounds bid the same listing twice and 2 of ~98 ran two mocks (issue 37). The
 * interleavings themselves are proved in lock-interleavings.test.ts; this is the whole path, for real.
 * Rounds: MKT_STRESS_ROUNDS, else 500 under CI and 30 elsewhere.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdLock } from '../src/orders/open-desk.js';
import { runMkt, tempHome, answerCheckEnv, BIN } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

const ROUNDS = Number(process.env.MKT_STRESS_ROUNDS ?? (process.env.CI ? 500 : 30));
/** A pid no process has (pid_max is at most 2^22 on Linux): what a run killed with -9 leaves in its lock. */
const DEAD = `4194305\n${Date.parse('2026-01-01')}\n`;

describe(`two mkt order submit runs started together from a stale lock, ${ROUNDS} rounds`, () => {
  let mock: TestMock;
  beforeAll(async () => {
    // Frozen: every accepted order stays PENDING, so the listings a round used are never free again.
    mock = await startMock({ listings: ROUNDS * 2 + 200, frozen: true });
  });
  afterAll(async () => {
    await mock.close();
  });

  it(
    'never bid one listing twice: one run places the order, the other is refused, and the locks stay in place',
    async () => {
      const home = tempHome();
      const env = mock.env;
      const now = mock.app.ctx.clock.now();
      const listings = mock.app.ctx.world.listings
        .filter(
          (l) =>
            l.listing_status === 2
            && l.investment_typeid === 1
            && l.amount_remaining >= 50
            && now - l.listing_creation_date > 86_400_000
            && !l.mockRole
            && !l.authorizedUsers
            && !l.borrowerUserId,
        )
        .map((l) => l.listing_number)
        .slice(0, ROUNDS);
      expect(listings.length).toBe(ROUNDS);
      // The first run makes the state folder and says which account: every lock is then where a killed run would leave it.
      const first = await runMkt(['order', 'submit', '-', '--yes'], { env, home, input: `listing_id,bid_amount\n${listings[0]},25\n` });
      expect(first.code, first.stderr).toBe(0);
      const accountDir = join(home, 'state', 'accounts');
      const digest = readdirSync(accountDir).find((n) => /^[0-9a-f]{32}$/.test(n))!;
      const locks = [join(accountDir, digest, 'submit.lock'), accountIdLock(join(home, 'state'), 'alice-1')];

      const outcomes = new Map<string, number>();
      let doubles = 0;
      for (const listing of listings.slice(1)) {
        for (const lock of locks) writeFileSync(lock, DEAD);
        const input = `listing_id,bid_amount\n${listing},25\n`;
        const [a, b] = await Promise.all([
          runMkt(['order', 'submit', '-', '--yes'], { env, home, input }),
          runMkt(['order', 'submit', '-', '--yes'], { env, home, input }),
        ]);
        const key = [a.code, b.code].sort().join('+');
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        const orders = [...mock.app.ctx.world.orders.values()].filter((o) => o.bids.some((bid) => bid.listing_id === listing)).length;
        if (orders !== 1) doubles++;
        expect(orders, `listing ${listing}: ${a.stderr}\n---\n${b.stderr}`).toBe(1);
        expect([a.code, b.code].sort(), `${a.stderr}\n---\n${b.stderr}`).toEqual([0, 2]);
      }
      expect(doubles).toBe(0);
      expect(outcomes.get('0+2')).toBe(ROUNDS - 1);
      // Nobody removed a lock file: a removed lock is how a second holder came in.
      for (const lock of locks) expect(existsSync(lock), lock).toBe(true);
    },
    60_000 + ROUNDS * 2_000,
  );
});

describe(`two mkt mock serve --state on one folder started together after a kill -9, ${ROUNDS} rounds`, () => {
  /** Starts `mock serve` on `dir`: resolves 'serving' with the child once it listens, or its exit code and stderr. */
  function start(dir: string) {
    const child = spawn(process.execPath, [BIN, 'mock', 'serve', '--port', '0', '--state', dir, '--listings', '10', '--frozen'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), ...answerCheckEnv() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const outcome = new Promise<{ serving: true } | { serving: false; code: number | null; stderr: string }>((resolve) => {
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (/listening on http:\/\//.test(out)) resolve({ serving: true });
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      void exited.then((code) => resolve({ serving: false, code, stderr: err }));
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    void exited.then(() => clearTimeout(timer));
    return { child, outcome, exited };
  }

  it(
    'never run two: one serves, the other exits 2 naming the folder, every round',
    async () => {
      const dir = join(mkdtempSync(join(tmpdir(), 'mkt-lock-stress-')), 'world');
      mkdirSync(dir);
      writeFileSync(join(dir, 'mock.pid'), DEAD);
      let both = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const pair = [start(dir), start(dir)];
        const outcomes = await Promise.all(pair.map((p) => p.outcome));
        const serving = outcomes.filter((o) => o.serving).length;
        if (serving > 1) both++;
        const refused = outcomes.find((o) => !o.serving);
        expect(serving, JSON.stringify(outcomes)).toBe(1);
        expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining(`mock state ${dir} is in use by another mock`) });
        // The one serving is killed as a crash would: its lock file keeps naming it, a stale lock for the next round.
        for (const p of pair) p.child.kill('SIGKILL');
        await Promise.all(pair.map((p) => p.exited));
      }
      expect(both).toBe(0);
    },
    60_000 + ROUNDS * 3_000,
  );
});
