import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runMkt, tempHome } from './helpers/cli.js';
import { issueTestToken, startMock, type TestMock } from './helpers/mock.js';
import { skipUnless } from './helpers/requirements.js';

const noTmux = skipUnless('the terminal-prompt test', ['tmux']);

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 300, frozen: false, autoApprove: ['alice'] });
});
afterAll(async () => {
  await mock.close();
});

function freshListings(n: number): number[] {
  const now = mock.app.ctx.clock.now();
  const taken = new Set([...mock.app.ctx.world.orders.values()].flatMap((o) => o.bids.map((b) => b.listing_id)));
  return mock.app.ctx.world.listings
    .filter(
      (l) =>
        l.listing_status === 2
        && l.investment_typeid === 1
        && l.amount_remaining >= 100
        && !l.borrowerUserId
        && now - l.listing_creation_date > 2 * 86_400_000
        && l.listing_start_date < now
        && !l.mockRole
        && !l.authorizedUsers
        && !taken.has(l.listing_number),
    )
    .slice(0, n)
    .map((l) => l.listing_number);
}

/** Runs mkt under `env -i` with only HOME, PATH and the profile, as cron would. */
function cron(home: string, args: string[], input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('env', ['-i', `HOME=${home}`, `PATH=${process.env.PATH}`, 'MKT_PROFILE=cron', process.execPath, BIN, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

describe('a cron job with nothing but HOME, PATH and the profile', () => {
  it('logs in once, then searches, submits with --yes --wait and reads loans with no prompt', async () => {
    const home = tempHome();
    expect((await cron(home, ['config', 'set', 'root_url', mock.origin])).code).toBe(0);
    // The one interactive step: login. The mock approves at once; the test plays the browser.
    const login = spawn(
      'env',
      [
        '-i',
        `HOME=${home}`,
        `PATH=${process.env.PATH}`,
        'MKT_PROFILE=cron',
        process.execPath,
        BIN,
        'login',
        '--no-browser',
        '--insecure-storage',
        '--timeout',
        '20',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    const done = new Promise<number | null>((resolve) => login.on('close', resolve));
    login.stderr.on('data', (d) => {
      err += d;
      const url = /(http:\/\/\S+\/oauth\?\S+)/.exec(err)?.[1];
      if (url && !(login as { opened?: boolean }).opened) {
        (login as { opened?: boolean }).opened = true;
        // Fire and forget, as a browser would: the emitter drops a listener's promise, this one cannot reject
        // (caught), and whether the approval arrived is the login's exit code, awaited below.
        void fetch(url)
          .then((r) => r.arrayBuffer())
          .catch(() => undefined);
      }
    });
    expect(await done, err).toBe(0);

    const search = await cron(home, ['listings', 'search', '--platform_rating', 'A', '--limit', '3']);
    expect(search.code, search.stderr).toBe(0);
    expect(JSON.parse(search.stdout).result.length).toBeGreaterThan(0);

    const ids = freshListings(2);
    const submit = await cron(home, ['order', 'submit', '-', '--amount', '25', '--yes', '--wait'], `listing_id\n${ids.join('\n')}\n`);
    expect(submit.code, submit.stderr).toBe(0);
    expect(JSON.parse(submit.stdout).map((b: { bid_result: string }) => b.bid_result)).toEqual(['BID_SUCCEEDED', 'BID_SUCCEEDED']);
    // Cron mails stderr: a submit that succeeds prints nothing there (no "accepted", no --wait progress).
    expect(submit.stderr).toBe('');

    const again = await cron(home, ['order', 'submit', '-', '--amount', '25', '--yes'], `listing_id\n${ids.join('\n')}\n`);
    expect(again.code).toBe(2);
    // A failure is mailed: its message.
    expect(again.stderr).toMatch(/could place money twice; nothing was sent/);

    const loans = await cron(home, ['loans', 'list']);
    expect(loans.code, loans.stderr).toBe(0);
    expect(JSON.parse(loans.stdout).total_count).toBeGreaterThan(0);
  });
});

describe('insufficient funds', () => {
  it('says what is available against the order total (ORD0021, exit 4)', async () => {
    const ids = freshListings(2);
    const env = { MKT_ROOT_URL: mock.origin, MKT_ACCESS_TOKEN: issueTestToken(mock.app, 'bob-1') };
    const r = await runMkt(['order', 'submit', '-', '--amount', '25', '--yes'], { env, input: `listing_id\n${ids.join('\n')}\n` });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('ORD0021');
    expect(r.stderr).toContain('available 40.00, order total 50.00');
  });
});

describe.skipIf(noTmux)('on a terminal', () => {
  it('shows the bids and the total and asks before placing them (tmux)', async () => {
    const home = tempHome();
    const [id] = freshListings(1);
    const file = join(home, 'bids.csv');
    writeFileSync(file, `listing_id,bid_amount\n${id},25\n`);
    const session = `mkt-test-${process.pid}-${Date.now()}`;
    const envs = `MKT_ROOT_URL=${mock.origin} MKT_ACCESS_TOKEN=${issueTestToken(mock.app)} MKT_CONFIG_DIR=${home}/c MKT_STATE_DIR=${home}/s NO_COLOR=1`;
    execFileSync('tmux', [
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '160',
      '-y',
      '40',
      `env ${envs} ${process.execPath} ${BIN} order submit ${file}; echo EXIT=$?; sleep 60`,
    ]);
    const screen = () => execFileSync('tmux', ['capture-pane', '-p', '-t', session]).toString();
    const waitFor = async (re: RegExp) => {
      for (let i = 0; i < 100 && !re.test(screen()); i++) await new Promise((r) => setTimeout(r, 100));
      return screen();
    };
    try {
      const prompt = await waitFor(/Place 1 bid/);
      expect(prompt).toContain('Place 1 bid for a total of 25.00?');
      expect(prompt).toContain(String(id));
      const before = mock.app.ctx.world.orders.size;
      execFileSync('tmux', ['send-keys', '-t', session, 'y', 'Enter']);
      const end = await waitFor(/EXIT=\d/);
      expect(end).toContain('EXIT=0');
      expect(mock.app.ctx.world.orders.size).toBe(before + 1);
    } finally {
      execFileSync('tmux', ['kill-session', '-t', session]);
    }
  });
});
