/**
 * Signed webhooks (mock serve --webhook; the mock's extension): every outbox event of a real order
 * flow reaches a real receiver on 127.0.0.1, signed so that the three lines the docs give verify it;
 * failures are retried and each attempt listed at GET /__mock/webhooks; a replay sends nothing again.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import type { MockOptions } from '../mock-server/context.js';
import { startHttpServer } from '../mock-server/http-adapter.js';
import { MockSetupError } from '../mock-server/kit/setup-error.js';
import { Value } from '@sinclair/typebox/value';
import { WebhookEventSchema, type WebhookDelivery, type WebhookEvent } from '../src/contract/mock-webhooks.js';
import { call, order, plainListings, START, tokenFor } from './engine-fixture.js';
import { testMockApp } from './helpers/mock.js';
import { rawRequest } from './helpers/raw-http.js';
import { startReceiver, unreachableUrl, type Answer, type Receiver } from './helpers/webhook-receiver.js';

const SECRET = 'whsec_test_secret';
/** Short waits between attempts: the retries of a test take milliseconds, not seconds. */
const FAST = [5, 10, 20, 40];

/** The receiver's check, exactly the three lines the docs give (docs/mock.md, README). */
function verify(header: string, body: string, secret: string): boolean {
  const { t = '', v1 = '' } = Object.fromEntries(header.split(',').map((kv) => kv.split('=', 2)));
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  // docs/mock.md and the README give a receiver these three lines as they are, to the character (the test below).
  // prettier-ignore
  const valid = Buffer.byteLength(v1) === 64 && timingSafeEqual(Buffer.from(v1), Buffer.from(expected)) && Math.abs(Date.now() / 1000 - Number(t)) < 300;
  return valid;
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function receiver(statuses?: Answer[]): Promise<Receiver> {
  const r = await startReceiver(statuses);
  open.push(r);
  return r;
}

/** A frozen mock (real time for signatures and attempts) sending its webhooks to `urls`. */
function hookedApp(urls: string[], extra: Partial<MockOptions['webhooks']> = {}, opts: Partial<MockOptions> = {}): MockApp {
  const app = testMockApp({
    seed: 7,
    listings: 300,
    start: START,
    frozen: true,
    admin: true,
    webhooks: { urls, secret: SECRET, retryMs: FAST, ...extra },
    ...opts,
  });
  open.push({ close: async () => app.close?.() });
  return app;
}

async function deliveries(app: MockApp, query = ''): Promise<WebhookDelivery[]> {
  const res = await call(app, 'GET', `/__mock/webhooks${query}`);
  expect(res.status).toBe(200);
  return res.body.result;
}

/** Polls GET /__mock/webhooks until `done` holds (bounded: 500 looks 10 ms apart). */
async function until(app: MockApp, done: (d: WebhookDelivery[]) => boolean): Promise<WebhookDelivery[]> {
  for (let i = 0; i < 500; i++) {
    const d = await deliveries(app);
    if (done(d)) return d;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`deliveries never got there: ${JSON.stringify(await deliveries(app))}`);
}

/** bob's order refused for want of cash (ORD0021): an order_validation_error. */
async function refusedOrder(app: MockApp) {
  const [a, b] = plainListings(app);
  const res = await order(app, tokenFor(app, 'bob-1'), [
    { listing_id: a!.listing_number, bid_amount: 30 },
    { listing_id: b!.listing_number, bid_amount: 30 },
  ]);
  expect(res.status).toBe(400);
}

/** alice's order for the whole remainder of a verified listing: processed at once, completed when it originates. */
async function wholeListingOrder(app: MockApp): Promise<string> {
  const l = plainListings(app)[0]!;
  l.verification_stage = 3;
  const res = await order(app, tokenFor(app, 'alice-1'), [{ listing_id: l.listing_number, bid_amount: l.amount_remaining }]);
  expect(res.status).toBe(200);
  return res.body.order_id;
}

describe('webhooks: the three events of real order flows, signed', () => {
  test('a receiver gets order_validation_error, order_processed and order_completed, each verified by the documented lines', async () => {
    const r = await receiver([204]);
    const app = hookedApp([r.url]);
    await refusedOrder(app);
    const id = await wholeListingOrder(app);
    await call(app, 'POST', '/__mock/process');
    for (let i = 0; i < 6; i++) await call(app, 'POST', '/__mock/clock', { body: { advance: '1d' } });
    const got = await r.waitFor(3);
    const events = got.map((g) => JSON.parse(g.body) as WebhookEvent).sort((x, y) => x.data.id - y.data.id);
    expect(events.map((e) => e.type)).toEqual(['order_validation_error', 'order_processed', 'order_completed']);
    expect(events.map((e) => e.data.order_id)).toEqual([null, id, id]);
    // The data is the outbox message as GET /__mock/outbox answers it, the time virtual.
    const outbox = (await call(app, 'GET', '/__mock/outbox')).body.result;
    for (const e of events) {
      expect(e.data).toEqual(outbox.find((m: { id: number }) => m.id === e.data.id));
      expect(e.created_at).toBe(e.data.sent_at);
    }
    for (const g of got) {
      const body = JSON.parse(g.body) as WebhookEvent;
      // The body is what the OpenAPI document's WebhookEvent describes.
      expect([...Value.Errors(WebhookEventSchema, body)]).toEqual([]);
      expect(g.headers['content-type']).toBe('application/json');
      expect(g.headers['user-agent']).toMatch(/^mkt-mock-webhooks\//);
      expect(g.headers['mkt-event-id']).toBe(body.id);
      expect(g.headers['mkt-event-type']).toBe(body.type);
      expect(g.headers['mkt-delivery-attempt']).toBe('1');
      const header = String(g.headers['mkt-signature']);
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verify(header, g.body, SECRET)).toBe(true);
      // A body changed on the way, or another secret, does not verify.
      expect(verify(header, g.body.replace('"type":"', '"type":"x'), SECRET)).toBe(false);
      expect(verify(header, `${g.body} `, SECRET)).toBe(false);
      expect(verify(header, g.body, 'another secret')).toBe(false);
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
    const listed = await until(app, (d) => d.length === 3 && d.every((x) => x.state === 'delivered'));
    expect(listed.map((d) => d.type)).toEqual(['order_completed', 'order_processed', 'order_validation_error']);
    expect(listed[0]).toMatchObject({ url: r.url, next_attempt_at: null, attempts: [{ status: 204, error: null }] });
  });

  test('every URL gets every event, with the same event id', async () => {
    const [a, b] = [await receiver(), await receiver()];
    const app = hookedApp([a.url, b.url]);
    await refusedOrder(app);
    const [[fromA], [fromB]] = [await a.waitFor(1), await b.waitFor(1)];
    expect(fromA!.headers['mkt-event-id']).toBe(fromB!.headers['mkt-event-id']);
    expect(fromA!.body).toBe(fromB!.body);
    expect((await until(app, (d) => d.length === 2 && d.every((x) => x.state === 'delivered'))).map((d) => d.url).sort()).toEqual(
      [a.url, b.url].sort(),
    );
  });
});

describe('webhooks: retries and what they record', () => {
  test('a receiver failing twice (500) then answering 200 shows 3 attempts and delivered; every attempt carries the same event and body', async () => {
    const r = await receiver([500, 500, 200]);
    const app = hookedApp([r.url]);
    await refusedOrder(app);
    const got = await r.waitFor(3);
    expect(new Set(got.map((g) => g.headers['mkt-event-id'])).size).toBe(1);
    expect(new Set(got.map((g) => g.body)).size).toBe(1);
    expect(got.map((g) => g.headers['mkt-delivery-attempt'])).toEqual(['1', '2', '3']);
    for (const g of got) expect(verify(String(g.headers['mkt-signature']), g.body, SECRET)).toBe(true);
    const [d] = await until(app, (list) => list[0]?.state === 'delivered');
    expect(d!.attempts.map((a) => [a.status, a.error])).toEqual([
      [500, null],
      [500, null],
      [200, null],
    ]);
    expect(d!.event_id).toBe(got[0]!.headers['mkt-event-id']);
    expect(d!.next_attempt_at).toBeNull();
    expect(await r.waitFor(3)).toHaveLength(3);
  });

  test('an unreachable receiver ends failed after the retry budget, each attempt with its error', async () => {
    const app = hookedApp([await unreachableUrl()], { retryMs: [5, 5] });
    await refusedOrder(app);
    const [d] = await until(app, (list) => list[0]?.state === 'failed');
    expect(d!.attempts).toHaveLength(3);
    for (const a of d!.attempts) {
      expect(a.status).toBeNull();
      expect(a.error).toMatch(/ECONNREFUSED/);
    }
    expect(await deliveries(app, '?state=failed')).toHaveLength(1);
    expect(await deliveries(app, '?state=pending')).toEqual([]);
    expect((await call(app, 'GET', '/__mock/webhooks?state=lost')).status).toBe(400);
  });

  test('a receiver that does not answer: the request that made the event is answered first, and the attempt times out', async () => {
    const r = await receiver(['hang', 204]);
    const app = hookedApp([r.url], { timeoutMs: 100, retryMs: [5] });
    await refusedOrder(app);
    // The order was answered while its event's first attempt had not ended.
    expect((await deliveries(app))[0]).toMatchObject({ state: 'pending', attempts: [] });
    const [d] = await until(app, (list) => list[0]?.state === 'delivered');
    expect(d!.attempts.map((a) => [a.status, a.error])).toEqual([
      [null, 'no answer within 100 ms'],
      [204, null],
    ]);
  });

  test('close cancels a retry that is due later: what was pending is dropped, counted, and nothing more is sent', async () => {
    const r = await receiver([500]);
    const app = hookedApp([r.url], { retryMs: [3_600_000] });
    for (let i = 0; i < 3; i++) await refusedOrder(app);
    const list = await until(app, (l) => l.length === 3 && l.every((d) => d.attempts.length === 1));
    expect(list.every((d) => d.state === 'pending' && d.next_attempt_at !== null)).toBe(true);
    await app.close?.();
    expect(app.webhooks!.list().every((d) => d.state === 'dropped' && d.next_attempt_at === null)).toBe(true);
    expect(app.webhooks!.counts()).toEqual({ pending: 0, delivered: 0, failed: 0, dropped: 3 });
    expect(r.got).toHaveLength(3);
  });

  test('the list keeps the newest `keep` ended deliveries; the counts keep every one', async () => {
    const r = await receiver([204]);
    const app = hookedApp([r.url], { keep: 2 });
    for (let i = 0; i < 3; i++) await refusedOrder(app);
    await r.waitFor(3);
    const list = await until(
      app,
      (l) => l.length === 2 && l.every((d) => d.state === 'delivered') && app.webhooks!.counts().delivered === 3,
    );
    const ids = app.ctx.world.outbox.messages.map((m) => m.id);
    expect(list.map((d) => Number(d.event_id.split('_').at(-1)))).toEqual([ids[2], ids[1]]);
    expect((await call(app, 'GET', '/__mock/webhooks')).body.counts).toEqual({ pending: 0, delivered: 3, failed: 0, dropped: 0 });
  });

  test('past the queue bound the delivery waiting longest is dropped, never one whose attempt is under way (retries stay bounded by the queue)', async () => {
    const r = await receiver(['hang']);
    const app = hookedApp([r.url], { retryMs: [5, 5, 5], timeoutMs: 100, queue: 1 });
    // Three events at once: all three are tried; when their attempts time out, two of them find the queue of one full.
    for (let i = 0; i < 3; i++) await refusedOrder(app);
    const [kept] = await until(app, (l) => l.some((d) => d.state === 'failed'));
    await until(app, (l) => l.filter((d) => d.state === 'dropped').length === 2);
    expect(kept!.attempts).toHaveLength(4);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ids = r.got.map((g) => g.headers['mkt-event-id']);
    // One attempt each for the two dropped, four for the kept one.
    expect(ids.filter((id) => id === kept!.event_id)).toHaveLength(4);
    expect(ids).toHaveLength(6);
    expect(app.webhooks!.counts()).toEqual({ pending: 0, delivered: 0, failed: 1, dropped: 2 });
  });
});

describe('webhooks: what a clearing of the outbox holds is sent first', () => {
  test("DELETE /__mock/outbox whose own sync processed an order still sends that order's event", async () => {
    const r = await receiver();
    let now = START;
    const app = testMockApp(
      { seed: 7, listings: 300, start: START, frozen: false, admin: true, webhooks: { urls: [r.url], secret: SECRET, retryMs: FAST } },
      () => now,
    );
    open.push({ close: async () => app.close?.() });
    await wholeListingOrder(app);
    // The order falls due; nothing looks before the clearing request, whose sync processes it and writes the message it then clears.
    now += 60_000;
    const cleared = await call(app, 'DELETE', '/__mock/outbox');
    expect(cleared.status).toBe(200);
    const [got] = await r.waitFor(1);
    expect((JSON.parse(got!.body) as WebhookEvent).type).toBe('order_processed');
  });
});

describe('webhooks: only events made while serving are sent', () => {
  test('a restart from a --state folder replays the outbox without sending it again; a new event is sent', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'mkt-webhooks-')), 'state');
    const r = await receiver();
    const first = hookedApp([r.url], {}, { stateFile: dir, listings: 120 });
    await refusedOrder(first);
    await wholeListingOrder(first);
    await call(first, 'POST', '/__mock/process');
    await r.waitFor(2);
    await until(first, (l) => l.length === 2 && l.every((d) => d.state === 'delivered'));
    await first.close?.();
    const second = hookedApp([r.url], {}, { stateFile: dir, listings: 120 });
    expect(second.ctx.world.outbox.messages.map((m) => m.kind)).toEqual(['order_validation_error', 'order_processed']);
    expect(await deliveries(second)).toEqual([]);
    await refusedOrder(second);
    const got = await r.waitFor(3);
    expect(got.map((g) => (JSON.parse(g.body) as WebhookEvent).data.id)).toEqual([1, 2, 3]);
    expect((await deliveries(second)).map((d) => d.type)).toEqual(['order_validation_error']);
  });

  test("after a reset the new world's events are sent with ids of their own; a snapshot loaded sends nothing it held", async () => {
    const r = await receiver();
    const app = hookedApp([r.url]);
    await refusedOrder(app);
    expect((await call(app, 'POST', '/__mock/snapshots', { body: { name: 'one' } })).status).toBe(200);
    expect((await call(app, 'POST', '/__mock/reset')).status).toBe(200);
    await refusedOrder(app);
    const got = await r.waitFor(2);
    const [before, after] = got.map((g) => JSON.parse(g.body) as WebhookEvent);
    expect([before!.data.id, after!.data.id]).toEqual([1, 1]);
    expect(before!.id).not.toBe(after!.id);
    expect((await call(app, 'POST', '/__mock/snapshots/one/load')).status).toBe(200);
    await refusedOrder(app);
    await r.waitFor(3);
    expect((await deliveries(app)).map((d) => d.event_id)).toEqual([
      (JSON.parse(r.got[2]!.body) as WebhookEvent).id,
      after!.id,
      before!.id,
    ]);
    expect((JSON.parse(r.got[2]!.body) as WebhookEvent).data.id).toBe(2);
  });
});

