/**
 * The store chosen at `mkt login` is remembered per profile, whatever the host: in a cron HOME
 * (`env -i HOME=… PATH=…`: no session bus, so no keychain) a file-store profile pointed at another host
 * hears "cannot reach …" (exit 5) or "not logged in at …" (exit 3) naming the host it holds credentials
 * for, never the keychain's error; a keychain binding that cannot load is named with libsecret-1-0.
 */
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeychainError, loadKeytar } from '../src/auth/keychain-store.js';
import { spawnLogin, startLoginMock, type LoginMock } from './helpers/auth-login.js';
import { BIN, tempHome, type RunResult } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

/** A preload that fails the keychain binding's dlopen as a machine without libsecret-1-0 does. */
const NO_LIBSECRET = resolve(import.meta.dirname, 'helpers/no-libsecret.cjs');
/** Where nothing listens. */
const NOWHERE = 'http://127.0.0.1:9';

/** Runs mkt as cron would: only HOME and a minimal PATH (plus `extra`), stdin closed. */
function cron(home: string, args: string[], extra: Record<string, string> = {}, nodeArgs: string[] = []): Promise<RunResult> {
  const env = { HOME: home, PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, ...extra };
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** `mkt login --insecure-storage` into `home`'s default config dir, the auto-approving mock's redirect followed here. */
async function fileLogin(home: string, mock: LoginMock): Promise<void> {
  const login = spawnLogin(
    home,
    {
      ...mock.loginEnv,
      MKT_CLIENT_SECRET: mock.secret,
      MKT_CREDENTIAL_STORE: '',
      MKT_CONFIG_DIR: join(home, '.config', 'mkt'),
      MKT_STATE_DIR: join(home, '.local', 'state', 'mkt'),
    },
    ['--insecure-storage', '--timeout', '20'],
  );
  await fetch(await login.url).then((r) => r.arrayBuffer());
  const r = await login.done;
  expect(r.code, r.stderr).toBe(0);
}

let mock: LoginMock;
let other: TestMock;
beforeAll(async () => {
  [mock, other] = await Promise.all([startLoginMock({ autoApprove: ['alice'] }), startMock({ listings: 20 })]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), other?.close()]);
});

const hostOf = (origin: string) => new URL(origin).host;

describe('a file-store profile in a cron HOME, pointed at any host', () => {
  for (const [what, nodeArgs] of [
    ['with the keychain binding', []],
    ['without libsecret-1-0', ['--require', NO_LIBSECRET]],
  ] as const) {
    it(`${what}: the chosen host works, another says which host holds the credentials`, async () => {
      const home = tempHome();
      await fileLogin(home, mock);
      const here = await cron(home, ['account', '-o', 'json'], { MKT_ROOT_URL: mock.origin }, [...nodeArgs]);
      expect(here.code, here.stderr).toBe(0);
      expect(here.stderr).toBe('');

      const down = await cron(home, ['account'], { MKT_ROOT_URL: NOWHERE }, [...nodeArgs]);
      expect(down.code, down.stderr).toBe(5);
      expect(down.stderr).toContain('cannot reach');
      expect(down.stderr).toContain(`profile default holds credentials for ${hostOf(mock.origin)}`);
      expect(down.stderr).not.toMatch(/keychain|libsecret/);

      const elsewhere = await cron(home, ['account'], { MKT_ROOT_URL: other.origin }, [...nodeArgs]);
      expect(elsewhere.code, elsewhere.stderr).toBe(3);
      expect(elsewhere.stderr).toContain(
        `not logged in at ${hostOf(other.origin)} (profile default): profile default holds credentials for ${hostOf(mock.origin)}`,
      );
      expect(elsewhere.stderr).not.toMatch(/keychain|libsecret/);

      // Logging out at a host the file does not hold: nothing stored there, and no keychain error.
      const out = await cron(home, ['logout'], { MKT_ROOT_URL: other.origin }, [...nodeArgs]);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stderr).toContain(`Nothing stored for default@${hostOf(other.origin)}`);

      // Another profile chose nothing: the keychain is its store, and the keychain's own words are said.
      const otherProfile = await cron(home, ['--profile', 'cron', 'account'], { MKT_ROOT_URL: mock.origin }, [...nodeArgs]);
      expect(otherProfile.code, otherProfile.stderr).toBe(3);
      expect(otherProfile.stderr).toMatch(nodeArgs.length ? /the keychain needs libsecret-1-0 \(apt install libsecret-1-0\)/ : /keychain/);
    });
  }
});

describe('a file-store profile after mkt logout, with no keychain', () => {
  it('logs in again with the bare `mkt login` the hint names: into the file the profile chose, never the keychain', async () => {
    const home = tempHome();
    const noKeychain = ['--require', NO_LIBSECRET];
    await fileLogin(home, mock);
    const out = await cron(home, ['logout'], { MKT_ROOT_URL: mock.origin }, noKeychain);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain(`removed default@${hostOf(mock.origin)} from file`);

    const after = await cron(home, ['account'], { MKT_ROOT_URL: mock.origin }, noKeychain);
    expect(after.code, after.stderr).toBe(3);
    const hint = /run `(mkt login[^`]*)`/.exec(after.stderr)?.[1];
    expect(hint, after.stderr).toBe('mkt login');

    // The hint as given (no display here: the auto-approving mock's redirect is followed by mkt itself).
    const again = await cron(
      home,
      [...hint!.split(' ').slice(1), '--timeout', '20'],
      { ...mock.loginEnv, MKT_CLIENT_SECRET: mock.secret },
      noKeychain,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('mkt: profile default chose the file store at its last login: logging in there again');
    expect(again.stderr).not.toMatch(/libsecret/);
    expect(JSON.parse(again.stdout)).toMatchObject({ store: 'file' });
    const back = await cron(home, ['account', '-o', 'json'], { MKT_ROOT_URL: mock.origin }, noKeychain);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toBe('');
  });
});

describe('a keychain binding that cannot load, in a cron HOME', () => {
  it("is diagnosed past keytar's own loader, which swallows dlopen's words", async () => {
    const keytarWords = new Error('Failed to load keytar native addon, checked ["../build/Release"] on prebuilds/linux-x64');
    const err = await loadKeytar(
      async () => {
        throw keytarWords;
      },
      () => ['libsecret-1.so.0: cannot open shared object file: No such file or directory'],
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeychainError);
    expect((err as Error).message).toBe('the keychain needs libsecret-1-0 (apt install libsecret-1-0); or use --insecure-storage');
    const other = await loadKeytar(
      async () => {
        throw keytarWords;
      },
      () => [],
    ).catch((e: unknown) => e);
    expect((other as Error).message).toContain('cannot load the keychain binding (Failed to load keytar native addon');
  });

  it('is named with libsecret-1-0 at any host, before any talk of logins, and login says so before the browser', async () => {
    const home = tempHome();
    for (const url of [mock.origin, NOWHERE]) {
      const r = await cron(home, ['account'], { MKT_ROOT_URL: url }, ['--require', NO_LIBSECRET]);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain('the keychain needs libsecret-1-0 (apt install libsecret-1-0); or use --insecure-storage');
    }
    const login = await cron(home, ['login', '--no-browser', '--timeout', '5'], { ...mock.loginEnv, MKT_CLIENT_SECRET: mock.secret }, [
      '--require',
      NO_LIBSECRET,
    ]);
    expect(login.code, login.stderr).toBe(3);
    expect(login.stderr).toContain('libsecret-1-0');
    expect(login.stderr).not.toContain('/oauth?');
  });
});
