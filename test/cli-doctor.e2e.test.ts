/**
 * `mkt doctor` against a real mock: every check passes with a token, and each failure a cron job would
 * meet (marketplace unreachable, no credentials, a damaged journal, a stale lock, no mkt on PATH) fails
 * its own check, says what to do, and exits 1.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDir } from '../src/orders/journal.js';
import { marketplaceKey } from '../src/orders/marketplace.js';
import { BIN, runMkt, tempHome, type RunResult } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

interface Check {
  check: string;
  status: 'ok' | 'warn' | 'fail' | 'skip';
  detail: string;
  fix: string | null;
}

let mock: TestMock;
/** A PATH whose first directory holds `mkt` (this build's bin) and `node`, as `npm install -g` leaves them. */
let path: string;

beforeAll(async () => {
  // The clock starts at the real one: the clock check compares the mock's Date header with this machine's.
  mock = await startMock({ listings: 120, frozen: true, start: Date.now() });
  const bin = mkdtempSync(join(tmpdir(), 'mkt-doctor-bin-'));
  symlinkSync(BIN, join(bin, 'mkt'));
  symlinkSync(process.execPath, join(bin, 'node'));
  path = `${bin}:/usr/bin:/bin`;
});
afterAll(async () => {
  await mock.close();
});

/** Runs `mkt doctor -o json` and reads its checks. */
async function doctor(
  env: Record<string, string>,
  home = tempHome(),
): Promise<{ run: RunResult; checks: Check[]; of: (name: string) => Check }> {
  const run = await runMkt(['doctor', '-o', 'json'], { env: { PATH: path, ...env }, home });
  const checks = JSON.parse(run.stdout) as Check[];
  return { run, checks, of: (name) => checks.find((c) => c.check === name)! };
}

/** A pid that was just in use and is no longer. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.on('close', r));
  return child.pid!;
}

/** The submit lock of alice-1's account at the mock, where `order submit` and `invest run` take it. */
function submitLock(home: string): string {
  const account = mock.app.ctx.world.accounts.get('alice-1')!.externalUserId;
  return join(accountDir(join(home, 'state'), marketplaceKey(`${mock.origin}/v1`, account)), 'submit.lock');
}

