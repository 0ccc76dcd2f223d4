/**
 * A lost answer and a rerun, the two faults together: an order whose POST the server read but has not
 * acted on yet is in doubt, and a rerun started at once must not place it a second time. Against the
 * mock: its handler_delay_ms fault (a slow server that places the order after the client gave up), and
 * a forwarder that holds the POST while the first run is killed (kill -9 mid-submit).
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockAdminUrl } from '../src/contract/mock-admin.js';
import { runMkt, tempHome, type RunResult } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';
import { bidsFile, ordersIn } from './helpers/one-bid.js';

let mock: TestMock;
beforeEach(async () => {
  mock = await startMock({ listings: 120 });
});
afterEach(async () => {
  await mock.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How many bids the mock holds on each listing: never more than one is the point. */
const bidsPerListing = (): number[] => {
  const count = new Map<number, number>();
  for (const o of ordersIn(mock)) for (const b of o.bids) count.set(b.listing_id, (count.get(b.listing_id) ?? 0) + 1);
  return [...count.values()];
};

/** The order journal's events, as `mkt order journal` shows them. */
async function journalEvents(env: Record<string, string>, home: string): Promise<string[]> {
  const r = await runMkt(['order', 'journal', '-o', 'json'], { env, home });
  return (JSON.parse(r.stdout) as { event: string }[]).map((e) => e.event);
}

/**
 * A forwarder on 127.0.0.1 in front of the mock. Every request passes, except the first POST of an
 * order: read whole (`posted` resolves), then held until `release()` forwards it, its answer going to
 * no one. `onRequest` sees every other request before it is forwarded.
 */
