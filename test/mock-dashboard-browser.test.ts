/**
 * The dashboard (GET /__mock/) in a real browser (chromium through playwright-core, as the consent page
 * is tested): it loads from a mock over HTTP on 127.0.0.1 with no console or page error (a script or
 * style its CSP refused would be one), shows what a client sent as text, and its +1 day button moves
 * the clock one day and the world with it. At 1280x800: every panel filled at first paint (JavaScript
 * off: what the page is sent with), the orders panel showing an order placed through the API with its
 * bids and following it as the clock moves, and nothing wider than the window, long values included.
 * Screenshots are kept under test-artifacts/ (git-ignored).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/auth-browser.js';
import { issueTestToken, startMock, TEST_START, type TestMock } from './helpers/mock.js';
import { startReceiver } from './helpers/webhook-receiver.js';
import { skipUnless } from './helpers/requirements.js';

const noBrowser = skipUnless('the dashboard browser tests', ['chromium']);
const ARTIFACTS = resolve(import.meta.dirname, '..', 'test-artifacts');
const DAY = 86_400_000;

let browser: Browser;
beforeAll(async () => {
  if (!noBrowser) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A mock time as the page shows it (`2026-06-01 12:00:00 +0000`) in ms. */
function shownTime(text: string | null): number {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) ([+-]\d{2})(\d{2})$/.exec(text?.trim() ?? '');
  if (!m) throw new Error(`not a mock time: ${JSON.stringify(text)}`);
  return Date.parse(`${m[1]}T${m[2]}${m[3]}:${m[4]}`);
}

/** A page of a fresh context that records every console error and uncaught exception. */
async function watchedPage(
  options: { viewport?: { width: number; height: number }; javaScriptEnabled?: boolean } = {},
): Promise<{ page: Page; errors: string[] }> {
  const errors: string[] = [];
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 }, ...options })).newPage();
  page.on('console', (m) => void (m.type() === 'error' && errors.push(`console: ${m.text()}`)));
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  return { page, errors };
}

/** Waits until the page has shown its first reads; a refused script never gets there, so the errors are the message. */
async function loaded(page: Page, errors: string[]): Promise<void> {
  try {
    await page.waitForSelector('html[data-loaded]', { timeout: 15_000 });
  } catch (err) {
    throw new Error(`the dashboard did not load: ${errors.join('; ') || String(err)}`);
  }
}

