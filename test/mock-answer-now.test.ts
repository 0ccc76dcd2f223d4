/**
 * The answer given in the same turn (route-helper/route.ts `now`, app.ts `answerNow`, the adapter): a route
 * that answers at once is written without a promise per step, and what is kept between requests to make that
 * cheap (the target's reading, http/request-target.ts TargetMemo; a page kept whole, routes/listings.ts) never
 * answers for a request it does not fit: another Host, another token, another world.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { route, JsonText } from '../mock-server/route-helper/route.js';
import { validationError } from '../mock-server/kit/api-error.js';
import { issueTestToken, TEST_START, testMockApp } from './helpers/mock.js';
import { rawRequest } from './helpers/raw-http.js';

const running: { app: MockApp; server: RunningServer }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.server.close();
    await r.app.close?.();
  }
});

async function serve(listings = 40) {
  const app = testMockApp({ seed: 7, listings, frozen: true, start: TEST_START });
  const server = await startHttpServer(app, '127.0.0.1', 0);
  running.push({ app, server });
  return { app, port: server.port, token: issueTestToken(app) };
}

const PAGE = '/listingsvc/v2/listings/?limit=25';

describe('a target asked again is checked again', () => {
  it('a foreign Host, a token that is not live and a foreign absolute-form authority are refused after the same target was answered', async () => {
    const { app, port, token } = await serve();
    const get = (headers: Record<string, string>, target = PAGE) => rawRequest(port, { target, headers });
    const ok = await get({ authorization: `bearer ${token}` });
    expect(ok.status).toBe(200);
    expect((await get({ authorization: `bearer ${token}` })).text).toBe(ok.text);
    expect((await get({ authorization: `bearer ${token}`, host: 'evil.example' })).status).toBe(421);
    expect((await get({ authorization: `bearer ${token}x` })).status).toBe(401);
    expect((await get({})).status).toBe(401);
    expect((await get({ authorization: `bearer ${token}` }, `http://evil.example${PAGE}`)).status).toBe(421);
    expect((await get({ authorization: `bearer ${token}` }, `http://127.0.0.1${PAGE}`)).status).toBe(200);
    // The same token once it has expired: the kept page of the world is not its answer.
    app.ctx.world.tokens.get(token)!.expiresAt = app.ctx.clock.now();
    expect((await get({ authorization: `bearer ${token}` })).status).toBe(401);
    // Another caller's token (one without the listing scope) on the same target.
    const narrow = issueTestToken(app, 'alice-1', ['read_invest_order']);
    expect((await get({ authorization: `bearer ${narrow}` })).status).toBe(403);
    expect((await get({ authorization: `bearer ${issueTestToken(app)}` })).text).toBe(ok.text);
  });

  it('a page too large to have been kept before (500 rows) is kept whole, and a change of the world between two asks shows', async () => {
    const { app, port, token } = await serve(300);
    const target = '/listingsvc/v2/listings/?limit=500';
    const headers = { authorization: `bearer ${token}` };
    const first = await rawRequest(port, { target, headers });
    expect(first.status).toBe(200);
    const kept = [...app.ctx.world.index.keptPages.values()];
    expect(kept.map((p) => p.bytes.length)).toEqual([Buffer.byteLength(first.text)]);
    expect(Buffer.byteLength(first.text)).toBeGreaterThan(256 * 1024);
    expect((await rawRequest(port, { target, headers })).text).toBe(first.text);
    const page = JSON.parse(first.text) as { result: { listing_number: number }[]; total_count: number };
    const gone = page.result[0]!.listing_number;
    const withdrawn = await rawRequest(port, { method: 'POST', target: `/__mock/listings/${gone}/withdraw` });
    expect(withdrawn.status).toBe(200);
    const after = JSON.parse((await rawRequest(port, { target, headers })).text) as typeof page;
    expect(after.total_count).toBe(page.total_count - 1);
    expect(after.result.map((l) => l.listing_number)).not.toContain(gone);
  });
});

describe('a route answering at once', () => {
  it('hands its answer back as it is; a body that answers with a promise, or fails either way, answers as before', async () => {
    const app = testMockApp({ seed: 7, listings: 10, frozen: true, start: TEST_START });
    try {
      const ctx = app.ctx;
      const head = (method: string) => ({
        method,
        url: 'http://127.0.0.1/x',
        headers: { get: () => null },
        body: null,
        text: () => Promise.resolve(''),
      });
      const atOnce = route(ctx, () => ({ a: 1 }));
      const given = atOnce.now(head('GET'));
      expect(given).toBeInstanceOf(JsonText);
      expect((given as JsonText).serialised).toBe('{"a":1}');
      expect(((await atOnce.direct(head('GET'))) as JsonText).serialised).toBe('{"a":1}');
      const later = route(ctx, async () => ({ a: 2 }));
      const promised = later.now(head('GET'));
      expect(promised).toBeInstanceOf(Promise);
      expect(((await promised) as JsonText).serialised).toBe('{"a":2}');
      // A writing body that fails at once or later: its error, and the world's version moved all the same (it may have changed something first).
      for (const body of [
        () => {
          throw validationError('x', 'bad');
        },
        async () => {
          await Promise.resolve();
          throw validationError('x', 'bad');
        },
      ]) {
        const version = ctx.engine.version;
        const failed = await route(ctx, body).now(head('POST'));
        expect(failed.status).toBe(400);
        expect((failed as JsonText).serialised).toContain('x: bad');
        expect(ctx.engine.version).toBe(version + 1);
      }
      // A bug is a 500, at once or later, never a throw out of the route (and is reported).
      const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const bug = await route(ctx, () => {
        throw new Error('boom');
      }).now(head('GET'));
      expect(bug.status).toBe(500);
      expect(reported).toHaveBeenCalledOnce();
      reported.mockRestore();
    } finally {
      await app.close?.();
    }
  });
});
