/** A negative amount typed anywhere the CLI reads one is called negative (exit 2, nothing sent), naming the minimum bid. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOWHERE, runMkt, tempHome } from './helpers/cli.js';

const NEGATIVE = 'is negative: amounts are positive, at least the minimum bid of 25.00';

describe('a bid of -25', () => {
  it('in a bids file, in --amount (spaced or with =) and on standard input', async () => {
    const home = tempHome();
    const rows = join(home, 'bids.csv');
    writeFileSync(rows, 'listing_id,bid_amount\n10000001,-25\n10000002,-25.50\n');
    const bare = join(home, 'ids.csv');
    writeFileSync(bare, 'listing_id\n10000001\n');
    const file = await runMkt(['order', 'submit', rows, '--yes'], { env: NOWHERE, home });
    expect(file.code).toBe(2);
    expect(file.stderr).toContain(`bids.csv line 2: bid_amount -25 ${NEGATIVE}`);
    expect(file.stderr).toContain(`bids.csv line 3: bid_amount -25.50 ${NEGATIVE}`);
    for (const flag of [['--amount', '-25'], ['--amount=-25']]) {
      const r = await runMkt(['order', 'submit', bare, '--yes', ...flag], { env: NOWHERE, home });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--amount: -25 ${NEGATIVE}`);
      expect(r.stderr).not.toMatch(/not an amount/);
    }
    const stdin = await runMkt(['order', 'submit', '-', '--dry-run'], {
      env: NOWHERE,
      home,
      input: 'listing_id,bid_amount\n10000001,-25\n',
    });
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toContain(`stdin line 2: bid_amount -25 ${NEGATIVE}`);
  });

  it('as a strategy amount, and as the starting cash of a simulation', async () => {
    const home = tempHome();
    const f = join(home, 's.yaml');
    writeFileSync(f, 'rules:\n  - name: r\n    amount: -25\n');
    const check = await runMkt(['invest', 'check', f], { env: NOWHERE, home });
    expect(check.code).toBe(2);
    expect(check.stderr).toContain(`${f}:3: rules[0].amount: -25 is negative: amounts are positive, at least the 25.00 minimum bid`);
    writeFileSync(f, 'rules:\n  - name: r\n    amount: 25\n');
    const sim = await runMkt(['invest', 'simulate', f, '--months', '1', '--cash', '-25'], { env: NOWHERE, home });
    expect(sim.code).toBe(2);
    expect(sim.stderr).toContain('--cash -25 is negative');
  });
});
