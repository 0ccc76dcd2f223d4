import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeychainError, KeychainStore, loadKeytar } from '../src/auth/keychain-store.js';
import { spawnLogin, startLoginMock, type LoginMock } from './helpers/auth-login.js';
import { BIN, runMkt, tempHome } from './helpers/cli.js';
import { skipUnless } from './helpers/requirements.js';

const noTmux = skipUnless('the paste-at-a-terminal login test', ['tmux']);

let mock: LoginMock;
/** A mock that shows its consent page (no --auto-approve): a person has to allow mkt. */
let manual: LoginMock;
beforeAll(async () => {
  [mock, manual] = await Promise.all([startLoginMock({ autoApprove: ['alice'] }), startLoginMock()]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), manual?.close()]);
});

/** Allows mkt on the consent page as a person would (alice's first account), and returns where the browser is sent. */
async function allowOnConsentPage(authorizationUrl: string): Promise<string> {
  const url = new URL(authorizationUrl);
  const form = new URLSearchParams({
    client_id: url.searchParams.get('client_id')!,
    response_type: 'auth_key',
    state: url.searchParams.get('state')!,
    decision: 'allow',
    account: 'alice-1',
    access: 'read_write',
  });
  const res = await fetch(`${url.origin}${url.pathname}`, { method: 'POST', body: form, redirect: 'manual' });
  await res.arrayBuffer();
  expect(res.headers.get('location'), `consent form answered ${res.status}`).toMatch(/\/callback\?/);
  return res.headers.get('location')!;
}

/** Where the consent page sends the browser (the mock approves at once): the URL a remote browser fails to load. */
async function redirectOf(authorizationUrl: string): Promise<string> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  await res.arrayBuffer();
  const location = res.headers.get('location');
  expect(location, `consent answered ${res.status}`).toMatch(/\/callback\?/);
  return location!;
}

/** Resolves once `stderr()` matches `re` (bounded: the login's own timeout ends the child). */
async function until(stderr: () => string, re: RegExp): Promise<void> {
  for (let i = 0; i < 200 && !re.test(stderr()); i++) await new Promise((r) => setTimeout(r, 50));
}

// A machine with no keychain at all (no session bus here); the user chose the file store at login.
const noKeychain = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/mkt-test-bus', MKT_CREDENTIAL_STORE: '' };

