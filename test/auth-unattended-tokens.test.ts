import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopesFor } from '../mock-server/oauth/grants.js';
import { runMkt, tempHome } from './helpers/cli.js';
import { followWithoutBrowser, spawnLogin, startLoginMock, type LoginMock } from './helpers/auth-login.js';

const HOUR = 3_600_000;

let mock: LoginMock;
beforeAll(async () => {
  mock = await startLoginMock({ autoApprove: ['bob'] });
});
afterAll(async () => {
  await mock?.close();
});

interface StoredFile {
  credentials: Record<
    string,
    { accessToken: string; refreshToken: string; authKey: string; accessExpiresAt: number; clientSecret: string }
  >;
}

function stored(home: string) {
  const file = JSON.parse(readFileSync(join(home, 'config', 'credentials.json'), 'utf8')) as StoredFile;
  const entries = Object.entries(file.credentials);
  expect(entries).toHaveLength(1);
  return { account: entries[0]![0], ...entries[0]![1] };
}

async function loggedInHome(args: string[] = []): Promise<string> {
  const home = tempHome();
  const login = spawnLogin(home, { ...mock.loginEnv, MKT_CLIENT_SECRET: mock.secret }, args);
  const response = await followWithoutBrowser(await login.url);
  expect(response.status).toBe(200);
  const result = await login.done;
  expect(result.code, result.stderr).toBe(0);
  lastLogin = result;
  return home;
}
let lastLogin: { stdout: string; stderr: string } | undefined;

const search = (home: string) => runMkt(['listings', 'search', '--limit', '2', '-o', 'json'], { home, env: mock.env });

describe('unattended tokens', () => {
  it('after login, API calls work with no token in the environment, for the granted account', async () => {
    const home = await loggedInHome();
    const s = stored(home);
    expect(s.account).toBe(`default@${new URL(mock.origin).host}`);
    expect(mock.app.ctx.world.grants.find((g) => g.authKey === s.authKey)?.accountId).toBe('bob-1');
    const r = await search(home);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { result: unknown[] }).result).toHaveLength(2);
  });

  it('renews through the refresh grant (same refresh token) when the access token has expired', async () => {
    const home = await loggedInHome();
    const before = stored(home);
    mock.app.ctx.clock.advance(HOUR);
    const r = await search(home);
    expect(r.code, r.stderr).toBe(0);
    const after = stored(home);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).toBe(before.refreshToken);
    expect(after.authKey).toBe(before.authKey);
  });

  it('keeps working after the mock clock moves 11 hours: the stored key gets new tokens, no prompt', async () => {
    const home = await loggedInHome();
    const before = stored(home);
    mock.app.ctx.clock.advance(11 * HOUR);
    const r = await search(home);
    expect(r.code, r.stderr).toBe(0);
    const after = stored(home);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.authKey).toBe(before.authKey);
  });

  it('a replaced key sends the user back to mkt login with exit 3 once the tokens run out', async () => {
    const home = await loggedInHome();
    mock.app.ctx.perform({ kind: 'grant', client: mock.clientId, account: 'bob-1', scopes: scopesFor('read_write') });
    expect((await search(home)).code).toBe(0);
    mock.app.ctx.clock.advance(11 * HOUR);
    const r = await search(home);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/auth key .*refused/);
    expect(r.stderr).toContain('mkt login');
  });

  it('a wrong client secret fails the login with exit 3 and stores nothing', async () => {
    const home = tempHome();
    const login = spawnLogin(home, { ...mock.loginEnv, MKT_CLIENT_SECRET: 'wrong-secret' });
    await followWithoutBrowser(await login.url);
    const r = await login.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('invalid_client');
    expect(r.stderr).not.toContain('wrong-secret');
    const status = await runMkt(['auth', 'status'], { home, env: mock.env });
    expect(status.code).toBe(3);
    expect(status.stderr).toContain('not logged in');
  });

  it('concurrent processes renew once and leave a valid credentials file', async () => {
    const home = await loggedInHome();
    const path = join(home, 'config', 'credentials.json');
    const file = JSON.parse(readFileSync(path, 'utf8')) as StoredFile;
    for (const c of Object.values(file.credentials)) c.accessExpiresAt = 0;
    writeFileSync(path, JSON.stringify(file), { mode: 0o600 });
    const before = stored(home);
    const runs = await Promise.all(Array.from({ length: 5 }, () => search(home)));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const after = stored(home);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).toBe(before.refreshToken);
    const accessTokens = [...mock.app.ctx.world.tokens.values()].filter((t) => t.authKey === before.authKey && t.kind === 'access');
    expect(accessTokens).toHaveLength(2); // the login's and one renewal, not one per process
  });

  it('mkt auth token prints the stored access token, auth status never prints a secret, logout removes it', async () => {
    const home = await loggedInHome();
    const s = stored(home);
    const token = await runMkt(['auth', 'token'], { home, env: mock.env });
    expect(token.stdout.trim()).toBe(s.accessToken);
    const status = await runMkt(['auth', 'status', '-o', 'json'], { home, env: mock.env });
    expect(status.code).toBe(0);
    const item = JSON.parse(status.stdout) as Record<string, unknown>;
    expect(item).toMatchObject({ profile: 'default', store: 'file', client_id: mock.clientId, access_token_valid: true });
    for (const secret of [s.accessToken, s.refreshToken, s.authKey, s.clientSecret])
      expect(status.stdout + status.stderr).not.toContain(secret);
    const out = await runMkt(['logout'], { home, env: mock.env });
    expect(out.code).toBe(0);
    expect((await search(home)).code).toBe(3);
  });

  it('--verbose traces the token exchange and renewals with every secret redacted', async () => {
    const home = await loggedInHome(['--verbose', '--insecure-storage']);
    const s = stored(home);
    const loginOutput = lastLogin!.stdout + lastLogin!.stderr;
    expect(loginOutput).toContain('POST');
    mock.app.ctx.clock.advance(HOUR);
    const r = await runMkt(['--verbose', 'listings', 'search', '--limit', '1'], { home, env: mock.env });
    expect(r.code, r.stderr).toBe(0);
    const after = stored(home);
    for (const secret of [s.accessToken, s.refreshToken, s.authKey, s.clientSecret, after.accessToken]) {
      expect(loginOutput).not.toContain(secret);
      expect(r.stderr).not.toContain(secret);
    }
    expect(r.stderr).toContain('refresh_token=***');
  });

  it('MKT_ACCESS_TOKEN overrides stored credentials and stores nothing', async () => {
    const home = await loggedInHome();
    const refused = await runMkt(['listings', 'search', '--limit', '1'], { home, env: { ...mock.env, MKT_ACCESS_TOKEN: 'not-issued' } });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('MKT_ACCESS_TOKEN');
    const fresh = tempHome();
    const token = stored(home).accessToken;
    const ok = await runMkt(['listings', 'search', '--limit', '1'], { home: fresh, env: { ...mock.env, MKT_ACCESS_TOKEN: token } });
    expect(ok.code, ok.stderr).toBe(0);
    expect(existsSync(join(fresh, 'config', 'credentials.json'))).toBe(false);
  });

  it('--profile keeps separate credentials per profile', async () => {
    const home = await loggedInHome();
    const other = await runMkt(['--profile', 'second', 'listings', 'search', '--limit', '1'], { home, env: mock.env });
    expect(other.code).toBe(3);
    expect(other.stderr).toContain('profile second');
  });
});
