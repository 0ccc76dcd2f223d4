/**
 * A clock move a virtual day at a time (POST /__mock/clock, Engine.moveClock): it ends in the world a
 * move in one go makes, its progress is readable meanwhile (GET /__mock/clock), other requests see the
 * world at a day boundary, a second move waits for the first; `mkt mock clock advance` follows it.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import type { ClockMoveProgress } from '../mock-server/engine/engine.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { serializeState } from '../mock-server/world/persistence.js';
import type { HttpClient, HttpRequest } from '../src/api/http.js';
import { advanceMockClock } from '../src/commands/mock-clock.js';
import { main } from '../src/main.js';
import { mockAdminUrl } from '../src/contract/mock-admin.js';
import { call, DAY, HOUR, makeApp, order, plainListings, START, tokenFor } from './engine-fixture.js';

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** The same orders on two worlds of the same seed, so that the moves below process orders as well as ticks. */
async function withOrders(app: MockApp): Promise<MockApp> {
  const token = tokenFor(app, 'alice-1');
  const [a, b] = plainListings(app);
  expect(
    (
      await order(app, token, [
        { listing_id: a!.listing_number, bid_amount: 25 },
        { listing_id: b!.listing_number, bid_amount: 50 },
      ])
    ).status,
  ).toBe(200);
  return app;
}

describe('a stepped move', () => {
  test.each([
    ['advance 9d', { advance: '9d' }, START + 9 * DAY],
    [
      'to a time that is not a whole number of days on',
      { to: new Date(START + 6 * DAY + 5 * HOUR + 17 * 60_000).toISOString() },
      START + 6 * DAY + 5 * HOUR + 17 * 60_000,
    ],
  ])('%s ends in the state file text a move in one go gives the same seed', async (_name, body, to) => {
    const stepped = await withOrders(makeApp({ listings: 250 }));
    const oneGo = await withOrders(makeApp({ listings: 250 }));
    const res = await call(stepped, 'POST', '/__mock/clock', { body });
    expect(res.status).toBe(200);
    expect(res.body.moved_ms).toBe(to - START);
    oneGo.ctx.clock.set(to); // the engine follows in one synchronous catch-up
    expect(stepped.ctx.clock.now()).toBe(to);
    stepped.ctx.engine.settle(); // as a reader of the moved world does first
    const text = serializeState(stepped.ctx.world, to);
    expect(text).toBe(serializeState(oneGo.ctx.world, to));
    // Not the same by accident: the move changed the world.
    expect(text).not.toBe(serializeState((await withOrders(makeApp({ listings: 250 }))).ctx.world, to));
  });

  test('with --state, the log holds the end of the move when the move is answered', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'mkt-clock-move-')), 'world');
    const app = makeApp({ listings: 120, stateFile: dir });
    expect((await call(app, 'POST', '/__mock/clock', { body: { advance: '5d' } })).status).toBe(200);
    app.ctx.engine.settle();
    const live = serializeState(app.ctx.world, START + 5 * DAY);
    app.ctx.engine.abandon(); // as a kill -9 right after the answer: nothing more is written
    const again = makeApp({ listings: 120, stateFile: dir });
    expect(again.ctx.clock.now()).toBe(START + 5 * DAY);
    expect(serializeState(again.ctx.world, START + 5 * DAY)).toBe(live);
    await again.close?.();
  });

  test('moves asked at once are made one after the other, each from where the one before ended', async () => {
    const app = makeApp({ listings: 80 });
    const answers = await Promise.all(['3d', '2d', '5h'].map((advance) => call(app, 'POST', '/__mock/clock', { body: { advance } })));
    expect(answers.map((a) => a.body)).toEqual([
      { now: '2026-03-05 12:00:00 +0000', moved_ms: 3 * DAY },
      { now: '2026-03-07 12:00:00 +0000', moved_ms: 2 * DAY },
      { now: '2026-03-07 17:00:00 +0000', moved_ms: 5 * HOUR },
    ]);
    expect(app.ctx.clock.now()).toBe(START + 5 * DAY + 5 * HOUR);
  });

  test('goes a day at a time, in order, the world brought up to each day before the next', async () => {
    const app = makeApp({ listings: 120 });
    const seen: Array<{ at: number; now: number; lastTick: number }> = [];
    const moved = await app.ctx.engine.moveClock(
      (now) => now + 3 * DAY + 7 * HOUR,
      (p: ClockMoveProgress) => {
        seen.push({ at: p.at, now: app.ctx.clock.now(), lastTick: app.ctx.world.engine.lastTick });
      },
    );
    expect(moved).toEqual({ from: START, to: START + 3 * DAY + 7 * HOUR });
    expect(seen.map((s) => s.at)).toEqual([START + DAY, START + 2 * DAY, START + 3 * DAY, START + 3 * DAY + 7 * HOUR]);
    for (const s of seen) {
      expect(s.now).toBe(s.at);
      expect(s.lastTick).toBe(Math.floor(s.at / HOUR) * HOUR);
    }
    expect(app.ctx.engine.moving).toBeNull();
  });

  test('between two days, what a request syncs to is every listing as a move in one go leaves it there', async () => {
    // Inside a move the timeline leaves the listings' own funding and verification steps for later
    // (engine/timeline.ts); the sync every request begins with must write them before anything is read.
    const stepped = await withOrders(makeApp({ listings: 250 }));
    const oneGo = await withOrders(makeApp({ listings: 250 }));
    const texts: string[] = [];
    await stepped.ctx.engine.moveClock(
      (now) => now + 4 * DAY,
      (p: ClockMoveProgress) => {
        if (p.at !== START + 2 * DAY) return;
        stepped.ctx.engine.sync();
        texts.push(serializeState(stepped.ctx.world, p.at));
      },
    );
    oneGo.ctx.clock.set(START + 2 * DAY);
    expect(texts).toEqual([serializeState(oneGo.ctx.world, START + 2 * DAY)]);
    // Not the same by accident: the two days funded listings.
    expect(texts[0]).not.toBe(serializeState((await withOrders(makeApp({ listings: 250 }))).ctx.world, START + 2 * DAY));
  });
});

