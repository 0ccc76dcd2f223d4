import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loopbackTarget, startCatcher } from '../src/auth/redirect-catcher.js';
import { CliError, EXIT } from '../src/errors.js';
import { freePort, spawnLogin, startLoginMock } from './helpers/auth-login.js';
import { tempHome } from './helpers/cli.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe('the login redirect catcher', () => {
  it('refuses a redirect URL that is not on a loopback host or not http', () => {
    expect(() => loopbackTarget('http://example.com:8765/callback')).toThrow(/not a loopback address/);
    expect(() => loopbackTarget('https://127.0.0.1:8765/callback')).toThrow(/http:\/\//);
    expect(loopbackTarget('http://localhost:8765/callback')).toEqual({ hosts: ['127.0.0.1', '::1'], port: 8765, path: '/callback' });
  });

  it('reports a busy port as a clear error (exit 2)', async () => {
    const port = await freePort();
    const busy: Server = createServer();
    await new Promise<void>((r) => busy.listen(port, '127.0.0.1', r));
    closers.push(() => new Promise((r) => busy.close(() => r())));
    const err = await startCatcher({ redirectUri: `http://127.0.0.1:${port}/callback`, state: 's', timeoutMs: 1000 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.USAGE);
    expect((err as CliError).message).toContain(`port ${port} on 127.0.0.1 is already in use`);
  });

  it('accepts exactly one matching callback and answers later ones as already handled', async () => {
    const port = await freePort();
    const catcher = await startCatcher({ redirectUri: `http://127.0.0.1:${port}/cb`, state: 'right', timeoutMs: 5000 });
    closers.push(() => catcher.close());
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/other?state=right&auth_key=k`)).status).toBe(404);
    expect((await fetch(`${base}/cb?state=wrong&auth_key=k`)).status).toBe(400);
    const ok = await fetch(`${base}/cb?state=right&auth_key=the-key&scope=read_listing+read_loan`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('close this tab');
    await expect(catcher.result).resolves.toEqual({ authKey: 'the-key', scope: 'read_listing read_loan' });
  });

  it('a localhost redirect URL is caught on 127.0.0.1 (and on ::1 where the machine has it)', async () => {
    const port = await freePort();
    const catcher = await startCatcher({ redirectUri: `http://localhost:${port}/callback`, state: 's', timeoutMs: 5000 });
    closers.push(() => catcher.close());
    expect((await fetch(`http://127.0.0.1:${port}/callback?state=s&auth_key=k&scope=`)).status).toBe(200);
    await expect(catcher.result).resolves.toEqual({ authKey: 'k', scope: '' });
  });

  it('times out with exit 3', async () => {
    const port = await freePort();
    const catcher = await startCatcher({ redirectUri: `http://127.0.0.1:${port}/cb`, state: 's', timeoutMs: 150 });
    closers.push(() => catcher.close());
    const err = await catcher.result.catch((e: unknown) => e);
    expect((err as CliError).exitCode).toBe(EXIT.AUTH);
    expect((err as CliError).message).toMatch(/timed out/);
  });

  it('mkt login --timeout 1 ends with exit 3 and says it timed out', async () => {
    const mock = await startLoginMock();
    closers.push(() => mock.close());
    const login = spawnLogin(tempHome(), { ...mock.loginEnv, MKT_CLIENT_SECRET: mock.secret }, ['--timeout', '1']);
    const url = new URL(await login.url);
    expect(url.searchParams.get('response_type')).toBe('auth_key');
    expect(url.searchParams.get('client_id')).toBe(mock.clientId);
    expect(Buffer.from(url.searchParams.get('state')!, 'base64url')).toHaveLength(32);
    const r = await login.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('timed out after 1 s');
  });

  it('Ctrl-C during mkt login stops it cleanly with exit 3 and frees the port', async () => {
    const mock = await startLoginMock();
    closers.push(() => mock.close());
    const login = spawnLogin(tempHome(), { ...mock.loginEnv, MKT_CLIENT_SECRET: mock.secret });
    await login.url;
    login.child.kill('SIGINT');
    const r = await login.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('interrupted');
    const again = await startCatcher({ redirectUri: mock.redirectUri, state: 's', timeoutMs: 1000 });
    closers.push(() => again.close());
  });

  it('mkt login refuses a non-loopback redirect_uri before printing a URL', async () => {
    const mock = await startLoginMock();
    closers.push(() => mock.close());
    const login = spawnLogin(tempHome(), { ...mock.loginEnv, MKT_CLIENT_SECRET: mock.secret, MKT_REDIRECT_URI: 'http://example.com/cb' });
    const r = await login.done;
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not a loopback address');
    expect(r.stderr).not.toContain('/oauth?');
  });
});
