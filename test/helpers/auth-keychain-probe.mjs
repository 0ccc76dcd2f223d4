// Runs inside a private D-Bus session with a real Secret Service (see keychain-secret-service.test.ts):
// exercises the built keychain store, then a whole login and unattended calls through the spawned CLI
// with credentials in the keychain. Prints one JSON object of results on stdout.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const dist = (p) => import(join(root, 'dist', p));
const { KeychainStore, KEYCHAIN_SERVICE } = await dist('src/auth/keychain-store.js');
const { answerCheckOption, createMockApp } = await dist('mock-server/app.js');
const { startHttpServer } = await dist('mock-server/http-adapter.js');
const keytar = (await import('@github/keytar')).default;

const out = {};
const home = process.env.HOME;
const env = {
  PATH: process.env.PATH,
  HOME: home,
  DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS,
  XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR,
  XDG_DATA_HOME: process.env.XDG_DATA_HOME,
  MKT_CONFIG_DIR: join(home, 'config'),
  MKT_STATE_DIR: join(home, 'state'),
};

function mkt(args, extra = {}, onStderr) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'bin/mkt.cjs'), ...args], {
      env: { ...env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      onStderr?.(stderr);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

try {
  // 1. The store itself: save, load, remove.
  const store = new KeychainStore(5000);
  const creds = { clientId: 'c', clientSecret: 's3cret', authKey: 'k', scopes: ['read_listing'], loggedInAt: 1 };
  await store.save('probe@example:1', creds);
  out.roundTrip = await store.load('probe@example:1');
  out.rawEntry = JSON.parse(await keytar.getPassword(KEYCHAIN_SERVICE, 'probe@example:1'));
  out.removed = await store.remove('probe@example:1');
  out.afterRemove = await store.load('probe@example:1');

  // 2. mkt login with the default store (keychain), against an auto-approving mock.
  // Answers checked against the OpenAPI document like every mock of the suite (MKT_MOCK_CHECK_ANSWERS).
  const app = createMockApp({ listings: 40, frozen: true, autoApprove: ['alice'], clients: [], ...answerCheckOption(process.env) });
  const server = await startHttpServer(app, '127.0.0.1', 0);
  const catcher = await startHttpServer(createMockApp({ listings: 1 }), '127.0.0.1', 0);
  const port = catcher.port;
  await catcher.close();
  const redirect = `http://127.0.0.1:${port}/callback`;
  app.ctx.world.clients.set('kc-test', { clientId: 'kc-test', secret: 'kc-secret', redirectUri: redirect });
  Object.assign(env, { MKT_ROOT_URL: server.origin, MKT_CLIENT_ID: 'kc-test', MKT_REDIRECT_URI: redirect });
  let followed = false;
  const login = await mkt(['login', '--no-browser', '--timeout', '15'], { MKT_CLIENT_SECRET: 'kc-secret' }, (text) => {
    const m = /(http:\/\/\S+\/oauth\?\S+)/.exec(text);
    if (m && !followed) {
      followed = true;
      fetch(m[1]).catch(() => undefined);
    }
  });
  out.login = { code: login.code, stderr: login.stderr };
  const account = `default@${new URL(server.origin).host}`;
  const stored = JSON.parse((await keytar.getPassword(KEYCHAIN_SERVICE, account)) ?? 'null');
  out.storedKeys = stored ? Object.keys(stored).sort() : null;
  out.storedGrantAccount = stored ? app.ctx.world.grants.find((g) => g.authKey === stored.authKey)?.accountId : null;
  out.fileStoreUsed = existsSync(join(home, 'config', 'credentials.json'));

  const search = await mkt(['listings', 'search', '--limit', '1', '-o', 'json']);
  out.search = { code: search.code, stderr: search.stderr };
  app.ctx.clock.advance(11 * 3600_000);
  const later = await mkt(['listings', 'search', '--limit', '1', '-o', 'json']);
  out.searchAfter11h = { code: later.code, stderr: later.stderr };
  const status = await mkt(['auth', 'status', '-o', 'json']);
  out.status = { code: status.code, item: status.code === 0 ? JSON.parse(status.stdout) : status.stderr };
  const logout = await mkt(['logout']);
  out.logout = { code: logout.code, stdout: logout.stdout };
  out.afterLogout = await keytar.getPassword(KEYCHAIN_SERVICE, account);
  await server.close();
} catch (err) {
  out.error = String(err?.stack ?? err);
}
process.stdout.write(`${JSON.stringify(out)}\n`);