test("the running server's timer leaves a move to step the world: it does not bring every listing up between its days", async () => {
  // Bringing every live listing's columns up (settleWorld) is for readers; a timer firing between two days of a move
  // had done it each time (a tenth of a 15-day move at 100,000 listings, for nothing: the next day moves them on).
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const app = makeApp({ listings: 200 });
  try {
    app.ctx.engine.start();
    const lagging: boolean[] = [];
    await app.ctx.engine.moveClock(
      (now) => now + 4 * DAY,
      (p) => {
        if (p.at >= p.to) return;
        vi.advanceTimersByTime(1000); // the timer fires meanwhile, as it does while the event loop turns between days
        const tl = app.ctx.world.index.timeline!;
        lagging.push(tl.settled < tl.hour);
      },
    );
    expect(lagging).toEqual([true, true, true]);
    // Its readers bring it up (a route settles the world before it reads), or the idle work a slice at a time; not the
    // timer in one go (the loop held for the whole world's settling).
    vi.advanceTimersByTime(1000);
    const tl = app.ctx.world.index.timeline!;
    expect(tl.settled).toBeLessThan(tl.hour);
    expect((await call(app, 'GET', '/__mock/clock')).status).toBe(200);
    expect(tl.settled).toBe(tl.hour);
  } finally {
    await app.close?.();
    vi.useRealTimers();
  }
});

