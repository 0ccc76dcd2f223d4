import { spawn } from 'node:child_process';
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

describe('two mkt order submit runs of one profile', () => {
  it('do not overlap: the second waits briefly, then exits 2 with a clear message and sends nothing', async () => {
    const home = tempHome();
    const now = mock.app.ctx.clock.now();
    const [a, b] = mock.app.ctx.store.listings
      .filter((l) => l.listing_status === 2 && l.investment_typeid === 1 && now - l.listing_creation_date > 2 * 86_400_000 && !l.mockRole && !l.authorizedUsers && !l.borrowerUserId)
      .map((l) => l.listing_number);
    const env = {
      PATH: process.env.PATH ?? '', HOME: home, MKT_CONFIG_DIR: join(home, 'config'), MKT_STATE_DIR: join(home, 'state'), ...mock.env,
    };
    const first = spawn(process.execPath, [BIN, 'order', 'submit', '-', '--yes', '--wait', '--timeout', '30'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let firstErr = '';
    first.stderr.on('data', (d) => (firstErr += d));
    const firstDone = new Promise<number | null>((resolve) => first.on('close', resolve));
    first.stdin.end(`listing_id,bid_amount\n${a},25\n`);
    for (let i = 0; i < 100 && !/accepted/.test(firstErr); i++) await new Promise((r) => setTimeout(r, 100));
    expect(firstErr).toContain('accepted');

    const second = await runMkt(['order', 'submit', '-', '--yes'], { env: mock.env, home, input: `listing_id,bid_amount\n${b},25\n` });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('another mkt order submit is running for profile default; nothing was sent');
    expect(mock.app.ctx.store.orders.size).toBe(1);

    await fetch(`${mock.origin}/__mock/process`, { method: 'POST' });
    expect(await firstDone).toBe(0);
  }, 40_000);
});
