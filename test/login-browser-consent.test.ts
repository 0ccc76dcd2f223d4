import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_ONLY_SCOPES } from '../src/contract/enums.js';
import { launchChromium } from './helpers/auth-browser.js';
import { spawnLogin, startLoginMock, type LoginMock } from './helpers/auth-login.js';
import { runMkt, tempHome } from './helpers/cli.js';
import { skipUnless } from './helpers/requirements.js';

const noBrowser = skipUnless('the real-browser login tests', ['chromium']);

let mock: LoginMock;
let browser: Browser;
beforeAll(async () => {
  if (noBrowser) return;
  [mock, browser] = await Promise.all([startLoginMock(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

function storedCredentials(home: string): { scopes: string[]; authKey: string } {
  const file = JSON.parse(readFileSync(join(home, 'config', 'credentials.json'), 'utf8')) as {
    credentials: Record<string, { scopes: string[]; authKey: string }>;
  };
  return Object.values(file.credentials)[0]!;
}

describe.skipIf(noBrowser)('mkt login in a real browser', () => {
  it('Allow on the consent page logs in the chosen account; the CLI then works with no token in the environment', async () => {
    const home = tempHome();
    const login = spawnLogin(home, { ...mock.loginEnv, MKT_CLIENT_SECRET: mock.secret });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(await login.url);
    await page.selectOption('select[name=account]', 'alice-2');
    await page.click('button[value=allow]');
    await page.waitForURL(/\/callback\?/);
    expect(await page.textContent('h1')).toContain('Signed in');
    const result = await login.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(mock.origin);
    const stored = storedCredentials(home);
    expect(mock.app.ctx.world.grants.find((g) => g.authKey === stored.authKey)?.accountId).toBe('alice-2');
    const search = await runMkt(['listings', 'search', '--limit', '1', '-o', 'json'], { home, env: mock.env });
    expect(search.code, search.stderr).toBe(0);

    // The grant is remembered: a second login in the same browser skips the screen and replaces the key.
    const again = spawnLogin(home, { ...mock.loginEnv, MKT_CLIENT_SECRET: mock.secret });
    await page.goto(await again.url);
    await page.waitForURL(/\/callback\?/);
    expect(await page.textContent('h1')).toContain('Signed in');
    expect((await again.done).code).toBe(0);
    const renewed = storedCredentials(home);
    expect(renewed.authKey).not.toBe(stored.authKey);
    expect(mock.app.ctx.world.grants.some((g) => g.authKey === stored.authKey)).toBe(false);
    await context.close();
  });

  it('Cancel ends the login with exit 3 and stores nothing', async () => {
    const home = tempHome();
    const login = spawnLogin(home, { ...mock.loginEnv, MKT_CLIENT_SECRET: mock.secret });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(await login.url);
    await page.click('button[value=cancel]');
    await page.waitForURL(/error_code=userCancellation/);
    expect(await page.textContent('h1')).toContain('cancelled');
    const result = await login.done;
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('cancelled');
    expect((await runMkt(['auth', 'status'], { home, env: mock.env })).code).toBe(3);
    await context.close();
  });

  it('a callback with the wrong state is refused and the login keeps waiting for the right one', async () => {
    const home = tempHome();
    const login = spawnLogin(home, { ...mock.loginEnv, MKT_CLIENT_SECRET: mock.secret });
    const url = await login.url;
    const context = await browser.newContext();
    const page = await context.newPage();
    const forged = await page.goto(`${mock.redirectUri}?auth_key=forged&state=not-the-state&scope=read_listing`);
    expect(forged?.status()).toBe(400);
    expect(await page.textContent('h1')).toContain('Not this login');
    expect(login.child.exitCode).toBeNull();
    await page.goto(url);
    await page.check('input[value=read_only]');
    await page.click('button[value=allow]');
    await page.waitForURL(/\/callback\?/);
    const result = await login.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('state does not match');
    expect(storedCredentials(home).scopes).toEqual([...READ_ONLY_SCOPES]);
    await context.close();
  });

  it('an unknown client gets an HTML 401 page from the mock, not a redirect', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`${mock.origin}/oauth?client_id=nobody&response_type=auth_key&state=x`);
    expect(response?.status()).toBe(401);
    expect(page.url()).toContain(`${mock.origin}/oauth`);
    expect(await page.textContent('body')).toContain('unauthorized');
    await context.close();
  });
});