describe('mkt login with no browser on this machine', () => {
  it('--no-browser accepts the redirect URL pasted on stdin, checking its state as the catcher does', async () => {
    const home = tempHome();
    const login = spawnLogin(
      home,
      { ...mock.loginEnv, ...noKeychain, MKT_CLIENT_SECRET: mock.secret },
      ['--insecure-storage', '--timeout', '20'],
      25_000,
      { stdin: true },
    );
    const redirect = await redirectOf(await login.url);
    const wrongState = new URL(redirect);
    wrongState.searchParams.set('state', 'not-this-login');
    login.child.stdin!.write('hello\n');
    login.child.stdin!.write(`${wrongState.href}\n`);
    login.child.stdin!.write(`${new URL(redirect).origin}/elsewhere${new URL(redirect).search}\n`);
    await until(login.stderr, /state does not match/);
    expect(login.child.exitCode).toBeNull(); // still waiting
    login.child.stdin!.write(`  ${redirect}\r\n`); // as a terminal paste may carry it
    const r = await login.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('that is not a URL');
    expect(r.stderr).toContain('ignored a pasted URL whose state does not match this login');
    expect(r.stderr).toContain('is not the login redirect');
    expect(JSON.parse(r.stdout)).toMatchObject({ store: 'file', client_id: mock.clientId });
    // The plain-file warning is said once, at login, and not again on every command.
    expect(r.stderr.match(/plain file/g)).toHaveLength(1);
    const env = { ...mock.env, ...noKeychain };
    for (const args of [
      ['listings', 'search', '--limit', '1', '-o', 'json'],
      ['auth', 'status', '-o', 'json'],
    ]) {
      const after = await runMkt(args, { home, env });
      expect(after.code, after.stderr).toBe(0);
      expect(after.stderr).not.toContain('plain file');
    }
    // After logout a file-store user hears "not logged in", not that a keychain they never used is unreachable.
    expect((await runMkt(['logout'], { home, env })).code).toBe(0);
    for (const args of [
      ['auth', 'status'],
      ['listings', 'search', '--limit', '1'],
    ]) {
      const out = await runMkt(args, { home, env });
      expect(out.code).toBe(3);
      expect(out.stderr).toContain('not logged in');
      expect(out.stderr).not.toContain('keychain');
    }
  });

  it('a pasted cancellation ends the login with exit 3 and stores nothing', async () => {
    const home = tempHome();
    const login = spawnLogin(home, { ...mock.loginEnv, MKT_CLIENT_SECRET: mock.secret }, ['--timeout', '20'], 25_000, { stdin: true });
    const state = new URL(await login.url).searchParams.get('state')!;
    login.child.stdin!.write(`${mock.redirectUri}?error_code=userCancellation&state=${encodeURIComponent(state)}\n`);
    const r = await login.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('login cancelled in the browser');
    expect((await runMkt(['auth', 'status'], { home, env: mock.env })).stderr).toContain('not logged in');
  });

  it('without a display it says at once that no browser can be opened, and still logs in by paste', async () => {
    const home = tempHome();
    const login = spawnLogin(home, { ...manual.loginEnv, MKT_CLIENT_SECRET: manual.secret }, ['--timeout', '20'], 25_000, {
      browser: true,
      stdin: true,
    });
    await until(login.stderr, /no browser could be opened/);
    expect(login.stderr()).toContain(
      'mkt: no browser could be opened (no graphical display: DISPLAY and WAYLAND_DISPLAY are not set); open the URL above yourself',
    );
    // A consent page needs a person: the alternatives are said at once, not after the timeout.
    await until(login.stderr, /mkt login --no-browser/);
    expect(login.stderr()).toContain(
      'mkt: or open it in a browser on any machine, then paste the address it is sent to (it fails to load there) into `mkt login --no-browser` at a terminal',
    );
    expect(login.stderr()).not.toContain('approved at once');
    login.child.stdin!.end(`${await allowOnConsentPage(await login.url)}\n`);
    const r = await login.done;
    expect(r.code, r.stderr).toBe(0);
    // No browser: that is said first, then the ways to paste; never "waiting for the browser".
    expect(r.stderr).not.toContain('Waiting for the browser');
    expect(r.stderr.indexOf('no browser could be opened')).toBeLessThan(r.stderr.indexOf('paste'));
    expect(r.stderr).toContain(`Waiting for the address it is sent to, ${manual.redirectUri}?… (up to 20 s)…`);
  });

  it('with a display and an opener that finds no browser, says so and never "waiting for the browser"; one that opens one, is waited for', async () => {
    const bin = tempHome();
    for (const [name, status] of [
      ['none', 3],
      ['some', 0],
    ] as const) {
      mkdirSync(join(bin, name));
      writeFileSync(join(bin, name, 'xdg-open'), `#!/bin/sh\nexit ${status}\n`, { mode: 0o755 });
    }
    const login = (name: string) =>
      spawnLogin(
        tempHome(),
        { ...manual.loginEnv, MKT_CLIENT_SECRET: manual.secret, DISPLAY: ':99', PATH: join(bin, name) },
        ['--timeout', '20'],
        25_000,
        { browser: true },
      );

    const none = login('none');
    await until(none.stderr, /no browser could be opened/);
    await fetch(await allowOnConsentPage(await none.url)).then((r) => r.arrayBuffer());
    const failed = await none.done;
    expect(failed.code, failed.stderr).toBe(0);
    expect(failed.stderr).toContain('mkt: no browser could be opened (xdg-open exited with status 3); open the URL above yourself');
    expect(failed.stderr).not.toContain('Waiting for the browser');

    const some = login('some');
    await until(some.stderr, /Waiting for the browser/);
    await fetch(await allowOnConsentPage(await some.url)).then((r) => r.arrayBuffer());
    const opened = await some.done;
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stderr).toContain(`Waiting for the browser on ${manual.redirectUri} (up to 20 s)…`);
    expect(opened.stderr).not.toContain('no browser could be opened');
  });

  it('with a display but no opener installed it names the missing opener', async () => {
    const home = tempHome();
    const login = spawnLogin(
      home,
      { ...manual.loginEnv, MKT_CLIENT_SECRET: manual.secret, DISPLAY: ':99', PATH: '/nonexistent' },
      ['--timeout', '20'],
      25_000,
      { browser: true },
    );
    await login.url;
    await until(login.stderr, /no browser could be opened/);
    expect(login.stderr()).toContain('no browser could be opened (xdg-open is not installed)');
    // The catcher still takes the redirect from a browser elsewhere on this machine.
    await fetch(await allowOnConsentPage(await login.url)).then((r) => r.arrayBuffer());
    expect((await login.done).code).toBe(0);
  });

  it('against a mock started with --auto-approve, with no display and no browser on PATH, follows the approval itself', async () => {
    const home = tempHome();
    const emptyPath = tempHome(); // no xdg-open, chromium or any browser in it
    const login = spawnLogin(
      home,
      { ...mock.loginEnv, MKT_CLIENT_SECRET: mock.secret, PATH: emptyPath },
      ['--insecure-storage', '--timeout', '20'],
      25_000,
      { browser: true },
    );
    const r = await login.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('no browser could be opened (no graphical display');
    expect(r.stderr).toContain(
      'mkt: the authorization server approved at once (a local mock started with --auto-approve); following its redirect here',
    );
    expect(JSON.parse(r.stdout)).toMatchObject({
      store: 'file',
      client_id: mock.clientId,
      scopes: expect.stringContaining('write_invest_order'),
    });
    const account = await runMkt(['account', '-o', 'json'], { home, env: { ...mock.env, MKT_CREDENTIAL_STORE: '', PATH: emptyPath } });
    expect(account.code, account.stderr).toBe(0);
    expect(JSON.parse(account.stdout).external_user_id).toBe(mock.app.ctx.world.accounts.get('alice-1')!.externalUserId);
  });
});

