/**
 * Issue 37, "any web page can drive a loopback mock", in a real browser (chromium through
 * playwright-core): a page served by another small server on 127.0.0.1 (another port; opened as
 * `localhost` or `127.0.0.1`, the mock reached by the other name too) sends the no-preflight
 * `fetch(..., {mode: 'no-cors'})` POSTs of the report (reset, clock, faults, a snapshot; a string
 * body and a Blob without a type) and a text/plain form, and fetches /__mock/state and
 * /__mock/requests; a page whose name was pointed at 127.0.0.1 (DNS rebinding, made by the
 * browser's resolver rules) reads same-origin. Each request reaches the mock (its request log shows
 * it refused), the world, clock, faults and snapshots are unchanged, and nothing is read. The
 * dashboard, opened from the mock's own origin under either name, still moves the clock.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { launchChromium } from './helpers/auth-browser.js';
import { startMock, TEST_START, type TestMock } from './helpers/mock.js';
import { skipUnless } from './helpers/requirements.js';

const noBrowser = skipUnless('the admin-from-a-web-page browser tests', ['chromium']);
/** The name the rebinding page is served under; the browser resolves it to 127.0.0.1. */
const REBOUND = 'rebind.test';

/** The page of another origin: every attack of the report against `?target=ORIGIN`, its results in window.__results. */
const ATTACK_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>not the mock</title></head><body><script>
(async function () {
  var T = new URL(location.href).searchParams.get('target');
  var results = {};
  function post(path, body) {
    return fetch(T + path, { method: 'POST', mode: 'no-cors', body: body }).then(function () { return 'sent'; }, function (e) { return 'error: ' + e.message; });
  }
  results.reset = await post('/__mock/reset');
  results.clockText = await post('/__mock/clock', '{"advance":"15d"}');
  results.clockBlob = await post('/__mock/clock', new Blob(['{"advance":"15d"}']));
  results.faultsText = await post('/__mock/faults', '{"error_rate":1}');
  results.faultsBlob = await post('/__mock/faults', new Blob(['{"error_rate":1}']));
  results.snapshot = await post('/__mock/snapshots', new Blob(['{"name":"pwned"}']));
  for (var p of ['/__mock/state', '/__mock/requests']) {
    try {
      var r = await fetch(T + p);
      results['read ' + p] = 'read ' + r.status + ' ' + (await r.text()).slice(0, 300);
    } catch (e) {
      results['read ' + p] = 'blocked';
    }
  }
  // A form needs no script on the target: a text/plain POST in a frame, as an old-style CSRF page would.
  await new Promise(function (resolve) {
    var frame = document.createElement('iframe');
    frame.name = 'sink';
    document.body.appendChild(frame);
    var form = document.createElement('form');
    form.method = 'POST';
    form.enctype = 'text/plain';
    form.action = T + '/__mock/reset';
    form.target = 'sink';
    var input = document.createElement('input');
    input.name = 'x';
    input.value = 'y';
    form.appendChild(input);
    document.body.appendChild(form);
    frame.addEventListener('load', resolve, { once: true });
    setTimeout(resolve, 5000);
    form.submit();
  });
  window.__results = results;
  window.__done = true;
})();
</script></body></html>`;

/** What a page could change. */
async function fingerprint(app: MockApp) {
  return {
    world: app.ctx.world,
    now: app.ctx.clock.now(),
    faults: JSON.stringify(app.ctx.faults.get()),
    snapshots: (await app.ctx.snapshots.list()).map((s) => s.name),
  };
}

/** The same world object (a reset makes an equal-looking new one), clock, faults and snapshots as `before`. */
async function expectUnchanged(app: MockApp, before: Awaited<ReturnType<typeof fingerprint>>): Promise<void> {
  const now = await fingerprint(app);
  expect(now.world === before.world, 'the world was replaced (a reset or a load)').toBe(true);
  expect({ ...now, world: null }).toEqual({ ...before, world: null });
}

let browser: Browser;
let attacker: Server;
let attackerPort: number;
beforeAll(async () => {
  if (noBrowser) return;
  browser = await launchChromium([`--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`]);
  attacker = createServer((req, res) => {
    if (req.url?.startsWith('/attack.html')) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ATTACK_PAGE);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerPort = (attacker.address() as AddressInfo).port;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (attacker ? attacker.close(resolve) : resolve(undefined)));
});

/** Runs the attack page from `pageOrigin` against the mock at `target`; its results. */
async function attackFrom(pageOrigin: string, target: string): Promise<Record<string, string>> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${pageOrigin}/attack.html?target=${encodeURIComponent(target)}`);
    await page.waitForFunction(() => (window as unknown as { __done?: boolean }).__done === true, null, { timeout: 30_000 });
    return await page.evaluate(() => (window as unknown as { __results: Record<string, string> }).__results);
  } finally {
    await context.close();
  }
}