describe.skipIf(noBrowser)('the dashboard in a real browser', () => {
  let mock: TestMock;
  beforeAll(async () => {
    mock = await startMock({ listings: 300 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it("loads without errors, shows a client's body as text, and +1 day moves the clock and the world one day", async () => {
    // A client's request whose JSON body holds markup: the request log panel must show it, never run it.
    const hostile = '<img src=x onerror="window.__pwned=1"><b id="injected">bold</b>';
    const sent = await fetch(`${mock.origin}/v1/no-such-route`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ note: hostile }),
    });
    expect(sent.status).toBe(404);

    const { page, errors } = await watchedPage();
    const answer = await page.goto(`${mock.origin}/__mock/`);
    expect(answer?.status()).toBe(200);
    await loaded(page, errors);
    const before = await page.textContent('#clock-now');
    expect(shownTime(before)).toBe(TEST_START);
    expect(await page.textContent('#world-now')).toBe(before);
    const listingsBefore = await page.textContent('#listings-by-status');
    expect(listingsBefore).toContain('Active');
    expect(await page.textContent('#accounts')).toContain('alice-1');

    await page.waitForSelector('td.body');
    expect(await page.locator('td.body').allTextContents()).toContain(JSON.stringify({ note: hostile }));
    expect(await page.locator('#injected, #request-log img').count()).toBe(0);

    await page.click('button[data-advance="1d"]');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'moving the clock 1d: done', null, {
      timeout: 60_000,
    });
    const after = await page.textContent('#clock-now');
    expect(shownTime(after) - shownTime(before)).toBe(DAY);
    expect(await page.textContent('#world-now')).toBe(after);
    // A day of the market: listings funded, expired or new, so the counts by status are not what they were.
    expect(await page.textContent('#listings-by-status')).not.toBe(listingsBefore);
    expect(mock.app.ctx.clock.now()).toBe(TEST_START + DAY);
    // The move is in the request log the page shows; its own reads are not.
    const paths = await page.locator('#request-log tbody tr td:nth-child(4)').allTextContents();
    expect(paths).toContain('/__mock/clock');
    expect(paths.filter((p) => /^\/__mock\/(state|clock|faults|outbox|snapshots)/.test(p))).toEqual(['/__mock/clock']);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true });
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('saves a snapshot from its form and lists it', async () => {
    const { page, errors } = await watchedPage();
    await page.goto(`${mock.origin}/__mock`);
    await loaded(page, errors);
    await page.fill('#snapshot-name', 'from-the-page');
    await page.click('#snapshot-save');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'saving from-the-page: done', null, {
      timeout: 30_000,
    });
    expect(await page.textContent('#snapshots')).toContain('from-the-page');
    expect((await mock.app.ctx.snapshots.list()).map((s) => s.name)).toContain('from-the-page');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe.skipIf(noBrowser)('the dashboard of a mock under --base-path', () => {
  it('shows the webhook deliveries and how many were dropped (never silently): a receiver that hangs behind a queue of one', async () => {
    const hanging = await startReceiver(['hang']);
    const mock = await startMock({
      listings: 300,
      webhooks: { urls: [hanging.url], secret: 'whsec_dash', queue: 1, connections: 1, timeoutMs: 30_000 },
    });
    try {
      // Four events (bob's orders refused for want of cash): one under way, one waiting, two pushed out of the queue.
      const token = issueTestToken(mock.app, 'bob-1');
      const [a, b] = mock.app.ctx.world.listings.filter(
        (l) => l.listing_status === 2 && l.investment_typeid === 1 && !l.mockRole && !l.authorizedUsers,
      );
      for (let i = 0; i < 4; i++) {
        const res = await fetch(`${mock.origin}/v1/orders/`, {
          method: 'POST',
          headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            bid_requests: [
              { listing_id: a!.listing_number, bid_amount: 30 },
              { listing_id: b!.listing_number, bid_amount: 30 },
            ],
          }),
        });
        expect(res.status).toBe(400);
      }
      const { page, errors } = await watchedPage();
      await page.goto(`${mock.origin}/__mock/`);
      await loaded(page, errors);
      await page.waitForFunction(() => /2 dropped/.test(document.getElementById('webhooks-counts')?.textContent ?? ''), null, {
        timeout: 15_000,
      });
      expect(await page.textContent('#webhooks-counts')).toBe('2 pending, 0 delivered, 0 failed, 2 dropped');
      expect(await page.getAttribute('#webhooks-counts', 'class')).toBe('bad');
      const states = await page.locator('#webhooks tbody tr td:nth-child(4)').allTextContents();
      expect(states.sort()).toEqual(['dropped', 'dropped', 'pending', 'pending']);
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await mock.close();
      await hanging.close();
    }
  });

  it('reads the admin routes under the prefix', async () => {
    const mock = await startMock({ listings: 30, basePath: '/market' });
    try {
      const { page, errors } = await watchedPage();
      await page.goto(`${mock.origin}/market/__mock`);
      await loaded(page, errors);
      expect(shownTime(await page.textContent('#clock-now'))).toBe(TEST_START);
      expect(await page.textContent('#accounts')).toContain('alice-1');
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await mock.close();
    }
  });
});

/** The widths that matter at a window 1280 px wide: the document's, and each panel wider than its box. */
async function widths(page: Page): Promise<{ document: number; overflowing: string[] }> {
  return page.evaluate(() => ({
    document: document.documentElement.scrollWidth,
    overflowing: Array.from(document.querySelectorAll('header, section'))
      .filter((e) => e.scrollWidth > e.clientWidth)
      .map((e) => `${e.id || e.tagName}: ${e.scrollWidth} > ${e.clientWidth}`),
  }));
}

/** Each bid row of the orders panel as [listing, bid, placed, status, result] (the order's cells span its rows). */
async function bidRows(page: Page): Promise<string[][]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('#orders tbody tr')).map((tr) =>
      Array.from((tr as HTMLTableRowElement).cells)
        .slice(-5)
        .map((td) => td.textContent ?? ''),
    ),
  );
}

