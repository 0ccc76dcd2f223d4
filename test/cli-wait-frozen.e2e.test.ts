/**
 * `order submit --wait` against a mock started with --frozen: it says within seconds that the clock stands
 * still and what to do, ends with exit 6 and the resume command, and the commands it names do the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';
import { bidsFile, ordersIn } from './helpers/one-bid.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 120, frozen: true });
});
afterAll(async () => {
  await mock.close();
});

describe('order submit --wait against a frozen mock', () => {
  it('says the clock is frozen and how to move it, exits 6, and the named commands end the wait', async () => {
    const home = tempHome();
    // A timeout past the moment the stillness is told (about 3 s of polls): the words must come before it.
    const r = await runMkt(['order', 'submit', bidsFile(mock, home), '--yes', '--wait', '--timeout', '12'], {
      env: mock.env,
      home,
      timeoutMs: 40_000,
    });
    expect(r.code, r.stderr).toBe(6);
    const id = ordersIn(mock)[0]!.order_id;
    expect(r.stderr).toContain(
      "mkt: the marketplace's clock stands still: it is a mock started with --frozen, which processes no order until its clock moves or it is told to; run `mkt mock process` from another terminal",
    );
    expect(r.stderr).toContain(`order ${id}: gave up: the mock's clock is frozen, with 1 bid placed and still pending (not yet processed)`);
    expect(r.stderr).toContain(
      `the mock's clock is frozen (exit 6): its orders are processed once it moves or is told to: run \`mkt mock process\`, then follow with \`mkt order get ${id} --wait --timeout 12\``,
    );

    // The command it names, as named: the order processed, the clock where it was frozen.
    const clockBefore = mock.app.ctx.clock.now();
    const processed = await runMkt(['mock', 'process'], { env: mock.env, home });
    expect(processed.code, processed.stderr).toBe(0);
    expect(mock.app.ctx.clock.now()).toBe(clockBefore);
    const again = await runMkt(['order', 'get', id, '--wait', '--timeout', '12', '-o', 'json'], { env: mock.env, home });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('stands still');
  }, 60_000);
});