describe('webhooks: settings and secrets', () => {
  test('the three lines docs/mock.md gives a receiver are, to the character, the ones these tests verify with', () => {
    const source = readFileSync(fileURLToPath(import.meta.url), 'utf8');
    const lines = /function verify\(header: string, body: string, secret: string\): boolean \{\n((?:  .*\n){5})/
      .exec(source)![1]!
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('//'))
      .slice(0, 3);
    expect(lines[0]).toMatch(/^const \{ t = '', v1 = '' \}/);
    const docs = readFileSync(fileURLToPath(new URL('../docs/mock.md', import.meta.url)), 'utf8');
    expect(docs).toContain(`\`\`\`js\n${lines.join('\n')}\n\`\`\``);
    // The README's receiver runs the same three lines, indented in its request handler.
    const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
    for (const line of lines) expect(readme).toContain(`    ${line}\n`);
  });

  test('a URL other than http(s) is refused at start, naming it', () => {
    for (const bad of ['ftp://127.0.0.1/x', 'not a url', 'mailto:a@b.example']) {
      expect(() => testMockApp({ listings: 5, frozen: true, webhooks: { urls: [bad] } })).toThrow(MockSetupError);
    }
    expect(() => testMockApp({ listings: 5, frozen: true, webhooks: { urls: ['file:///etc/passwd'] } })).toThrow(
      /'file:\/\/\/etc\/passwd' is not an http or https URL/,
    );
    expect(() => testMockApp({ listings: 5, frozen: true, webhooks: { urls: ['http://127.0.0.1:1/'], secret: ' ' } })).toThrow(
      /webhook secret must not be empty/,
    );
  });

  test('without a secret one is made; it signs, and neither the journal nor the deliveries show it (nor a password in the URL)', async () => {
    const r = await receiver();
    const url = r.url.replace('http://', 'http://hook:p%40ss@');
    const app = testMockApp({ seed: 7, listings: 300, start: START, frozen: true, webhooks: { urls: [`${url}?token=abc&x=1`] } });
    open.push({ close: async () => app.close?.() });
    const secret = app.webhooks!.secret;
    expect(app.webhooks!.secretGenerated).toBe(true);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    await refusedOrder(app);
    const [g] = await r.waitFor(1);
    expect(verify(String(g!.headers['mkt-signature']), g!.body, secret)).toBe(true);
    // Credentials in the URL are sent as Basic authorization, and shown as ***.
    expect(g!.headers.authorization).toBe(`Basic ${Buffer.from('hook:p@ss').toString('base64')}`);
    await call(app, 'POST', '/v1/orders', { token: tokenFor(app, 'bob-1'), body: { note: secret } });
    const seen = JSON.stringify((await call(app, 'GET', '/__mock/requests')).body) + JSON.stringify(await deliveries(app));
    expect(seen).not.toContain(secret);
    expect((await deliveries(app))[0]!.url).toBe(`${r.url.replace('http://', 'http://hook:***@')}?token=***&x=1`);
    expect(seen).not.toContain('p%40ss');
  });

  test('GET /__mock/webhooks keeps the admin rules: bound off loopback, only a caller with the admin token sees it', async () => {
    const app = hookedApp(['http://127.0.0.1:9/hooks']);
    const server = await startHttpServer(app, '0.0.0.0', 0, { adminToken: 'T0ken-for-admin' });
    open.push({ close: () => server.close() });
    expect((await rawRequest(server.port, { target: '/__mock/webhooks' })).status).toBe(404);
    const seen = await rawRequest(server.port, { target: '/__mock/webhooks', headers: { 'x-mock-admin-token': 'T0ken-for-admin' } });
    expect(seen.status).toBe(200);
    expect(JSON.parse(seen.text)).toEqual({
      result: [],
      result_count: 0,
      total_count: 0,
      counts: { pending: 0, delivered: 0, failed: 0, dropped: 0 },
    });
  });

  test('without --webhook the list is empty and nothing is kept', async () => {
    const app = testMockApp({ seed: 7, listings: 300, start: START, frozen: true });
    await refusedOrder(app);
    expect(app.webhooks).toBeNull();
    expect(await deliveries(app)).toEqual([]);
    await app.close?.();
  });
});
