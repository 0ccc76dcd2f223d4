/**
 * The keychain store, chosen at login, against a real Secret Service (gnome-keyring under
 * dbus-run-session): a login with no browser and no display against the auto-approving mock, then the
 * documented messages at another host ("cannot reach …" exit 5, "not logged in at …" exit 3, both naming
 * the host that holds the credentials), and in a cron HOME (no session bus) the keychain's own words.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoginMock, type LoginMock } from './helpers/auth-login.js';
import { BIN } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';
import { skipUnless } from './helpers/requirements.js';

const noSecretService = skipUnless('the Secret Service keychain tests', ['keyring', 'libsecret']);

/** Waits until the Secret Service owns its bus name, so D-Bus activation cannot start a second, locked daemon. */
const WAIT_FOR_SECRETS =
  'for i in $(seq 1 50); do '
  + 'dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true" && break; sleep 0.1; done';

/** Runs mkt as `NAME` with the extra environment `VARS`, keeping its exit code and stderr in $HOME/NAME.{code,err}. */
const step = (name: string, vars: string, args: string) =>
  `env ${vars} "$NODE" "$BIN" ${args} >"$HOME/${name}.out" 2>"$HOME/${name}.err"; echo $? >"$HOME/${name}.code"; `;

let mock: LoginMock;
let other: TestMock;
beforeAll(async () => {
  [mock, other] = await Promise.all([startLoginMock({ autoApprove: ['alice'] }), startMock({ listings: 20 })]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), other?.close()]);
});

describe.skipIf(noSecretService)('a keychain-store profile at another host', () => {
  it('logs in without a browser, then names the host it holds credentials for; cron without a session bus hears the keychain', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mkt-keyring-hosts-'));
    const runtime = join(home, 'run');
    mkdirSync(runtime, { mode: 0o700 });
    mkdirSync(join(home, 'share'), { recursive: true });
    const root = `MKT_ROOT_URL=${mock.origin}`;
    const script =
      'printf %s "$KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null && '
      + `${WAIT_FOR_SECRETS}; `
      + step(
        'login',
        `${root} MKT_CLIENT_ID=${mock.clientId} MKT_REDIRECT_URI=${mock.redirectUri} MKT_CLIENT_SECRET=${mock.secret}`,
        'login --timeout 15 -o json',
      )
      + step('here', root, 'account -o json')
      + step('down', 'MKT_ROOT_URL=http://127.0.0.1:9', 'account')
      + step('elsewhere', `MKT_ROOT_URL=${other.origin}`, 'account')
      + step('cron', `-u DBUS_SESSION_BUS_ADDRESS ${root}`, 'account');
    const env = {
      PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: home,
      NODE: process.execPath,
      BIN,
      XDG_DATA_HOME: join(home, 'share'),
      XDG_RUNTIME_DIR: runtime,
      KEYRING_PASSWORD: 'test-keyring-password',
    };
    const run = await new Promise<{ code: number | null; stderr: string }>((done, fail) => {
      const child = spawn('dbus-run-session', ['--', 'sh', '-c', script], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
      child.on('error', fail);
      child.on('close', (code) => {
        clearTimeout(timer);
        done({ code, stderr });
      });
    });
    const result = (name: string) => ({
      code: Number(readFileSync(join(home, `${name}.code`), 'utf8')),
      stderr: readFileSync(join(home, `${name}.err`), 'utf8'),
      stdout: readFileSync(join(home, `${name}.out`), 'utf8'),
    });
    expect(run.code, run.stderr).toBe(0);
    const login = result('login');
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain('approved at once');
    expect(JSON.parse(login.stdout)).toMatchObject({ store: 'keychain' });
    expect(result('here').code, result('here').stderr).toBe(0);
    const host = new URL(mock.origin).host;
    const down = result('down');
    expect(down.code, down.stderr).toBe(5);
    expect(down.stderr).toContain('cannot reach');
    expect(down.stderr).toContain(`profile default holds credentials for ${host}`);
    const elsewhere = result('elsewhere');
    expect(elsewhere.code, elsewhere.stderr).toBe(3);
    expect(elsewhere.stderr).toContain(
      `not logged in at ${new URL(other.origin).host} (profile default): profile default holds credentials for ${host}`,
    );
    const cron = result('cron');
    expect(cron.code, cron.stderr).toBe(3);
    expect(cron.stderr).toMatch(/keychain is not reachable/);
    expect(cron.stderr).not.toContain('not logged in');
  }, 120_000);
});
