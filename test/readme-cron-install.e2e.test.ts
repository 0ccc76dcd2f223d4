/**
 * The README's way of putting `mkt` on PATH, and its crontab line, run as printed: `npm install -g` of the
 * clone into a temporary prefix, then the line under `env -i` with HOME and a minimal PATH, against a mock.
 * The line and the install command are read from README.md, so that this fails when the README drifts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoginMock, type LoginMock } from './helpers/auth-login.js';

const ROOT = resolve(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The fenced blocks of the README in `langs`, as text. */
function blocks(langs: readonly string[]): string[] {
  return [...README.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].filter((m) => langs.includes(m[1]!)).map((m) => m[2]!);
}

/** The crontab line's command: the first line of the `crontab` block that is not a comment, without its five time fields. */
function crontabCommand(): string {
  const line = blocks(['crontab'])
    .flatMap((b) => b.split('\n'))
    .find((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  if (!line) throw new Error('README.md has no ```crontab block with a line in it');
  const m = /^\s*(?:\S+\s+){5}(.+)$/.exec(line);
  if (!m) throw new Error(`README.md's crontab line has no five time fields: ${line}`);
  return m[1]!;
}

/** The README's install command for scripts: the shell line that starts with `npm install -g`, its comment dropped. */
function installArgs(): string[] {
  const line = blocks(['sh', 'bash', 'shell'])
    .flatMap((b) => b.split('\n'))
    .find((l) => /^\s*npm install -g\b/.test(l));
  if (!line) throw new Error('README.md has no shell line starting with `npm install -g` (the way to put mkt on PATH for cron)');
  return line
    .replace(/\s#.*$/, '')
    .trim()
    .split(/\s+/)
    .slice(1);
}

/** A run of a program: exit code and output. */
interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
): Promise<Ran> {
  return new Promise((resolvePromise, reject) => {
    // No input: stdin is /dev/null, as under cron. With input, a child that exits before reading it must not
    // fail the run with EPIPE (it did, once, in CI).
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(opts.input);
  });
}

/**
 * npm's environment here: a private cache (npx installs the clone itself into it), no network (all
 * traffic stays local), and no `prepare`, whose rebuild of dist/ would race the other test files.
 */
function npmEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    npm_config_cache: mkdtempSync(join(tmpdir(), 'mkt-npm-')),
    npm_config_offline: 'true',
    npm_config_ignore_scripts: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

let mock: LoginMock;
let prefix: string;
let home: string;
/** The PATH of the cron job: the prefix's bin, then cron's own default. */
let cronPath: string;

/** `sh -c LINE` as cron runs it: `env -i`, HOME and the minimal PATH only. */
const cron = (line: string, timeoutMs = 30_000) => run('env', ['-i', `HOME=${home}`, `PATH=${cronPath}`, 'sh', '-c', line], { timeoutMs });

beforeAll(async () => {
  // The CLI plans on its own clock (listing ages, orders of today): the mock's frozen clock starts there too.
  mock = await startLoginMock({ listings: 300, frozen: true, start: Date.now(), autoApprove: ['alice'] });
  prefix = mkdtempSync(join(tmpdir(), 'mkt-prefix-'));
  home = mkdtempSync(join(tmpdir(), 'mkt-cron-home-'));
  // npm's global prefix is where node itself is installed, so its bin holds node beside mkt (the bin's
  // first line is `/usr/bin/env node`): the prefix here does too, with the node running this suite.
  cronPath = `${join(prefix, 'bin')}:/usr/bin:/bin`;
});
afterAll(async () => {
  await mock.close();
  rmSync(prefix, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe("the README's crontab line, with mkt installed as the README says", () => {
  it('installs mkt on PATH, runs the line under env -i: exit 0, a log line, the healthcheck pinged, nothing to mail; a failure mailed', async () => {
    // The README's command, into a temporary prefix (npmEnv: offline, and no second build of dist/).
    const args = [...installArgs(), '--prefix', prefix];
    const installed = await run('npm', args, { cwd: ROOT, env: npmEnv(), timeoutMs: 60_000 });
    expect(installed.code, installed.stderr).toBe(0);
    expect(existsSync(join(prefix, 'bin', 'mkt'))).toBe(true);
    symlinkSync(process.execPath, join(prefix, 'bin', 'node'));
    expect((await cron('command -v mkt')).stdout.trim()).toBe(join(prefix, 'bin', 'mkt'));

    // Set up once, as the user would in that HOME: where the marketplace is, the client, and a login.
    for (const [key, value] of [
      ['root_url', mock.origin],
      ['client_id', mock.clientId],
      ['redirect_uri', mock.redirectUri],
    ]) {
      const set = await cron(`mkt config set ${key} '${value}'`);
      expect(set.code, set.stderr).toBe(0);
    }
    const login = spawn(
      'env',
      [
        '-i',
        `HOME=${home}`,
        `PATH=${cronPath}`,
        'sh',
        '-c',
        `mkt login --no-browser --insecure-storage --client-secret '${mock.secret}' --timeout 20`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let said = '';
    const url = new Promise<string>((found) =>
      login.stderr.setEncoding('utf8').on('data', (d: string) => {
        said += d;
        const m = /(http:\/\/\S+\/oauth\?\S+)/.exec(said);
        if (m) found(m[1]!);
      }),
    );
    const loggedIn = new Promise<number | null>((done) => login.on('close', done));
    // The mock approves alice at once: following its redirect plays the browser.
    await (await fetch(await url)).arrayBuffer();
    expect(await loggedIn, said).toBe(0);

    writeFileSync(
      join(home, 'strategy.yaml'),
      'max_per_run: 100\nrules:\n  - name: abc\n    filters:\n      platform_rating: [A, B, C]\n    sort_by: lender_yield desc\n    amount: 25\n',
    );
    const pings: string[] = [];
    const hc = createServer((req, res) => {
      pings.push(`${req.method} ${req.url}`);
      req.resume().on('end', () => res.end('OK'));
    });
    await new Promise<void>((r) => hc.listen(0, '127.0.0.1', r));
    const hcUrl = `http://127.0.0.1:${(hc.address() as AddressInfo).port}/ping/5f0c`;

    // The line as printed, but for the healthcheck URL: one argument, and cron would cut the line at a `%`.
    const line = crontabCommand();
    expect(line).not.toMatch(/%/);
    const given = /--healthcheck\s+(\S+)/.exec(line)?.[1];
    expect(given, `the README's crontab line has no --healthcheck URL: ${line}`).toBeDefined();
    const ran = await cron(line.replace(given!, hcUrl), 60_000);
    expect(ran.code, ran.stderr).toBe(0);
    // Cron mails what the job prints: the line sends stdout to /dev/null, and a run that bid prints nothing to stderr.
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toBe('');

    const logFile = /--log\s+(\S+)/.exec(line)![1]!.replace('$HOME', home);
    const logged = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ dry_run: false, exit_code: 0, total_bid: 100 });
    expect(logged[0]!.orders).toHaveLength(1);
    expect(pings).toEqual(['POST /ping/5f0c/start', 'POST /ping/5f0c']);

    // A run that fails is what cron mails: its message on stderr, its exit code, the healthcheck's /fail pinged.
    const strategyText = readFileSync(join(home, 'strategy.yaml'), 'utf8');
    writeFileSync(join(home, 'strategy.yaml'), strategyText.replace('amount: 25', 'amount: 10'));
    const failed = await cron(line.replace(given!, hcUrl), 60_000);
    writeFileSync(join(home, 'strategy.yaml'), strategyText);
    await new Promise<void>((r) => hc.close(() => r()));
    expect(failed.code).toBe(2);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toContain('rules[0].amount: 10 is below the 25.00 minimum bid');
    expect(pings.slice(2)).toEqual(['POST /ping/5f0c/start', 'POST /ping/5f0c/fail']);

    // What cron has, doctor passes: the installed mkt is this build, the credentials renew.
    const doctor = await cron('mkt doctor -o json');
    const checks = JSON.parse(doctor.stdout) as Array<{ check: string; status: string; detail: string }>;
    expect(
      checks.filter((c) => c.status !== 'ok' && c.status !== 'warn'),
      doctor.stdout,
    ).toEqual([]);
    expect(doctor.code).toBe(0);
    expect(checks.find((c) => c.check === 'path')!.detail).toContain(`${join(prefix, 'bin', 'mkt')} is this mkt`);
    // It renewed the stored credentials, and printed none of them.
    const stored = JSON.parse(readFileSync(join(home, '.config', 'mkt', 'credentials.json'), 'utf8')) as {
      credentials: Record<string, Record<string, unknown>>;
    };
    const secrets = Object.values(stored.credentials)
      .flatMap((c) => [c.clientSecret, c.authKey, c.refreshToken, c.accessToken])
      .filter((v) => typeof v === 'string');
    expect(secrets).toHaveLength(4);
    for (const secret of secrets) expect(doctor.stdout + doctor.stderr).not.toContain(secret);
  }, 120_000);

  it('leaves `npx mkt` working in the clone', async () => {
    const r = await run('npx', ['mkt', '--version'], { cwd: ROOT, env: npmEnv(), timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });
});
