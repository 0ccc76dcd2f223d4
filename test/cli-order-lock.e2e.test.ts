import { spawn } from 'node:child_process';
import { connect, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeAll(async () => {
  // Frozen: an accepted order waits for processing until the test asks for it.
  mock = await startMock({ listings: 300, frozen: true });
});
afterAll(async () => {
  await mock.close();
});

/** Two listings alice may bid on that no earlier test of this file used. */
function twoListings(): [number, number] {
  const now = mock.app.ctx.clock.now();
  const taken = new Set([...mock.app.ctx.world.orders.values()].flatMap((o) => o.bids.map((b) => b.listing_id)));
  const [a, b] = mock.app.ctx.world.listings
    .filter(
      (l) =>
        l.listing_status === 2
        && l.investment_typeid === 1
        && now - l.listing_creation_date > 2 * 86_400_000
        && !l.mockRole
        && !l.authorizedUsers
        && !l.borrowerUserId,
    )
    .map((l) => l.listing_number)
    .filter((n) => !taken.has(n));
  return [a!, b!];
}

/**
 * Starts a submit that holds the lock (it --waits on a frozen mock), runs a second submit with
 * `secondEnv`, lets the first finish, and returns the second's result.
 */
async function whileOneWaits(secondEnv: Record<string, string>, secondArgs: string[] = []) {
  const home = tempHome();
  const [a, b] = twoListings();
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    MKT_CONFIG_DIR: join(home, 'config'),
    MKT_STATE_DIR: join(home, 'state'),
    ...mock.env,
  };
  const ordersBefore = mock.app.ctx.world.orders.size;
  const first = spawn(process.execPath, [BIN, 'order', 'submit', '-', '--yes', '--wait', '--timeout', '30', '--progress'], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let firstErr = '';
  first.stderr.on('data', (d) => (firstErr += d));
  const firstDone = new Promise<number | null>((resolve) => first.on('close', resolve));
  first.stdin.end(`listing_id,bid_amount\n${a},25\n`);
  for (let i = 0; i < 100 && !/accepted/.test(firstErr); i++) await new Promise((r) => setTimeout(r, 100));
  expect(firstErr).toContain('accepted');

  const second = await runMkt(['order', 'submit', '-', '--yes', ...secondArgs], {
    env: secondEnv,
    home,
    input: `listing_id,bid_amount\n${b},25\n`,
  });
  const sent = mock.app.ctx.world.orders.size - ordersBefore;

  await fetch(`${mock.origin}/__mock/process`, { method: 'POST' });
  expect(await firstDone).toBe(0);
  return { second, sent, firstPid: first.pid };
}

describe('two mkt order submit runs for one marketplace account', () => {
  it("do not overlap: the second exits 2 at once with a clear message naming the holder's pid, and sends nothing", async () => {
    const { second, sent, firstPid } = await whileOneWaits(mock.env);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(
      new RegExp(
        `another mkt order submit or invest run \\(pid ${firstPid}\\) is running for account \\S+ at http://127\\.0\\.0\\.1:\\d+/v1 \\(from this or another profile or address\\); nothing was sent`,
      ),
    );
    // The kernel frees the lock when its holder ends: the hint says nothing of removing a file.
    expect(second.stderr).toContain('hint: wait for it to finish, or run again with --wait-lock SECONDS to wait for it\n');
    expect(sent).toBe(1);
  }, 40_000);

  it('do not overlap under another spelling of the address and from another profile', async () => {
    const port = new URL(mock.origin).port;
    const { second, sent } = await whileOneWaits({ ...mock.env, MKT_BASE_URL: `http://LOCALHOST:${port}/v1//`, MKT_PROFILE: 'other' });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('another mkt order submit or invest run (pid ');
    expect(sent).toBe(1);
  }, 40_000);

  it("do not overlap under another address of the same marketplace (another journal): the account's own lock holds them apart", async () => {
    // A forwarder on another port: another address, so another journal, of the same marketplace and account.
    const forwarder = createServer((client) => {
      const upstream = connect(Number(new URL(mock.origin).port), '127.0.0.1');
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end);
      upstream.on('error', end);
    });
    await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
    try {
      const port = (forwarder.address() as AddressInfo).port;
      const { second, sent, firstPid } = await whileOneWaits({ ...mock.env, MKT_ROOT_URL: `http://127.0.0.1:${port}` });
      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toContain(`another mkt order submit or invest run (pid ${firstPid}) is running for account`);
      expect(sent).toBe(1);
    } finally {
      forwarder.close();
    }
  }, 40_000);

  it('--wait-lock waits as long as asked, then gives up naming the holder, having sent nothing', async () => {
    const { second, sent, firstPid } = await whileOneWaits(mock.env, ['--wait-lock', '1']);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`another mkt order submit or invest run (pid ${firstPid}) is still running after 1 s for account`);
    expect(second.stderr).toContain('--wait-lock SECONDS to wait for it longer');
    expect(sent).toBe(1);
  }, 40_000);
});