describe.skipIf(noBrowser)('the dashboard at 1280x800', () => {
  const WINDOW = { width: 1280, height: 800 };
  let mock: TestMock;
  let orderId: string;
  let listings: [number, number];
  beforeAll(async () => {
    mock = await startMock({ listings: 300 });
    const [a, b] = mock.app.ctx.world.listings.filter(
      (l) => l.listing_status === 2 && l.investment_typeid === 1 && !l.mockRole && !l.authorizedUsers && !l.borrowerUserId,
    );
    listings = [a!.listing_number, b!.listing_number];
    const placed = await fetch(`${mock.origin}/v1/orders/`, {
      method: 'POST',
      headers: { authorization: `bearer ${issueTestToken(mock.app, 'alice-1')}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        bid_requests: [
          { listing_id: a!.listing_number, bid_amount: 25 },
          { listing_id: b!.listing_number, bid_amount: 50 },
        ],
      }),
    });
    expect(placed.status).toBe(200);
    orderId = ((await placed.json()) as { order_id: string }).order_id;
    // Long values with nowhere to break, in every wide panel: a path and query, a body, a fault's path, a snapshot's name.
    const long = 'x'.repeat(300);
    expect(
      (
        await fetch(`${mock.origin}/v1/${long}?q=${long}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ note: long }),
        })
      ).status,
    ).toBe(404);
    const admin = (route: string, body: unknown) =>
      fetch(`${mock.origin}/__mock/${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await admin('faults', { path: `/v1/${long}` })).status).toBe(200);
    expect((await admin('snapshots', { name: 'n'.repeat(64) })).status).toBe(200);
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('paints every panel from the page as sent (JavaScript off), the order and its bids included, nothing wider than the window', async () => {
    const { page, errors } = await watchedPage({ viewport: WINDOW, javaScriptEnabled: false });
    expect((await page.goto(`${mock.origin}/__mock/`))?.status()).toBe(200);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-first-paint.png') });
    expect(await page.getAttribute('html', 'data-loaded')).toBeNull();
    expect(shownTime(await page.textContent('#clock-now'))).toBe(TEST_START);
    const panels = await page.evaluate(() =>
      Object.fromEntries(
        Array.from(document.querySelectorAll('section')).map((s) => [s.id, (s.textContent ?? '').replace(/\s+/g, ' ').trim()]),
      ),
    );
    expect(Object.keys(panels).sort()).toEqual(
      [
        'world-panel',
        'accounts-panel',
        'orders-panel',
        'faults-panel',
        'snapshots-panel',
        'request-log-panel',
        'outbox-panel',
        'webhooks-panel',
      ].sort(),
    );
    expect(panels['world-panel']).toMatch(/World at 2026-06-01 12:00:00 \+0000 .*listings ?\d+.*invariants hold.*Active/);
    expect(panels['accounts-panel']).toContain('alice-1');
    expect(panels['faults-panel']).toContain(`/v1/${'x'.repeat(300)}`);
    expect(panels['snapshots-panel']).toContain('n'.repeat(64));
    expect(panels['request-log-panel']).toMatch(/Request log, newest first \(\d+ kept\).*POST.*\/v1\/orders/);
    expect(panels['outbox-panel']).toMatch(/^Outbox \(\d+ in all\)/);
    expect(panels['webhooks-panel']).toContain('0 pending, 0 delivered, 0 failed, 0 dropped');
    expect(panels['orders-panel']).toContain('alice-1');
    expect(await page.getAttribute('#orders td span.cut', 'title')).toBe(orderId);
    expect(await bidRows(page)).toEqual([
      [String(listings[0]), '25.00', '0.00', 'PENDING', 'NONE'],
      [String(listings[1]), '50.00', '0.00', 'PENDING', 'NONE'],
    ]);
    const w = await widths(page);
    expect(w.overflowing).toEqual([]);
    expect(w.document).toBeLessThanOrEqual(WINDOW.width);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('follows the order as the clock moves, by a client and by its own +15 days, and still fits the window', async () => {
    const { page, errors } = await watchedPage({ viewport: WINDOW });
    await page.goto(`${mock.origin}/__mock/`);
    await loaded(page, errors);
    expect((await bidRows(page)).map((r) => r.slice(3))).toEqual([
      ['PENDING', 'NONE'],
      ['PENDING', 'NONE'],
    ]);
    // A client moves the clock an hour (as `mkt mock clock advance 1h` does): the order is processed, and the page's poll shows it.
    const moved = await fetch(`${mock.origin}/__mock/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"advance":"1h"}',
    });
    expect(moved.status).toBe(200);
    await page.waitForFunction(() => (document.getElementById('orders')?.textContent ?? '').includes('BID_SUCCEEDED'), null, {
      timeout: 15_000,
    });
    expect(await bidRows(page)).toEqual([
      [String(listings[0]), '25.00', '25.00', 'PENDING', 'BID_SUCCEEDED'],
      [String(listings[1]), '50.00', '50.00', 'PENDING', 'BID_SUCCEEDED'],
    ]);
    await page.click('button[data-advance="15d"]');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'moving the clock 15d: done', null, {
      timeout: 90_000,
    });
    // What the orders route answers now is what the panel shows.
    const { result } = (await (await fetch(`${mock.origin}/__mock/orders?limit=1`)).json()) as {
      result: { order_id: string; order_status: string; bid_requests: { listing_id: number; bid_status: string; bid_result: string }[] }[];
    };
    expect(result[0]!.order_id).toBe(orderId);
    expect(result[0]!.order_status).not.toBe('IN_PROGRESS');
    expect(await page.textContent('#orders tbody tr:first-child td:nth-child(4)')).toBe(result[0]!.order_status);
    expect((await bidRows(page)).map((r) => [Number(r[0]), r[3], r[4]])).toEqual(
      result[0]!.bid_requests.map((b) => [b.listing_id, b.bid_status, b.bid_result]),
    );
    const w = await widths(page);
    expect(w.overflowing).toEqual([]);
    expect(w.document).toBeLessThanOrEqual(WINDOW.width);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-1280.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