test('after a move, a listening mock brings every listing up between requests, to the world a move in one go leaves', async () => {
  const stepped = await withOrders(makeApp({ listings: 800 }));
  const oneGo = await withOrders(makeApp({ listings: 800 }));
  const server = await startHttpServer(stepped, '127.0.0.1', 0);
  servers.push(server);
  const moved = await fetch(`${server.origin}/__mock/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"advance":"6d"}',
  });
  expect(moved.status).toBe(200);
  const tl = stepped.ctx.world.index.timeline!;
  // The answer did not wait for it; the idle work does it without a request.
  expect(tl.settled).toBeLessThan(tl.hour);
  for (let turns = 0; tl.settled < tl.hour && turns < 10_000; turns++) await new Promise((resolve) => setImmediate(resolve));
  expect(tl.settled).toBe(tl.hour);
  oneGo.ctx.clock.set(START + 6 * DAY);
  expect(serializeState(stepped.ctx.world, START + 6 * DAY)).toBe(serializeState(oneGo.ctx.world, START + 6 * DAY));
});

test('a snapshot saved while a move runs holds the moved world as a reader sees it, settled', async () => {
  const app = makeApp({ listings: 600 });
  const ref = makeApp({ listings: 600 });
  const move = app.ctx.engine.moveClock((now) => now + 4 * DAY);
  const saving = call(app, 'POST', '/__mock/snapshots', { body: { name: 'during' } });
  await move;
  expect((await saving).status).toBe(200);
  const saved = (await app.ctx.snapshots.read('during'))!;
  await ref.ctx.engine.moveClock((now) => now + 4 * DAY);
  ref.ctx.engine.settle();
  expect(saved.now).toBe(ref.ctx.clock.now());
  expect(serializeState(saved.world, saved.now)).toBe(serializeState(ref.ctx.world, ref.ctx.clock.now()));
});

describe('over HTTP, while a move runs', () => {
  test('GET /__mock/clock shows the days done, other requests see a day boundary, a second move waits for the first', async () => {
    const app = makeApp({ listings: 150 });
    const server = await startHttpServer(app, '127.0.0.1', 0);
    servers.push(server);
    const url = mockAdminUrl(server.origin, 'clock');
    const post = (body: unknown) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));
    expect(await (await fetch(url)).json()).toEqual({ now: '2026-03-02 12:00:00 +0000', frozen: true, move: null });
    let during: Promise<[unknown, unknown]> | null = null;
    let second: ReturnType<typeof post> | null = null;
    // Asked once the move has done its second day: answered between two of its later days.
    app.ctx.clock.onMove((_from, to) => {
      if (to !== START + 2 * DAY || during) return;
      during = Promise.all([fetch(url).then((r) => r.json()), fetch(mockAdminUrl(server.origin, 'state')).then((r) => r.json())]);
      second = post({ advance: '1d' });
    });
    const first = await post({ advance: '60d' });
    expect(first).toEqual({ status: 200, body: { now: '2026-05-01 12:00:00 +0000', moved_ms: 60 * DAY } });
    const [clock, state] = (await during!) as [
      { now: string; move: { days: number; days_done: number; from: string; to: string } },
      { now: string; invariants: { ok: boolean } },
    ];
    expect(clock.move).toMatchObject({ from: '2026-03-02 12:00:00 +0000', to: '2026-05-01 12:00:00 +0000', days: 60 });
    expect(clock.move.days_done).toBeGreaterThanOrEqual(2);
    expect(clock.move.days_done).toBeLessThanOrEqual(60);
    // The clock and the world at the day the move had reached.
    expect(Date.parse(clock.now.replace(' ', 'T').replace(' +0000', 'Z'))).toBe(START + clock.move.days_done * DAY);
    expect(state.invariants.ok).toBe(true);
    expect((Date.parse(state.now.replace(' ', 'T').replace(' +0000', 'Z')) - START) % DAY).toBe(0);
    // The second move began where the first ended.
    expect(await second!).toEqual({ status: 200, body: { now: '2026-05-02 12:00:00 +0000', moved_ms: DAY } });
    expect(await (await fetch(url)).json()).toMatchObject({ now: '2026-05-02 12:00:00 +0000', move: null });
  });
});

describe('mkt mock clock advance follows the move', () => {
  test('sends the move with no answer timeout and hands on each look at its progress, in order, until it is answered', async () => {
    const sent: HttpRequest[] = [];
    let looks = 0;
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const http = {
      async send(req: HttpRequest) {
        sent.push(req);
        if (req.method === 'POST') {
          await answered;
          return { status: 200, headers: {}, data: { now: '2026-03-05 12:00:00 +0000', moved_ms: 3 * DAY } };
        }
        looks++;
        // The third look sees the last day done and lets the move answer; any later look finds no move.
        if (looks === 3) answer();
        const move = looks <= 3 ? { from: 'a', to: 'b', days: 3, days_done: looks } : null;
        return { status: 200, headers: {}, data: { now: 'x', frozen: true, move } };
      },
    } as unknown as HttpClient;
    const shown: number[] = [];
    const moved = await advanceMockClock(http, 'http://127.0.0.1:9', '3d', undefined, {
      sleep: () => Promise.resolve(),
      show: (p) => shown.push(p.days_done),
    });
    expect(moved).toEqual({ now: '2026-03-05 12:00:00 +0000', moved_ms: 3 * DAY });
    expect(shown).toEqual([1, 2, 3]);
    expect(sent[0]).toMatchObject({ method: 'POST', json: { advance: '3d' }, timeoutMs: 0 });
    expect(sent.slice(1).every((r) => r.method === 'GET' && r.url.endsWith('/__mock/clock'))).toBe(true);
  });

  test('a mock without the progress route: the move is still waited for and answered', async () => {
    const http = {
      async send(req: HttpRequest) {
        if (req.method === 'GET') return { status: 405, headers: {}, data: { code: 'METHOD_NOT_ALLOWED', message: 'no' } };
        await new Promise((r) => setImmediate(r));
        return { status: 200, headers: {}, data: { now: 'n', moved_ms: DAY } };
      },
    } as unknown as HttpClient;
    const shown: number[] = [];
    expect(
      await advanceMockClock(http, 'http://127.0.0.1:9', '1d', undefined, {
        sleep: () => Promise.resolve(),
        show: (p) => shown.push(p.days_done),
      }),
    ).toEqual({ now: 'n', moved_ms: DAY });
    expect(shown).toEqual([]);
  });
});

/** `mkt mock clock advance 20d` against the mock at `origin`, with `args` and stderr a terminal or not: its exit code and stderr. */
async function runAdvance(origin: string, args: string[], stderrIsTTY: boolean): Promise<{ code: number; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (d) => (err += String(d)));
  stdout.resume();
  const code = await main(['mock', 'clock', 'advance', '20d', ...args], {
    stdout,
    stderr,
    stdin: new PassThrough(),
    stdoutIsTTY: false,
    stderrIsTTY,
    stdinIsTTY: false,
    env: { MKT_ROOT_URL: origin, MKT_CONFIG_DIR: '/nonexistent-mkt-config' },
    sleep: () => new Promise((r) => setImmediate(r)),
    now: () => 0,
    stopSignal: () => new Promise(() => undefined),
  });
  return { code, err };
}

/** The same against a mock of its own over HTTP. */
async function advanceCli(args: string[], stderrIsTTY: boolean): Promise<{ code: number; err: string; app: MockApp }> {
  const app = makeApp({ listings: 150 });
  const server = await startHttpServer(app, '127.0.0.1', 0);
  servers.push(server);
  return { ...(await runAdvance(server.origin, args, stderrIsTTY)), app };
}

/**
 * A stand-in for a mock whose 20-day move answers only after three looks at its progress (days done 5, 5, 10), or
 * after half a second when nobody looks: how many looks land is then the test's, not the machine's.
 */
async function heldMove(): Promise<{ origin: string; looks: () => number; close: () => Promise<void> }> {
  let looks = 0;
  let answer: (() => void) | null = null;
  const server = createServer((req, res) => {
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'GET') {
      looks++;
      json({ now: '2026-03-02 12:00:00 +0000', frozen: true, move: { from: 'a', to: 'b', days: 20, days_done: looks < 3 ? 5 : 10 } });
      if (looks >= 3) answer?.();
      return;
    }
    req.resume();
    const timer = setTimeout(() => answer?.(), 500);
    answer = () => {
      clearTimeout(timer);
      answer = null;
      json({ now: '2026-03-22 12:00:00 +0000', moved_ms: 20 * DAY });
    };
    if (looks >= 3) answer();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, looks: () => looks, close: () => new Promise((r) => server.close(() => r())) };
}

test('off a terminal, mkt mock clock advance --progress prints a line each time the days done move, then its own line', async () => {
  const mock = await heldMove();
  try {
    const { code, err } = await runAdvance(mock.origin, ['--progress'], false);
    expect(code).toBe(0);
    // Three looks, two counts: a line for each count, none repeated (a cron log gets a line a day at most).
    expect(mock.looks()).toBe(3);
    expect(err).toBe(
      'moving the clock: day 5 of 20\nmoving the clock: day 10 of 20\nmoved the clock 20 days forward, to 2026-03-22 12:00:00 UTC\n',
    );
  } finally {
    await mock.close();
  }
});

test('with --no-progress, even on a terminal, mkt mock clock advance does not look at the move and prints only its own line', async () => {
  const mock = await heldMove();
  try {
    const { code, err } = await runAdvance(mock.origin, ['--no-progress'], true);
    expect(code).toBe(0);
    expect(mock.looks()).toBe(0);
    expect(err).toBe('moved the clock 20 days forward, to 2026-03-22 12:00:00 UTC\n');
  } finally {
    await mock.close();
  }
});

test('on a terminal, mkt mock clock advance draws the days done in place and clears them before its own line', async () => {
  const { code, err, app } = await advanceCli([], true);
  expect(code).toBe(0);
  // How many looks land during the move is the machine's; each shows days done of 20, never fewer than the look before.
  const m =
    /^((?:\r\x1b\[Kmoving the clock: day \d+ of 20)*)(?:\r\x1b\[K)?moved the clock 20 days forward, to 2026-03-22 12:00:00 UTC\n$/.exec(
      err,
    );
  expect(m, JSON.stringify(err)).not.toBeNull();
  const days = [...m![1]!.matchAll(/day (\d+) of/g)].map((d) => Number(d[1]));
  expect(days).toEqual([...days].sort((a, b) => a - b));
  expect(app.ctx.clock.now()).toBe(START + 20 * DAY);
});
