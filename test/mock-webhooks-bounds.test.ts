/**
 * Webhooks under a burst (issue 37): past a URL's queue bound the delivery waiting longest is dropped,
 * and that is counted and listed, never silent; one receiver that hangs neither holds up nor costs
 * another its events; and an attempt's time limit runs from when its request is written, so a
 * receiver that answers within it gets each event once even when the pool is busy. Real HTTP on
 * 127.0.0.1, a dozen events at most.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import type { MockOptions } from '../mock-server/context.js';
import type { WebhookDelivery } from '../src/contract/mock-webhooks.js';
import { call, order, plainListings, START, tokenFor } from './engine-fixture.js';
import { testMockApp } from './helpers/mock.js';
import { startReceiver, type Answer, type Receiver } from './helpers/webhook-receiver.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function receiver(answers: Answer[]): Promise<Receiver> {
  const r = await startReceiver(answers);
  open.push(r);
  return r;
}

function hookedApp(urls: string[], settings: Partial<MockOptions['webhooks']>): MockApp {
  const app = testMockApp({
    seed: 7,
    listings: 300,
    start: START,
    frozen: true,
    admin: true,
    webhooks: { urls, secret: 'whsec_bounds', retryMs: [5, 10], ...settings },
  });
  open.push({ close: async () => app.close?.() });
  return app;
}

type Page = { result: WebhookDelivery[]; total_count: number; counts: Record<string, number> };

async function page(app: MockApp, query = ''): Promise<Page> {
  const res = await call(app, 'GET', `/__mock/webhooks${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** Polls GET /__mock/webhooks until `done` holds (bounded: 600 looks 10 ms apart). */
async function until(app: MockApp, done: (p: Page) => boolean): Promise<Page> {
  for (let i = 0; i < 600; i++) {
    const p = await page(app, '?limit=1000');
    if (done(p)) return p;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`deliveries never got there: ${JSON.stringify((await page(app)).counts)}`);
}

/** `n` events, one order refused for want of cash each (order_validation_error); `after` runs after each. */
async function events(app: MockApp, n: number, after: (i: number) => Promise<unknown> = async () => undefined): Promise<number[]> {
  const [a, b] = plainListings(app);
  for (let i = 0; i < n; i++) {
    const res = await order(app, tokenFor(app, 'bob-1'), [
      { listing_id: a!.listing_number, bid_amount: 30 },
      { listing_id: b!.listing_number, bid_amount: 30 },
    ]);
    expect(res.status).toBe(400);
    await after(i);
  }
  return app.ctx.world.outbox.messages.map((m) => m.id);
}

const outboxId = (d: WebhookDelivery) => Number(d.event_id.split('_').at(-1));

describe('webhooks: a burst past the queue bound', () => {
  test('to a receiver that hangs: the deliveries that waited longest are dropped, counted and listed (never tried), while another receiver gets every event', async () => {
    const [hanging, healthy] = [await receiver(['hang']), await receiver([204])];
    const app = hookedApp([hanging.url, healthy.url], { queue: 3, connections: 1, timeoutMs: 10_000 });
    // Each event reaches the healthy receiver before the next is made (its own queue never fills) while the hanging one's grows.
    const ids = await events(app, 8, (i) => healthy.waitFor(i + 1));
    expect(ids).toHaveLength(8);
    const all = await until(app, (p) => p.counts.delivered === 8);
    // To the hanging one: the first under way, three waiting, the four that waited longest dropped.
    expect(all.counts).toEqual({ pending: 4, delivered: 8, failed: 0, dropped: 4 });
    expect(Object.values(all.counts).reduce((x, y) => x + y)).toBe(ids.length * 2);
    const dropped = (await page(app, '?state=dropped')).result;
    expect(dropped.map(outboxId)).toEqual([ids[4], ids[3], ids[2], ids[1]]);
    for (const d of dropped) expect(d).toMatchObject({ url: hanging.url, state: 'dropped', attempts: [], next_attempt_at: null });
    const pending = (await page(app, '?state=pending')).result;
    expect(pending.map(outboxId)).toEqual([ids[7], ids[6], ids[5], ids[0]]);
    expect(pending.every((d) => d.url === hanging.url)).toBe(true);
    // Only the one under way reached the hanging receiver.
    expect(hanging.got.map((g) => g.headers['mkt-event-id'])).toEqual([pending[3]!.event_id]);
    expect((await page(app, '?state=delivered')).result.every((d) => d.url === healthy.url && d.attempts.length === 1)).toBe(true);
  });
});

describe('webhooks: the time limit runs from when the request is written', () => {
  test('a receiver answering in just under the limit, behind a pool busy with the first eight, gets each of twelve events once', async () => {
    // 600 ms of 1000: the last four wait about 600 ms for a connection, then take 600 ms more.
    const r = await receiver([{ status: 204, afterMs: 600 }]);
    const app = hookedApp([r.url], { timeoutMs: 1000 });
    const ids = await events(app, 12);
    const done = await until(app, (p) => p.result.length === 12 && p.result.every((d) => d.state !== 'pending'));
    expect(done.result.map((d) => d.attempts.map((a) => a.error ?? a.status))).toEqual(ids.map(() => [204]));
    const sent = r.got.map((g) => g.headers['mkt-event-id']);
    expect(sent).toHaveLength(12);
    expect(new Set(sent).size).toBe(12);
    expect(done.counts).toEqual({ pending: 0, delivered: 12, failed: 0, dropped: 0 });
  });
});