describe.skipIf(noTmux)('mkt login --no-browser at a terminal (tmux)', () => {
  it('says how to paste the redirect URL, and takes it typed at the terminal', async () => {
    const home = tempHome();
    const session = `mkt-paste-${process.pid}-${Date.now()}`;
    const envs = Object.entries({
      ...mock.loginEnv,
      MKT_CLIENT_SECRET: mock.secret,
      MKT_CONFIG_DIR: join(home, 'config'),
      MKT_STATE_DIR: join(home, 'state'),
      MKT_CREDENTIAL_STORE: 'file',
      NO_COLOR: '1',
    })
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    execFileSync('tmux', [
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '250',
      '-y',
      '50',
      `env ${envs} ${process.execPath} ${BIN} login --no-browser --timeout 20 -o json; echo EXIT=$?; sleep 60`,
    ]);
    const screen = () => execFileSync('tmux', ['capture-pane', '-p', '-J', '-t', session]).toString();
    try {
      await until(screen, /paste it here, then press Enter/);
      const url = /(http:\/\/\S+\/oauth\?\S+)/.exec(screen())?.[1];
      expect(url, screen()).toBeDefined();
      expect(screen()).toContain(`it is sent to ${mock.redirectUri}?… and that page fails to load`);
      execFileSync('tmux', ['send-keys', '-t', session, '-l', await redirectOf(url!)]);
      execFileSync('tmux', ['send-keys', '-t', session, 'Enter']);
      await until(screen, /EXIT=\d/);
      expect(screen()).toContain('EXIT=0');
      expect(screen()).toContain('Logged in');
    } finally {
      execFileSync('tmux', ['kill-session', '-t', session]);
    }
  });
});

describe('a keychain binding that cannot load', () => {
  it('names the missing libsecret and the way out', async () => {
    const dlopen = new Error('libsecret-1.so.0: cannot open shared object file: No such file or directory');
    const store = new KeychainStore(1000, () =>
      loadKeytar(async () => {
        throw dlopen;
      }),
    );
    const err = await store.load('p@h').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeychainError);
    expect((err as KeychainError).message).toBe('the keychain needs libsecret-1-0 (apt install libsecret-1-0); or use --insecure-storage');
    expect((err as KeychainError).exitCode).toBe(3);
  });
});
