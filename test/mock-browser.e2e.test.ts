/**
 * The browser build of the mock in real chromium (issue 40, item 3): a page served from 127.0.0.1 builds a
 * world of 2,000 listings from dist/browser/mock.js (built afresh into a folder of the test's own), wires its
 * own msw `setupWorker` (msw's mockServiceWorker.js served at the page's scope, as `npx msw init` would put
 * it) to forward https://api.example.test to the app, and walks: signs in, searches listings, places an order,
 * moves the clock an hour and sees the bid processed, then three days (stepped a day at a time). Prints the world's start time in the page and the
 * bundle's size gzipped.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/auth-browser.js';
import type { Walk } from './helpers/mock-browser-page.js';
import { runWalk, WALK, WALK_WORLD, type WalkAnswer } from './helpers/door-walk.js';
import { createMarketplace } from '../mock-server/library/index.js';
import { skipUnless } from './helpers/requirements.js';

const noBrowser = skipUnless('the browser build in a real browser', ['chromium']);
const ROOT = resolve(import.meta.dirname, '..');
const PAGE = join(ROOT, 'test/helpers/mock-browser-page.ts');
const DOORS_PAGE = join(ROOT, 'test/helpers/mock-browser-doors-page.ts');
const WORKER = join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js');

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.map': 'application/json' };

/** Bundles the page with the page's own msw, the mock's sources taken from the browser build in `built`. */
async function bundlePage(built: string, out: string, input = PAGE, name = 'page.js'): Promise<void> {
  const bundle = await rolldown({
    input,
    platform: 'browser',
    cwd: ROOT,
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    plugins: [
      {
        name: 'the-browser-build',
        resolveId(source, importer) {
          if (importer === input && source === '../../mock-server/library/index.js') return join(built, 'mock.js');
          // The build's msw is the page's (the build, outside the repository, finds none of its own).
          if (importer?.startsWith(built) && /^msw(\/|$)/.test(source)) return this.resolve(source, PAGE);
          return null;
        },
      },
    ],
    logLevel: 'warn',
  });
  await bundle.write({ file: join(out, name), format: 'esm', sourcemap: true, codeSplitting: false });
  await bundle.close();
}

/** The README's browser recipe (the ts block under "### In a browser"), as printed. */
function readmeRecipe(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### In a browser'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no ts block under "### In a browser"');
  return block;
}

/** Bundles the README's recipe as a page would be: `mkt/mock` is the browser build in `built`, msw the repository's. */
async function bundleRecipe(built: string, out: string): Promise<void> {
  const source = join(out, 'recipe.ts');
  mkdirSync(out, { recursive: true });
  writeFileSync(source, readmeRecipe());
  const bundle = await rolldown({
    input: source,
    platform: 'browser',
    cwd: ROOT,
    plugins: [
      {
        name: 'mkt-mock-is-the-browser-build',
        resolveId(id, importer) {
          if (id === 'mkt/mock') return join(built, 'mock.js');
          if (/^msw(\/|$)/.test(id) && importer !== PAGE) return this.resolve(id, PAGE);
          return null;
        },
      },
    ],
    logLevel: 'warn',
  });
  await bundle.write({ file: join(out, 'recipe.js'), format: 'esm', sourcemap: false, codeSplitting: false });
  await bundle.close();
}