async function holdFirstOrder(target: string, onRequest: (method: string, path: string, release: () => void) => void = () => undefined) {
  let held: (() => void) | undefined;
  let heldOnce = false;
  let posted!: () => void;
  const postedP = new Promise<void>((r) => (posted = r));
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    res.on('error', () => undefined);
    const up = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      if (res.destroyed) return void answer.resume();
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    up.end(body);
  };
  const release = () => {
    const go = held;
    held = undefined;
    go?.();
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? '').split('?')[0]!;
      if (req.method === 'POST' && /^\/v1\/orders\/?$/.test(path) && !heldOnce) {
        heldOnce = true;
        held = () => forward(req, res, body);
        posted();
        return;
      }
      onRequest(req.method ?? '', path, release);
      forward(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    posted: postedP,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs a submit through `env` and kills it (SIGKILL) once the forwarder has read its POST whole. */
async function killedMidSubmit(args: string[], env: Record<string, string>, home: string, posted: Promise<void>): Promise<RunResult> {
  let child: ChildProcess | undefined;
  const run = runMkt(args, { env, home, started: (c) => (child = c) });
  await posted;
  child!.kill('SIGKILL');
  return run;
}

describe('an order sent without an answer is in doubt until the marketplace says', () => {
  it('a slow server: the client gives up, a rerun at once waits for the order instead of placing it again, and records it', async () => {
    const home = tempHome();
    const file = bidsFile(mock, home);
    // The mock reads the POST, then acts on it 8 s later; the client waits 2 s for an answer.
    const started = Date.now();
    await fetch(mockAdminUrl(mock.origin, 'faults'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ handler_delay_ms: 8000, path: '/v1/orders', method: 'POST', count: 1 }),
    });
    const env = { ...mock.env, MKT_HTTP_TIMEOUT: '2' };
    const first = await runMkt(['order', 'submit', file, '--yes'], { env, home });
    expect(first.code, first.stderr).toBe(5);
    expect(first.stderr).toMatch(
      /order 1\/1: no answer from the marketplace \(.*\); it may or may not have been placed: batch \S+ is in doubt until \S+Z\./,
    );
    const hint =
      /hint: run the same command again: it first looks for this order at the marketplace\. If the order shows, it is recorded as placed and these bids are not sent again; while it does not, the run waits for it to show until \S+Z \((\d+) s after it was sent\)/.exec(
        first.stderr,
      );
    expect(hint, first.stderr).not.toBeNull();
    // The 90 s settle window from the intent, or 88 s (its margin past the 2 s timeout) from when the client gave up:
    // 92 s when it gave up on time, a second or two more on a loaded machine where giving up came late.
    expect(Number(hint![1])).toBeGreaterThanOrEqual(92);
    expect(Number(hint![1])).toBeLessThanOrEqual(100);
    expect(ordersIn(mock)).toHaveLength(0);

    const rerun = await runMkt(['order', 'submit', file, '--yes'], { env, home, timeoutMs: 60_000 });
    expect(rerun.stderr).toMatch(
      /batch \S+ \(1 bid, sent \S+Z without an answer\) is not shown by the marketplace yet: it may still arrive, so it is not sent again before \S+Z/,
    );
    expect(rerun.stderr).toMatch(/waiting up to \d+ s for the marketplace to show it/);
    const [order] = ordersIn(mock);
    expect(rerun.stderr).toContain(`order ${order!.order_id} was placed (the answer had been lost); it will not be sent again`);
    expect(rerun.stderr).toMatch(new RegExp(`listing \\d+: already PENDING in order ${order!.order_id}`));
    expect(rerun.code).toBe(2);
    // Past the moment the first POST was acted on: whatever was going to land has landed.
    await sleep(Math.max(0, started + 9000 - Date.now()));
    expect(ordersIn(mock)).toHaveLength(1);
    expect(bidsPerListing()).toEqual([1]);
    expect(await journalEvents(env, home)).toEqual(['intent', 'lost', 'reconciled', 'outcome']);
  }, 90_000);

  it('kill -9 mid-submit, then a rerun at once: the POST the server read lands while the rerun looks, and is placed once', async () => {
    const home = tempHome();
    const file = bidsFile(mock, home);
    let looks = 0;
    let killed = false;
    const proxy = await holdFirstOrder(mock.origin, (method, path, release) => {
      if (!killed) return;
      // The rerun's second look at the orders, or an order of its own: the first POST lands now.
      if (method === 'GET' && /^\/v1\/orders\/?$/.test(path) && ++looks >= 2) release();
      if (method === 'POST') release();
    });
    try {
      const env = { ...mock.env, MKT_ROOT_URL: proxy.origin };
      const first = await killedMidSubmit(['order', 'submit', file, '--yes'], env, home, proxy.posted);
      killed = true;
      expect(first.code).toBeNull();
      const rerun = await runMkt(['order', 'submit', file, '--yes'], { env, home, timeoutMs: 60_000 });
      expect(rerun.stderr).toMatch(/batch \S+ \(1 bid, sent \S+Z without an answer\) is not shown by the marketplace yet/);
      expect(ordersIn(mock)).toHaveLength(1);
      expect(rerun.stderr).toContain(`order ${ordersIn(mock)[0]!.order_id} was placed (the answer had been lost)`);
      expect(rerun.code).toBe(2);
      expect(bidsPerListing()).toEqual([1]);
    } finally {
      await proxy.close();
    }
  }, 90_000);

  it('kill -9 before the marketplace acted: once the settle window (MKT_SETTLE_WINDOW) has passed unseen, the rerun sends it', async () => {
    const home = tempHome();
    const file = bidsFile(mock, home);
    // The first POST is read and never forwarded: it never reaches the marketplace.
    const proxy = await holdFirstOrder(mock.origin);
    try {
      const env = { ...mock.env, MKT_ROOT_URL: proxy.origin, MKT_SETTLE_WINDOW: '3', MKT_HTTP_TIMEOUT: '3' };
      await killedMidSubmit(['order', 'submit', file, '--yes'], env, home, proxy.posted);
      const rerun = await runMkt(['order', 'submit', file, '--yes'], { env, home, timeoutMs: 60_000 });
      expect(rerun.stderr).toMatch(/is not shown by the marketplace yet: it may still arrive, so it is not sent again before/);
      expect(rerun.stderr).toMatch(
        /batch \S+ never reached the marketplace: no order for it 3 s after it was sent \(the settle window\); its bids are free to send/,
      );
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(ordersIn(mock)).toHaveLength(1);
      expect(await journalEvents(env, home)).toEqual(['intent', 'reconciled', 'intent', 'accepted', 'outcome']);
    } finally {
      await proxy.close();
    }
  }, 90_000);

  it('kill -9 under a 60 s window, a rerun under a 3 s window 4 s later: held for the 60 s it was sent under, the POST lands while it looks', async () => {
    const home = tempHome();
    const file = bidsFile(mock, home);
    let looks = 0;
    let killed = false;
    const proxy = await holdFirstOrder(mock.origin, (method, path, release) => {
      if (!killed) return;
      // The rerun's second look at the orders, or an order of its own: the first POST lands now.
      if (method === 'GET' && /^\/v1\/orders\/?$/.test(path) && ++looks >= 2) release();
      if (method === 'POST') release();
    });
    try {
      const env = { ...mock.env, MKT_ROOT_URL: proxy.origin };
      await killedMidSubmit(['order', 'submit', file, '--yes'], { ...env, MKT_SETTLE_WINDOW: '60' }, home, proxy.posted);
      killed = true;
      // Past the rerun's own window (3 s) since the first run's intent.
      await sleep(4000);
      const rerun = await runMkt(['order', 'submit', file, '--yes'], {
        env: { ...env, MKT_SETTLE_WINDOW: '3', MKT_HTTP_TIMEOUT: '3' },
        home,
        timeoutMs: 60_000,
      });
      expect(rerun.stderr).toMatch(/is not shown by the marketplace yet: it may still arrive, so it is not sent again before/);
      expect(rerun.stderr).toMatch(/order \S+ was placed \(the answer had been lost\)/);
      expect(rerun.code, rerun.stderr).toBe(2);
      expect(ordersIn(mock)).toHaveLength(1);
      expect(bidsPerListing()).toEqual([1]);
    } finally {
      await proxy.close();
    }
  }, 90_000);

  it('kill -9 through a forwarder (:PORT), a rerun straight to the mock at once: refused as in doubt under the other address; the POST lands: one order', async () => {
    const home = tempHome();
    const file = bidsFile(mock, home);
    const proxy = await holdFirstOrder(mock.origin);
    try {
      await killedMidSubmit(['order', 'submit', file, '--yes'], { ...mock.env, MKT_ROOT_URL: proxy.origin }, home, proxy.posted);
      const rerun = await runMkt(['order', 'submit', file, '--yes'], { env: mock.env, home, timeoutMs: 60_000 });
      expect(rerun.stderr).toMatch(
        new RegExp(
          `listing \\d+: in doubt under another address: sent in batch \\S+ through ${proxy.origin}/v1 at \\S+Z without an answer, and the marketplace does not show that order yet; not sent again before \\S+Z`,
        ),
      );
      expect(rerun.code, rerun.stderr).toBe(2);
      proxy.release();
      for (let i = 0; i < 50 && ordersIn(mock).length === 0; i++) await sleep(100);
      await sleep(500);
      expect(ordersIn(mock)).toHaveLength(1);
      expect(bidsPerListing()).toEqual([1]);
    } finally {
      await proxy.close();
    }
  }, 90_000);

  it('a bad MKT_SETTLE_WINDOW or MKT_HTTP_TIMEOUT is exit 2 naming it, and nothing is sent', async () => {
    const home = tempHome();
    const file = bidsFile(mock, home);
    for (const [name, value] of [
      ['MKT_SETTLE_WINDOW', 'soon'],
      ['MKT_SETTLE_WINDOW', '0'],
      ['MKT_HTTP_TIMEOUT', '-1'],
    ] as const) {
      const r = await runMkt(['order', 'submit', file, '--yes'], { env: { ...mock.env, [name]: value }, home });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${name} must be a number of seconds from`);
      expect(r.stderr).toContain(`got '${value}'`);
    }
    // A window shorter than the answer timeout would free an order whose answer is still awaited.
    const short = await runMkt(['order', 'submit', file, '--yes'], {
      env: { ...mock.env, MKT_SETTLE_WINDOW: '20', MKT_HTTP_TIMEOUT: '40' },
      home,
    });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('MKT_SETTLE_WINDOW (20 s) is shorter than the answer timeout MKT_HTTP_TIMEOUT (40 s)');
    expect(ordersIn(mock)).toHaveLength(0);
  });
});

describe('--dry-run reports held listings as the run refuses them', () => {
  it('a listing already bid on: the dry run says refused (exit 2) with the reason the run gives, and writes nothing', async () => {
    const home = tempHome();
    const file = bidsFile(mock, home);
    expect((await runMkt(['order', 'submit', file, '--yes'], { env: mock.env, home })).code).toBe(0);
    const before = await journalEvents(mock.env, home);

    const dry = await runMkt(['order', 'submit', file, '--dry-run', '-o', 'json'], { env: mock.env, home });
    expect(dry.code).toBe(2);
    const [row] = JSON.parse(dry.stdout) as { listing_id: number; verdict: string }[];
    const id = ordersIn(mock)[0]!.order_id;
    expect(row!.verdict).toBe(`refused as held: already PENDING in order ${id}`);
    expect(dry.stderr).toContain('1 bid on listings already held: the run would refuse the file and send nothing (exit 2)');
    expect(await journalEvents(mock.env, home)).toEqual(before);

    const real = await runMkt(['order', 'submit', file, '--yes'], { env: mock.env, home });
    expect(real.code).toBe(2);
    expect(real.stderr).toContain(`line 2: listing ${row!.listing_id}: ${row!.verdict.replace('refused as held: ', '')}`);
    // The run records what it re-checked of the PENDING bid; a dry run records nothing.
    const afterRun = await journalEvents(mock.env, home);

    const skip = await runMkt(['order', 'submit', file, '--dry-run', '--skip-held', '-o', 'json'], { env: mock.env, home });
    expect(skip.code).toBe(0);
    expect((JSON.parse(skip.stdout) as { verdict: string }[])[0]!.verdict).toBe(`left out (--skip-held): already PENDING in order ${id}`);
    expect(skip.stderr).toMatch(/^0 bids, total 0\.00;/m);
    expect(await journalEvents(mock.env, home)).toEqual(afterRun);
    expect(ordersIn(mock)).toHaveLength(1);
  });
});
