/**
 * The dashboard as the built binary serves it: the page script is the source text of a function
 * (mock-server/dashboard/page-script.ts) as the bundler printed it (scripts/bundle.mjs), not as the
 * tests' transform did. In chromium it loads with no console or page error (a script its CSP refused,
 * or one that named something outside the function, would be one), and +1 day moves the clock a day.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/auth-browser.js';
import { skipUnless } from './helpers/requirements.js';
import { serveMock, type ServedMock } from './helpers/serve.js';

const noBrowser = skipUnless('the dashboard browser tests', ['chromium']);
const DAY = 86_400_000;

/** The mock's clock in ms (its JSON time, `2026-06-01 12:00:00 +0000`). */
async function clockMs(origin: string): Promise<number> {
  const { now } = (await (await fetch(`${origin}/__mock/clock`)).json()) as { now: string };
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) ([+-]\d{2})(\d{2})$/.exec(now);
  if (!m) throw new Error(`not a mock time: ${JSON.stringify(now)}`);
  return Date.parse(`${m[1]}T${m[2]}${m[3]}:${m[4]}`);
}

describe.skipIf(noBrowser)("the built mock's dashboard in a real browser", () => {
  let browser: Browser;
  let served: ServedMock;
  beforeAll(async () => {
    [browser, served] = await Promise.all([launchChromium(), serveMock(['--listings', '50', '--frozen'])]);
  });
  afterAll(async () => {
    served?.child.kill('SIGTERM');
    await served?.exited;
    await browser?.close();
  });

  it('loads without errors and its +1 day button moves the clock one day', async () => {
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && errors.push(`console: ${m.text()}`)));
    page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
    expect((await page.goto(`${served.origin}/__mock/`))?.status()).toBe(200);
    await page.waitForSelector('html[data-loaded]', { timeout: 15_000 }).catch((err: unknown) => {
      throw new Error(`the dashboard did not load: ${errors.join('; ') || String(err)}`);
    });
    // The served script is the bundler's print of the function (double quotes), not the source's.
    expect(await page.locator('script').textContent()).toContain('"use strict"');
    const before = await clockMs(served.origin);
    await page.click('button[data-advance="1d"]');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'moving the clock 1d: done', null, {
      timeout: 60_000,
    });
    const after = await clockMs(served.origin);
    expect(after - before).toBe(DAY);
    expect(await page.textContent('#accounts')).toContain('alice-1');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