describe.skipIf(noBrowser)('a page of another origin, in the browser of the person running the mock', () => {
  let mock: TestMock;
  let port: number;
  beforeAll(async () => {
    mock = await startMock({ listings: 60 });
    port = Number(new URL(mock.origin).port);
  });
  afterAll(async () => {
    await mock?.close();
  });

  const cases: [string, () => string, () => string][] = [
    ['another port of 127.0.0.1 (same site)', () => `http://127.0.0.1:${attackerPort}`, () => `http://127.0.0.1:${port}`],
    ['localhost, at the mock as 127.0.0.1', () => `http://localhost:${attackerPort}`, () => `http://127.0.0.1:${port}`],
    ['127.0.0.1, at the mock as localhost', () => `http://127.0.0.1:${attackerPort}`, () => `http://localhost:${port}`],
  ];
  for (const [name, pageOrigin, target] of cases) {
    it(`from ${name}: no-cors POSTs and a form change nothing, and nothing is read`, async () => {
      const before = await fingerprint(mock.app);
      const seenBefore = mock.app.requestLog.list(1).total;
      const results = await attackFrom(pageOrigin(), target());
      // The browser sent them (opaque answers), and could read nothing.
      for (const k of ['reset', 'clockText', 'clockBlob', 'faultsText', 'faultsBlob', 'snapshot']) expect(results[k], k).toBe('sent');
      expect(results['read /__mock/state']).toBe('blocked');
      expect(results['read /__mock/requests']).toBe('blocked');
      await expectUnchanged(mock.app, before);
      // Each reached the mock, and was refused by it; the browser named the page's origin.
      const logged = mock.app.requestLog.list(50).result.filter((e) => e.id > seenBefore && e.method === 'POST');
      expect(logged.length).toBeGreaterThanOrEqual(7);
      for (const e of logged) {
        expect(e.status, `${e.method} ${e.path}`).toBe(403);
        expect(e.headers.origin).toBe(pageOrigin());
      }
    });
  }

  it('a page whose name now points at 127.0.0.1 (DNS rebinding) reads nothing and changes nothing, same-origin and with JSON', async () => {
    const before = await fingerprint(mock.app);
    const context = await browser.newContext();
    const page: Page = await context.newPage();
    try {
      // The page's origin is http://rebind.test:PORT, and the browser now resolves that name to the mock.
      await page.goto(`http://${REBOUND}:${port}/`);
      const results = await page.evaluate(async () => {
        const out: Record<string, string> = {};
        for (const p of ['/__mock/state', '/__mock/requests', '/openapi.json']) {
          const r = await fetch(p);
          out[p] = `${r.status} ${(await r.text()).slice(0, 400)}`;
        }
        const move = await fetch('/__mock/clock', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"advance":"15d"}',
        });
        out.clock = String(move.status);
        return out;
      });
      for (const p of ['/__mock/state', '/__mock/requests', '/openapi.json']) {
        expect(results[p], p).toMatch(/^421 .*MISDIRECTED_REQUEST/);
        expect(results[p]).not.toMatch(/password|alice/);
      }
      expect(results.clock).toBe('421');
      await expectUnchanged(mock.app, before);
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(noBrowser)("the dashboard, opened from the mock's own origin", () => {
  it('moves the clock under either loopback name', async () => {
    const mock = await startMock({ listings: 30 });
    const port = new URL(mock.origin).port;
    try {
      let expected = TEST_START;
      for (const origin of [mock.origin, `http://localhost:${port}`]) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(`${origin}/__mock/`);
        await page.waitForSelector('html[data-loaded]', { timeout: 15_000 });
        await page.click('button[data-advance="1h"]');
        await page.waitForFunction(() => document.getElementById('status')?.textContent === 'moving the clock 1h: done', null, {
          timeout: 30_000,
        });
        expected += 3_600_000;
        expect(mock.app.ctx.clock.now(), origin).toBe(expected);
        await page.click('#faults-clear');
        await page.waitForFunction(() => document.getElementById('status')?.textContent === 'clearing the faults: done', null, {
          timeout: 30_000,
        });
        expect(errors).toEqual([]);
        await context.close();
      }
    } finally {
      await mock.close();
    }
  });
});
