/**
 * `mkt demo`: the whole investing story against an in-process mock, with a throw-away config, state
 * and credential store. Each step runs the real `mkt` command in-process (the same `main` the binary
 * runs), so what the demo shows is what a user gets.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import { CliError, EXIT } from '../errors.js';
import type { RunMkt } from '../context.js';
import type { Io } from '../io.js';

/** What the demo prints to, how it runs each step, and the size of its world. */
export interface DemoOptions {
  io: Io;
  /** Runs one mkt command in-process: main, passed down so that this module does not import it back. */
  runMkt: RunMkt;
  seed: number;
  listings: number;
  bids: number;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Runs the demo; returns the exit code. */
export async function runDemo(o: DemoOptions): Promise<number> {
  const say = (line: string) => o.io.stderr.write(`\n${line}\n`);
  const home = mkdtempSync(join(tmpdir(), 'mkt-demo-'));
  const [{ createMockApp }, { startHttpServer }] = await Promise.all([
    import('../../mock-server/app.js'), import('../../mock-server/http-adapter.js'),
  ]);
  const port = await freePort();
  const redirect = `http://127.0.0.1:${port}/callback`;
  const clientId = 'mkt-demo-cli';
  const secret = `demo-${Math.random().toString(36).slice(2)}`;
  say(`▶ Starting the mock marketplace (seed ${o.seed}, ${o.listings} active listings) with alice's grant approved at once…`);
  const app = createMockApp({ seed: o.seed, listings: o.listings, autoApprove: ['alice'], clients: [`${clientId}:${secret}:${redirect}`] });
  const server = await startHttpServer(app, '127.0.0.1', 0);
  const env: Record<string, string | undefined> = {
    PATH: o.io.env.PATH, HOME: home, MKT_CONFIG_DIR: join(home, 'config'), MKT_STATE_DIR: join(home, 'state'),
    MKT_CREDENTIAL_STORE: 'file', MKT_ROOT_URL: server.origin, MKT_CLIENT_ID: clientId, MKT_CLIENT_SECRET: secret,
    MKT_REDIRECT_URI: redirect, NO_COLOR: o.io.env.NO_COLOR,
  };
  const run = async (args: string[], capture = false, watch?: (errText: string) => void): Promise<{ code: number; out: string; err: string }> => {
    const out = collector();
    const err = collector();
    if (watch) err.stream.on('data', () => watch(err.text()));
    // Forward by hand: pipe() would add listeners to the real stdout for every step.
    if (!capture) out.stream.on('data', (c: Buffer) => o.io.stdout.write(c));
    err.stream.on('data', (c: Buffer) => o.io.stderr.write(c));
    o.io.stderr.write(`$ mkt ${args.map((a) => (/[\s'"]/.test(a) ? `'${a}'` : a)).join(' ')}\n`);
    const code = await o.runMkt(args, { ...o.io, env, stdout: out.stream, stderr: err.stream, stdinIsTTY: false });
    return { code, out: out.text(), err: err.text() };
  };
  const must = (step: string, r: { code: number }, ok: number[] = [0]) => {
    if (!ok.includes(r.code)) throw new CliError(`demo step "${step}" failed with exit ${r.code}`, EXIT.BUG);
  };
  try {
    say('▶ 1. Log in: the authorization-key flow with a loopback redirect catcher (the demo plays the browser).');
    let opened = false;
    const login = run(['login', '--no-browser', '--timeout', '30'], false, (text) => {
      const url = /(https?:\/\/\S+\/oauth\?\S+)/.exec(text)?.[1];
      if (url && !opened) {
        opened = true;
        void openLikeABrowser(url);
      }
    });
    must('login', await login);
    must('auth status', await run(['auth', 'status', '-o', 'table']));

    say('▶ 2. The account before investing.');
    must('account', await run(['account', '-o', 'table']));

    say('▶ 3. Search: A and AA listings over a day old with room left, best rate first.');
    const yesterday = new Date(app.ctx.clock.now() - 86_400_000).toISOString().slice(0, 10);
    const filters = ['--platform_rating', 'AA,A', '--amount_remaining_min', '500', '--listing_creation_date_max', yesterday, '--sort-by', 'borrower_rate desc', '--limit', String(o.bids)];
    must('search', await run(['listings', 'search', ...filters, '-o', 'table']));
    const found = await run(['listings', 'search', ...filters, '-o', 'csv', '--columns', 'listing_number'], true);
    must('search', found);

    say(`▶ 4. Bid 25.00 on each of them and wait until every bid has a result.`);
    const bidsFile = join(home, 'bids.csv');
    writeFileSync(bidsFile, found.out);
    o.io.stderr.write(`(bids.csv: ${found.out.trim().split('\n').length - 1} listings, bid_amount filled by --amount)\n`);
    must('order submit', await run(['order', 'submit', bidsFile, '--amount', '25', '--yes', '--wait', '-o', 'table']), [0, 6]);
    say('▶ 5. Submitting the same file again is refused: money is never bid twice.');
    must('duplicate submit', await run(['order', 'submit', bidsFile, '--amount', '25', '--yes']), [2]);

    say('▶ 6. Move the mock clock 15 days: other investors fund, listings originate (or expire), loans appear.');
    must('clock', await run(['mock', 'clock', 'advance', '15d', '-o', 'table']));
    const orders = JSON.parse((await run(['order', 'list', '-o', 'json'], true)).out) as { result: Array<{ order_id: string }> };
    const orderId = orders.result[0]?.order_id;
    if (orderId) must('order get', await run(['order', 'get', orderId, '-o', 'table']));

    say('▶ 7. Loans, and the account after origination.');
    must('clock', await run(['mock', 'clock', 'advance', '35d', '-o', 'table']));
    must('loans', await run(['loans', 'list', '-o', 'table', '--limit', '10']));
    must('account', await run(['account', '-o', 'table']));
    say('✔ Demo finished. Try it yourself: `npx mkt mock serve` in one terminal, `npx mkt login` in another.');
    return EXIT.OK;
  } finally {
    await server.close();
    await app.close?.();
    rmSync(home, { recursive: true, force: true });
  }
}

/** Opens the consent URL as a browser would: the mock approves at once and redirects to the catcher. */
async function openLikeABrowser(url: string): Promise<void> {
  try {
    const res = await fetch(url, { redirect: 'follow' });
    await res.arrayBuffer();
  } catch {
    // the login command reports what went wrong (it times out or refuses the callback)
  }
}
