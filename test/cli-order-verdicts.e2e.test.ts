/**
 * `order submit` tells the truth about what happened to the money: a token refused is exit 3 with
 * nothing placed, a connection refused is exit 5 with nothing sent, a --wait that times out says the
 * bids are placed and pending, and Ctrl-C during --wait names the orders and how to resume (exit 130).
 */
import { createServer, request, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';
import { bidsFile, ordersIn } from './helpers/one-bid.js';

let mock: TestMock;
beforeEach(async () => {
  mock = await startMock({ listings: 120 });
});
afterEach(async () => {
  await mock.close();
});

/**
 * A forwarding proxy on 127.0.0.1 in front of the mock that runs `after` before the answer to the
 * desk's last read before the POST (the listings it checks for money already in them) goes back; every
 * answer closes its connection, so that the next request needs a new one. `after` runs before the
 * answer is written, not once it has gone: a client quick enough to connect again between the answer
 * and a later close would sit in the listen backlog and be reset (ECONNRESET after connecting, which
 * is rightly "in doubt"), not refused.
 */
async function gate(target: string, after: (server: Server) => void): Promise<{ origin: string; close(): Promise<void> }> {
  let first = true;
  const server = createServer((req, res) => {
    const up = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      if (first && req.url?.startsWith('/listingsvc/')) {
        first = false;
        after(server);
      }
      res.writeHead(answer.statusCode ?? 502, { ...answer.headers, connection: 'close' });
      answer.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}

describe('mkt order submit says what happened to the money', () => {
  it('a token refused while submitting is exit 3: nothing was placed, and the next run does not reconcile', async () => {
    const home = tempHome();
    const file = bidsFile(mock, home);
    const proxy = await gate(mock.origin, () => mock.app.ctx.world.tokens.delete(mock.env.MKT_ACCESS_TOKEN!));
    try {
      const r = await runMkt(['order', 'submit', file, '--yes'], { env: { ...mock.env, MKT_ROOT_URL: proxy.origin }, home });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/order 1\/1 not placed: the marketplace refused MKT_ACCESS_TOKEN; nothing was placed\./);
      expect(r.stderr).not.toMatch(/may or may not/);
      expect(ordersIn(mock)).toHaveLength(0);
    } finally {
      await proxy.close();
    }
    const journal = await runMkt(['order', 'journal', '-o', 'json'], { env: mock.env, home });
    expect(JSON.parse(journal.stdout).map((e: { event: string }) => e.event)).toEqual(['intent', 'unsent']);
  });

  it('a connection refused before the order went out is exit 5: nothing was sent', async () => {
    const home = tempHome();
    const file = bidsFile(mock, home);
    const proxy = await gate(mock.origin, (server) => server.close());
    try {
      const r = await runMkt(['order', 'submit', file, '--yes'], { env: { ...mock.env, MKT_ROOT_URL: proxy.origin }, home });
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(/order 1\/1 not placed: cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused.*; nothing was sent\./);
      expect(r.stderr).not.toMatch(/may or may not/);
      expect(ordersIn(mock)).toHaveLength(0);
    } finally {
      await proxy.close();
    }
    const again = await runMkt(['order', 'submit', file, '--yes'], { env: mock.env, home });
    expect(again.stderr).not.toMatch(/reconciling/);
    expect(again.code).toBe(0);
    expect(ordersIn(mock)).toHaveLength(1);
  });

  it('a --wait that times out with the bids placed and pending says so (exit 6)', async () => {
    const home = tempHome();
    const r = await runMkt(['order', 'submit', bidsFile(mock, home), '--yes', '--wait', '--timeout', '1', '-o', 'json'], {
      env: mock.env,
      home,
    });
    expect(r.code).toBe(6);
    const id = ordersIn(mock)[0]!.order_id;
    expect(r.stderr).toContain(`order ${id}: gave up after 1 s with 1 bid placed and still pending (not yet processed)`);
    expect(r.stderr).toContain(`follow with \`mkt order get ${id} --wait --timeout 1\``);
    expect(r.stderr).not.toMatch(/not placed or not invested/);
  });

  it('Ctrl-C during --wait names the placed order and how to resume, then exits 130', async () => {
    const home = tempHome();
    const r = await runMkt(['order', 'submit', bidsFile(mock, home), '--yes', '--wait', '--progress', '-o', 'json'], {
      // The progress line (--progress: off a terminal it is quiet) comes once following has begun (and listens for Ctrl-C).
      env: mock.env,
      home,
      interrupt: { when: /IN_PROGRESS: 1 NONE; 1 PENDING/, signal: 'SIGINT' },
    });
    const id = ordersIn(mock)[0]!.order_id;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain(`mkt: interrupted (SIGINT) while waiting: order ${id} is placed and goes on at the marketplace`);
    expect(r.stderr).toContain(`hint: resume following with \`mkt order get ${id} --wait\``);
  });
});