describe('mkt doctor', () => {
  it('passes every check against a mock with a token, one line each, and prints no secret', async () => {
    const { run, checks } = await doctor(mock.env);
    expect(checks.map((c) => c.check)).toEqual(['settings', 'marketplace', 'clock', 'credentials', 'journal', 'lock', 'path']);
    expect(
      checks.filter((c) => c.status !== 'ok' && c.status !== 'warn'),
      run.stdout,
    ).toEqual([]);
    expect(run.code).toBe(0);
    const account = mock.app.ctx.world.accounts.get('alice-1')!.externalUserId;
    expect(checks.find((c) => c.check === 'credentials')!.detail).toContain(`accepted for account ${account}`);
    expect(checks.find((c) => c.check === 'path')!.detail).toContain(`${join(path.split(':')[0]!, 'mkt')} is this mkt`);
    expect(run.stdout + run.stderr).not.toContain(mock.env.MKT_ACCESS_TOKEN);

    const text = await runMkt(['doctor', '-o', 'table'], { env: { PATH: path, ...mock.env } });
    const lines = text.stdout.trim().split('\n');
    expect(lines).toHaveLength(8);
    expect(lines.slice(0, 7).map((l) => l.split(/\s+/)[1])).toEqual(checks.map((c) => c.check));
    expect(lines[7]).toBe('all 7 checks passed');
  });

  it('names where each setting comes from: a variable a cron job lacks, or the config file', async () => {
    const fromEnv = await doctor(mock.env);
    expect(fromEnv.of('settings').detail).toContain(`base_url ${mock.origin}/v1 from MKT_ROOT_URL`);
    expect(fromEnv.of('settings')).toMatchObject({ status: 'warn', fix: expect.stringContaining('MKT_ROOT_URL comes from this shell') });

    const home = tempHome();
    expect((await runMkt(['config', 'set', 'root_url', mock.origin], { home })).code).toBe(0);
    const fromFile = await doctor({ MKT_ACCESS_TOKEN: mock.env.MKT_ACCESS_TOKEN! }, home);
    expect(fromFile.of('settings')).toMatchObject({ status: 'ok' });
    expect(fromFile.of('settings').detail).toContain(`base_url ${mock.origin}/v1 from root_url of the config file`);
    expect(fromFile.of('settings').detail).toContain(`config file ${join(home, 'config', 'config.json')}`);
  });

  it('fails on an unreachable marketplace, says to start it or fix base_url, and skips what needs it', async () => {
    const { run, of } = await doctor({ MKT_ROOT_URL: 'http://127.0.0.1:9', MKT_ACCESS_TOKEN: 'x' });
    expect(run.code).toBe(1);
    expect(of('marketplace')).toMatchObject({ status: 'fail', detail: expect.stringContaining('cannot reach http://127.0.0.1:9') });
    expect(of('marketplace').fix).toMatch(/mkt mock serve.*base_url/);
    expect(of('clock').status).toBe('skip');
    expect(of('credentials').status).toBe('skip');
    expect(of('path').status).toBe('ok');
  });

  it('fails without credentials and says to run mkt login', async () => {
    const { run, of } = await doctor({ MKT_ROOT_URL: mock.origin });
    expect(run.code).toBe(1);
    expect(of('credentials')).toMatchObject({ status: 'fail', detail: expect.stringContaining('not logged in') });
    expect(of('credentials').fix).toContain('mkt login');
  });

  it('fails on a damaged journal, naming the file and line and the repair', async () => {
    const home = tempHome();
    const listing = mock.app.ctx.world.listings.find(
      (l) =>
        l.listing_status === 2
        && l.investment_typeid === 1
        && l.amount_remaining >= 100
        && !l.mockRole
        && !l.authorizedUsers
        && !l.borrowerUserId,
    )!;
    const placed = await runMkt(['order', 'submit', '-', '--amount', '25', '--yes'], {
      env: mock.env,
      home,
      input: `listing_id\n${listing.listing_number}\n`,
    });
    expect(placed.code, placed.stderr).toBe(0);
    const journal = join(dirname(submitLock(home)), 'journal.jsonl');
    expect((await doctor(mock.env, home)).of('journal')).toMatchObject({ status: 'ok', detail: `${journal} read whole` });

    const lines = readFileSync(journal, 'utf8').split('\n').length - 1;
    appendFileSync(journal, '{"t":"accepted","batch":\n');
    const { run, of } = await doctor(mock.env, home);
    expect(run.code).toBe(1);
    expect(of('journal')).toMatchObject({ status: 'fail', detail: expect.stringContaining(`${journal} line ${lines + 1}`) });
    expect(of('journal').fix).toContain('mkt order journal --repair');
  });

  it('warns when another state directory (the default one, or MKT_STATE_DIR) holds an order journal for the same account', async () => {
    const home = tempHome();
    const taken = new Set([...mock.app.ctx.world.orders.values()].flatMap((o) => o.bids.map((b) => b.listing_id)));
    const listing = mock.app.ctx.world.listings.find(
      (l) =>
        l.listing_status === 2
        && l.investment_typeid === 1
        && l.amount_remaining >= 100
        && !l.mockRole
        && !l.authorizedUsers
        && !l.borrowerUserId
        && !taken.has(l.listing_number),
    )!;
    // A submit from a shell without MKT_STATE_DIR: its journal is under ~/.local/state/mkt.
    const byDefault = { ...mock.env, MKT_STATE_DIR: '' };
    const placed = await runMkt(['order', 'submit', '-', '--amount', '25', '--yes'], {
      env: byDefault,
      home,
      input: `listing_id\n${listing.listing_number}\n`,
    });
    expect(placed.code, placed.stderr).toBe(0);
    const xdg = join(home, '.local', 'state', 'mkt');

    const withVar = await doctor(mock.env, home);
    expect(withVar.run.code).toBe(0);
    expect(withVar.of('journal')).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining(
        `${xdg} (the default, ~/.local/state/mkt) holds an order journal for this account too (1 order, the last sent `,
      ),
    });
    expect(withVar.of('journal').detail).toContain(`which runs using ${join(home, 'state')} do not read`);
    expect(withVar.of('journal').fix).toMatch(
      /^use one state directory for this account on this machine — set MKT_STATE_DIR to the same folder for every run/,
    );

    // A journal under $XDG_STATE_HOME/mkt: found from a run with MKT_STATE_DIR; the directory in use is never "another".
    const home2 = tempHome();
    const xdgEnv = { ...byDefault, XDG_STATE_HOME: join(home2, 'xdg') };
    expect(
      (
        await runMkt(['order', 'submit', '-', '--amount', '25', '--yes', '--allow-duplicate'], {
          env: xdgEnv,
          home: home2,
          input: `listing_id\n${listing.listing_number}\n`,
        })
      ).code,
    ).toBe(0);
    const found = await doctor({ ...xdgEnv, MKT_STATE_DIR: join(home2, 'state') }, home2);
    expect(found.of('journal')).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining(`${join(home2, 'xdg', 'mkt')} ($XDG_STATE_HOME/mkt) holds an order journal for this account too`),
    });
    expect((await doctor(xdgEnv, home2)).of('journal').status).toBe('ok');
  });

  it('says a lock naming a process that is not running (or is now another program) is no lock: the kernel let it go with its run', async () => {
    const home = tempHome();
    const lock = submitLock(home);
    mkdirSync(dirname(lock), { recursive: true });
    const pid = await deadPid();
    writeFileSync(lock, `${pid}\n${Date.now()}\n`);
    const left = await doctor(mock.env, home);
    expect(left.of('lock')).toMatchObject({ status: 'ok', detail: expect.stringContaining(`${lock} names pid ${pid}`) });
    expect(left.of('lock').detail).toContain('the lock died with it');

    const sleeper = spawn('sleep', ['30']);
    try {
      writeFileSync(lock, `${sleeper.pid}\n${Date.now()}\n`);
      const reused = await doctor(mock.env, home);
      expect(reused.of('lock')).toMatchObject({ status: 'ok', detail: expect.stringContaining(`pid ${sleeper.pid}`) });
      expect(reused.of('lock').detail).toContain('sleep 30');
    } finally {
      sleeper.kill();
    }
  });

  it('fails when mkt is not on PATH, saying how to put it there', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'mkt-doctor-nobin-'));
    const { run, of } = await doctor({ ...mock.env, PATH: empty });
    expect(run.code).toBe(1);
    expect(of('path')).toMatchObject({ status: 'fail', detail: expect.stringContaining('no mkt on PATH') });
    expect(of('path').fix).toContain('npm install -g');
  });

  it('gives the PATH line to add, not a reinstall, for an mkt installed where PATH does not look (--prefix)', async () => {
    // Cron's PATH: node is there only when this machine keeps it in /usr/bin or /bin; else its directory joins the line.
    const nodeDirs = ['/usr/bin', '/bin'].some((d) => existsSync(join(d, 'node'))) ? '' : `:${dirname(process.execPath)}`;
    const expectLines = (check: Check, dir: string) => {
      expect(check).toMatchObject({ status: 'fail', detail: expect.stringContaining(`mkt is installed at ${join(dir, 'mkt')}`) });
      expect(check.fix).toContain(`\`PATH=${dir}${nodeDirs}:/usr/bin:/bin\` at the top of the crontab`);
      expect(check.fix).toContain(`\`export PATH="${dir}${nodeDirs}:$PATH"\` to your shell profile`);
      expect(check.fix).not.toContain('npm install');
    };

    // `npm install -g --ignore-scripts --prefix ~/.local .`, as the README says, then doctor as cron sees it.
    const home = tempHome();
    const local = join(home, '.local', 'bin');
    mkdirSync(local, { recursive: true });
    symlinkSync(BIN, join(local, 'mkt'));
    const fromHome = await doctor({ ...mock.env, PATH: '/usr/bin:/bin' }, home);
    expect(fromHome.run.code).toBe(1);
    expectLines(fromHome.of('path'), local);

    // Any other prefix: found as the file this doctor was started as (`env -i … "$(command -v mkt)" doctor`).
    const prefix = join(mkdtempSync(join(tmpdir(), 'mkt-doctor-prefix-')), 'bin');
    mkdirSync(prefix);
    symlinkSync(BIN, join(prefix, 'mkt'));
    const started = await new Promise<string>((done, failed) => {
      const env = { HOME: tempHome(), PATH: '/usr/bin:/bin', MKT_CREDENTIAL_STORE: 'file', ...mock.env };
      const child = spawn(process.execPath, [join(prefix, 'mkt'), 'doctor', '-o', 'json'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('error', failed).on('close', () => (clearTimeout(timer), done(out)));
    });
    expectLines(
      (JSON.parse(started) as Check[]).find((c) => c.check === 'path')!,
      prefix,
    );
  });

  it('warns when the mkt on PATH is another build than this one', async () => {
    const other = mkdtempSync(join(tmpdir(), 'mkt-doctor-other-'));
    mkdirSync(join(other, 'bin'));
    mkdirSync(join(other, 'dist', 'help'), { recursive: true });
    writeFileSync(join(other, 'package.json'), '{"name":"mkt","version":"0.0.9"}');
    writeFileSync(join(other, 'dist', 'help', 'BUILD'), '0.0.9-0123456789abcdef+commander.14.0.0\n');
    writeFileSync(join(other, 'bin', 'mkt.cjs'), '#!/usr/bin/env node\n');
    chmodSync(join(other, 'bin', 'mkt.cjs'), 0o755);
    const bin = mkdtempSync(join(tmpdir(), 'mkt-doctor-otherbin-'));
    symlinkSync(join(other, 'bin', 'mkt.cjs'), join(bin, 'mkt'));
    const { run, of } = await doctor({ ...mock.env, PATH: `${bin}:${path}` });
    expect(run.code).toBe(0);
    expect(of('path')).toMatchObject({ status: 'warn', detail: expect.stringContaining('mkt 0.0.9-0123456789abcdef+commander.14.0.0') });
  });

  it("warns when this machine's clock is more than 5 minutes off the marketplace's Date header", async () => {
    const behind = new Date(Date.now() - 2 * 3_600_000).toUTCString();
    const server = createServer((_req, res) => {
      res.writeHead(404, { date: behind, 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { of } = await doctor({ MKT_ROOT_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, MKT_ACCESS_TOKEN: 'x' });
      expect(of('clock')).toMatchObject({
        status: 'warn',
        detail: expect.stringMatching(/ahead of the marketplace's Date header .* by (1 h 59 min|2 h 0 min)/),
      });
      expect(of('clock').fix).toContain('mkt mock clock');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('reports a config file it cannot read as the failed settings check, and still runs the others', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'config'), { recursive: true, mode: 0o700 });
    writeFileSync(join(home, 'config', 'config.json'), '{"profiles": ');
    const { run, checks, of } = await doctor({}, home);
    expect(run.code).toBe(1);
    expect(of('settings')).toMatchObject({ status: 'fail', detail: expect.stringContaining('is not valid JSON') });
    expect(checks.map((c) => c.status)).toEqual(['fail', 'skip', 'skip', 'skip', 'ok', 'ok', 'ok']);
  });
});
