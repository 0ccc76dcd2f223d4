import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeychainError, KeychainStore } from '../src/auth/keychain-store.js';
import { answerCheckEnv, runMkt } from './helpers/cli.js';
import { skipUnless } from './helpers/requirements.js';

const noSecretService = skipUnless('the Secret Service keychain tests', ['keyring', 'libsecret']);
const noBinding = skipUnless('the keychain-binding tests without a Secret Service', ['libsecret']);

const PROBE = resolve(import.meta.dirname, 'helpers/auth-keychain-probe.mjs');

/** Waits until the Secret Service owns its bus name, so D-Bus activation cannot start a second, locked daemon. */
const WAIT_FOR_SECRETS =
  'for i in $(seq 1 50); do '
  + 'dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true" && break; sleep 0.1; done';

/** Runs `script` under `dbus-run-session` with a throw-away HOME and XDG dirs; resolves with stdout, stderr and exit code. */
function inPrivateSession(
  script: string,
  extraEnv: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const home = mkdtempSync(join(tmpdir(), 'mkt-keyring-'));
  const runtime = join(home, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  mkdirSync(join(home, 'share'), { recursive: true });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_DATA_HOME: join(home, 'share'),
    XDG_CONFIG_HOME: join(home, 'xdg-config'),
    XDG_RUNTIME_DIR: runtime,
    PROBE,
    ...answerCheckEnv(),
    ...extraEnv,
  };
  return new Promise((done, fail) => {
    const child = spawn('dbus-run-session', ['--', 'sh', '-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe.skipIf(noSecretService)('keychain store against a real Secret Service (gnome-keyring under dbus-run-session)', () => {
  it('stores, reads and removes credentials, and carries a whole login plus unattended calls', async () => {
    const script =
      'printf %s "$KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null && '
      + `${WAIT_FOR_SECRETS}; exec node "$PROBE"`;
    const run = await inPrivateSession(script, { KEYRING_PASSWORD: 'test-keyring-password' });
    const line = run.stdout.trim().split('\n').pop() ?? '';
    expect(line, run.stderr).toMatch(/^\{/);
    const r = JSON.parse(line) as Record<string, any>;
    expect(r.error, r.error).toBeUndefined();
    expect(r.roundTrip).toMatchObject({ clientId: 'c', clientSecret: 's3cret', authKey: 'k' });
    expect(r.rawEntry.clientId).toBe('c');
    expect(r.removed).toBe(true);
    expect(r.afterRemove).toBeNull();
    expect(r.login.code, r.login.stderr).toBe(0);
    expect(r.login.stderr).not.toContain('plain file');
    expect(r.storedKeys).toEqual([
      'accessExpiresAt',
      'accessToken',
      'authKey',
      'clientId',
      'clientSecret',
      'loggedInAt',
      'refreshExpiresAt',
      'refreshToken',
      'scopes',
    ]);
    expect(r.storedGrantAccount).toBe('alice-1');
    expect(r.fileStoreUsed).toBe(false);
    expect(r.search.code, r.search.stderr).toBe(0);
    expect(r.searchAfter11h.code, r.searchAfter11h.stderr).toBe(0);
    expect(r.status.item).toMatchObject({ store: 'keychain', client_id: 'kc-test' });
    expect(r.logout.code).toBe(0);
    expect(r.afterLogout).toBeNull();
  }, 120_000);

  it('a keyring that is locked or missing is reported as such, not as "not logged in"', async () => {
    const script =
      `gnome-keyring-daemon --components=secrets --daemonize >/dev/null && ${WAIT_FOR_SECRETS}; `
      + 'cd "$ROOT" && exec node bin/mkt.cjs login --no-browser --timeout 5';
    const run = await inPrivateSession(script, {
      ROOT: resolve(import.meta.dirname, '..'),
      MKT_CLIENT_SECRET: 'x',
      MKT_ROOT_URL: 'http://127.0.0.1:9',
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/keychain is locked or has no default keyring|keychain failed/);
    expect(run.stderr).not.toContain('not logged in');
    expect(run.stderr).not.toContain('/oauth?');
  }, 60_000);
});

describe('keychain store without a Secret Service', () => {
  const nowhere = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/mkt-test-bus', MKT_CREDENTIAL_STORE: '' };

  it.skipIf(noBinding)('auth status and API calls say the keychain is not reachable (exit 3), not "not logged in"', async () => {
    for (const args of [
      ['auth', 'status'],
      ['listings', 'search', '--limit', '1'],
    ]) {
      const r = await runMkt(args, { env: { ...nowhere, MKT_ROOT_URL: 'http://127.0.0.1:9' } });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('keychain is not reachable');
      expect(r.stderr).toContain('--insecure-storage');
      expect(r.stderr).not.toContain('not logged in');
    }
  });

  it.skipIf(noBinding)('mkt login fails before printing a URL, and --insecure-storage is the way out', async () => {
    const r = await runMkt(['login', '--no-browser', '--timeout', '2'], { env: { ...nowhere, MKT_ROOT_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('keychain is not reachable');
    expect(r.stderr).not.toContain('/oauth?');
  });

  it('a keychain call that never answers times out with a clear error', async () => {
    const store = new KeychainStore(200, async () => ({
      getPassword: () => new Promise<string | null>(() => undefined),
      setPassword: () => new Promise<void>(() => undefined),
      deletePassword: () => new Promise<boolean>(() => undefined),
    }));
    await expect(store.load('x@y')).rejects.toThrow(/did not answer within 0.2 s/);
    await expect(store.load('x@y')).rejects.toBeInstanceOf(KeychainError);
  });
});