describe.skipIf(noBrowser)('the browser build in a real browser', () => {
  let dir: string;
  let server: Server;
  let origin: string;
  let browser: Browser;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mkt-mock-browser-'));
    execFileSync(process.execPath, [join(ROOT, 'scripts/bundle-browser.mjs'), '--out', join(dir, 'mock')], {
      stdio: 'pipe',
      timeout: 120_000,
    });
    await bundlePage(join(dir, 'mock'), join(dir, 'page'));
    await bundleRecipe(join(dir, 'mock'), join(dir, 'recipe'));
    await bundlePage(join(dir, 'mock'), join(dir, 'page'), DOORS_PAGE, 'doors.js');
    const files: Record<string, string> = {
      '/page.js': join(dir, 'page/page.js'),
      '/page.js.map': join(dir, 'page/page.js.map'),
      '/recipe.js': join(dir, 'recipe/recipe.js'),
      '/doors.js': join(dir, 'page/doors.js'),
      // Where `npx msw init public/` puts it: at the root of the page's scope.
      '/mockServiceWorker.js': WORKER,
    };
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/' || path === '/recipe.html' || path === '/doors.html') {
        const script = path === '/' ? '/page.js' : path === '/recipe.html' ? '/recipe.js' : '/doors.js';
        res.writeHead(200, { 'content-type': TYPES['.html']! });
        res.end(
          `<!doctype html><meta charset="utf-8"><title>mock in a page</title><body></body><script type="module" src="${script}"></script>`,
        );
        return;
      }
      // The browser asks for one; none is an empty answer, not a 404 in the console.
      if (path === '/favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      const file = files[path];
      if (!file) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(readFileSync(file));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds a world of 2,000 listings in the page, searches, orders, moves the clock and sees the bid processed', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
    page.on('console', (m) => void (m.type() === 'error' && errors.push(`console: ${m.text()}`)));
    expect((await page.goto(origin))?.status()).toBe(200);
    await page.waitForSelector('html[data-done], html[data-error]', { state: 'attached', timeout: 120_000 });
    const failed = await page.evaluate(() => document.documentElement.dataset.error);
    expect(failed, errors.join('\n')).toBeUndefined();
    const walk = (await page.evaluate(() => (window as unknown as { walk: Walk }).walk)) as Walk;

    expect(walk.listingsTotal).toBeGreaterThan(0);
    expect(walk.orderStatusBefore).toBe('IN_PROGRESS');
    expect(walk.bidResultBefore).toBe('NONE');
    expect(walk.moved).toMatchObject({ moved_ms: 3_600_000 });
    // Processed on the move: the bid has its result and its amount placed.
    expect(walk.bidResultAfter).toBe('BID_SUCCEEDED');
    expect(walk.bidAmountPlaced).toBe(25);
    // clock.advance answers the clock after the move: the start, the hour, three days.
    expect(walk.movedDays).toBe('2026-01-08T15:00:00.000Z');
    expect(errors).toEqual([]);

    const gzipped = gzipSync(readFileSync(join(dir, 'mock/mock.js')), { level: 9 }).length;
    console.log(
      `browser build in chromium: a world of 2,000 listings started in ${walk.startMs.toFixed(0)} ms; the bundle is ${(gzipped / 1024).toFixed(0)} KiB gzipped`,
    );
    await context.close();
  }, 150_000);

  it("runs the README's browser recipe as printed: the bid processed on the clock move, shown in the page", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
    expect((await page.goto(`${origin}/recipe.html`))?.status()).toBe(200);
    await page.waitForFunction(() => /^listing \d+: /.test(document.body.textContent ?? ''), null, { timeout: 120_000 });
    expect(await page.evaluate(() => document.body.textContent)).toMatch(/^listing \d+: BID_SUCCEEDED$/);
    expect(errors).toEqual([]);
    await context.close();
  }, 150_000);

  it('answers a fixed walk with the bytes the Node door answers (status, content type, Date, body)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    expect((await page.goto(`${origin}/doors.html`))?.status()).toBe(200);
    await page.waitForSelector('html[data-done], html[data-error]', { state: 'attached', timeout: 120_000 });
    expect(await page.evaluate(() => document.documentElement.dataset.error)).toBeUndefined();
    const inBrowser = (await page.evaluate(() => (window as unknown as { answers: WalkAnswer[] }).answers)) as WalkAnswer[];
    const market = createMarketplace(WALK_WORLD);
    const inNode = await runWalk((request) => market.handle(request), 'https://api.example.test', await market.tokenFor('alice'));
    await market.close();
    expect(inBrowser.length).toBe(WALK.length);
    // The walk reaches what it is for: a search, an order taken and processed, refusals.
    expect(inNode.map((a) => a.status)).toContain(400);
    expect(inNode.filter((a) => a.status === 200).length).toBeGreaterThan(10);
    for (let i = 0; i < WALK.length; i++) expect({ step: WALK[i], ...inBrowser[i] }).toEqual({ step: WALK[i], ...inNode[i] });
    await context.close();
  }, 150_000);
});
