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
  // The mock through its public entry (mkt/mock), as anyone's tests use it, served over HTTP for the real commands.
  const { createMarketplace, serve } = await import('../../mock-server/library/node.js');
  const port = await freePort();
  const redirect = `http://127.0.0.1:${port}/callback`;
  const clientId = 'mkt-demo-cli';
  const secret = `demo-${Math.random().toString(36).slice(2)}`;
  say(
    `▶ Starting the mock marketplace (seed ${o.seed}, ${o.listings} active listings; search shows the fractional ones, whole loans need --whole-loan) with alice's grant approved at once.`,
  );
  o.io.stderr.write(
    `The demo registers its own OAuth client, ${clientId}, with a one-time secret and the redirect ${redirect} on a free port,\n`
      + 'so it never needs the seeded mkt-demo client or its port 8765; config, credentials and journal live in a temporary folder removed at the end.\n',
  );
  const market = createMarketplace({
    seed: o.seed,
    listings: o.listings,
    autoApprove: ['alice'],
    clients: [`${clientId}:${secret}:${redirect}`],
    // Today, running: the demo's steps read real time (a login's expiry, a cron's day).
    start: Date.now(),
    frozen: false,
    ...(o.io.env.MKT_MOCK_CHECK_ANSWERS ? { checkAnswers: o.io.env.MKT_MOCK_CHECK_ANSWERS } : {}),
  });
  const server = await serve(market);
  const env: Record<string, string | undefined> = {
    PATH: o.io.env.PATH,
    HOME: home,
    MKT_CONFIG_DIR: join(home, 'config'),
    MKT_STATE_DIR: join(home, 'state'),
    MKT_CREDENTIAL_STORE: 'file',
    MKT_ROOT_URL: server.url,
    MKT_CLIENT_ID: clientId,
    MKT_CLIENT_SECRET: secret,
    MKT_REDIRECT_URI: redirect,
    NO_COLOR: o.io.env.NO_COLOR,
  };
  // A shown step prints its command and what it printed; a hidden one is the demo's own bookkeeping.
  const run = async (
    args: string[],
    how: { show?: boolean; watch?: (errText: string) => void } = {},
  ): Promise<{ code: number; out: string; err: string }> => {
    const show = how.show ?? true;
    const out = collector();
    const err = collector();
    if (how.watch) err.stream.on('data', () => how.watch!(err.text()));
    // Forward by hand: pipe() would add listeners to the real stdout for every step.
    if (show) {
      out.stream.on('data', (c: Buffer) => o.io.stdout.write(c));
      err.stream.on('data', (c: Buffer) => o.io.stderr.write(c));
      o.io.stderr.write(`$ mkt ${args.map((a) => (/[\s'"]/.test(a) ? `'${a}'` : a)).join(' ')}\n`);
    }
    // Standard input is closed: nothing is pasted into the demo's login, which gets its redirect from the demo.
    const stdin = new PassThrough();
    stdin.end();
    const code = await o.runMkt(args, { ...o.io, env, stdin, stdout: out.stream, stderr: err.stream, stdinIsTTY: false });
    if (!show && code !== 0) o.io.stderr.write(err.text());
    return { code, out: out.text(), err: err.text() };
  };
  const must = (step: string, r: { code: number }, ok: number[] = [0]) => {
    if (!ok.includes(r.code)) throw new CliError(`demo step "${step}" failed with exit ${r.code}`, EXIT.BUG);
  };
  const loanNumbers = async (): Promise<number[]> => {
    const r = await run(['loans', 'list', '--all', '-o', 'json'], { show: false });
    must('loans list', r);
    return (JSON.parse(r.out) as Array<{ loan_number: number }>).map((l) => l.loan_number);
  };
  try {
    say(
      '▶ 1. Log in: the authorization-key flow with a loopback redirect catcher (the demo plays the browser; the plain file is its throw-away store).',
    );
    let opened = false;
    const login = run(['login', '--no-browser', '--timeout', '30'], {
      watch: (text) => {
        const url = /(https?:\/\/\S+\/oauth\?\S+)/.exec(text)?.[1];
        if (url && !opened) {
          opened = true;
          void openLikeABrowser(url);
        }
      },
    });
    must('login', await login);
    must('auth status', await run(['auth', 'status', '-o', 'table']));

    say('▶ 2. The account before investing: alice already holds notes from the seeded history.');
    must('account', await run(['account', '-o', 'table']));
    const heldBefore = await loanNumbers();
    o.io.stderr.write(`(alice already holds notes in ${heldBefore.length} loans: the seeded history, not the demo's doing)\n`);

    say('▶ 3. Search: A and AA listings over a day old with room left, best rate first.');
    const yesterday = new Date(market.clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
    const filters = [
      '--platform_rating',
      'AA,A',
      '--amount_remaining_min',
      '500',
      '--listing_creation_date_max',
      yesterday,
      '--sort-by',
      'borrower_rate desc',
      '--limit',
      String(o.bids),
    ];
    must('search', await run(['listings', 'search', ...filters, '-o', 'table']));
    say('▶ 4. The same search as CSV with only listing_number: a bids file for `mkt order submit`.');
    const found = await run(['listings', 'search', ...filters, '-o', 'csv', '--columns', 'listing_number']);
    must('search', found);

    say(
      '▶ 5. Bid 25.00 on each and wait (--wait, which waits until processed by default) until the marketplace has decided every bid:\n'
        + '   a placed bid is BID_SUCCEEDED and stays PENDING until its listing funds and originates, days later.',
    );
    const bidsFile = join(home, 'bids.csv');
    writeFileSync(bidsFile, found.out);
    o.io.stderr.write(`(bids.csv: ${found.out.trim().split('\n').length - 1} listings, bid_amount filled by --amount)\n`);
    // --progress: the demo shows each order accepted and its wait even when its output is piped (off a terminal they are quiet).
    must(
      'order submit',
      await run(['order', 'submit', bidsFile, '--amount', '25', '--yes', '--wait', '--progress', '-o', 'table']),
      [0, 6],
    );
    say('▶ 6. Submitting the same file again is refused: money is never bid twice.');
    must('duplicate submit', await run(['order', 'submit', bidsFile, '--amount', '25', '--yes']), [2]);

    say(
      '▶ 7. Move the mock clock 15 days: other investors fund, listings originate (or expire), loans appear; the order now shows INVESTED or EXPIRED.',
    );
    must('clock', await run(['mock', 'clock', 'advance', '15d', '-o', 'table']));
    const orders = JSON.parse((await run(['order', 'list', '-o', 'json'], { show: false })).out) as { result: Array<{ order_id: string }> };
    const orderId = orders.result[0]?.order_id;
    if (orderId) must('order get', await run(['order', 'get', orderId, '-o', 'table']));

    say('▶ 8. Another 35 days of servicing, then the loans (newest first) and the account.');
    must('clock', await run(['mock', 'clock', 'advance', '35d', '-o', 'table']));
    must('loans', await run(['loans', 'list', '-o', 'table', '--limit', '10']));
    const before = new Set(heldBefore);
    const fromDemo = (await loanNumbers()).filter((n) => !before.has(n));
    o.io.stderr.write(
      `(from this demo's bids: ${fromDemo.length ? `loans ${fromDemo.join(', ')}` : 'no loan yet'}; the other ${heldBefore.length} alice already held before the demo)\n`,
    );
    must('account', await run(['account', '-o', 'table']));
    say(
      '✔ Demo finished. Try it yourself: `npx mkt mock serve --auto-approve alice` in one terminal, and in another the line it prints after "try".',
    );
    return EXIT.OK;
  } finally {
    await server.close();
    await market.close();
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
