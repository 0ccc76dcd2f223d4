/**
 * The README's pipeline (`listings search … -o csv | order submit - …`) run a second time: the bids it
 * already placed are refused, and the hint names the fix that keeps the pipeline whole — `--invested
 * false` on the search — which then places the other listings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 60 });
});
afterAll(async () => {
  await mock?.close();
});

describe('the README pipeline run again', () => {
  it('is refused with a hint to add --invested false to the search, and with it places the rest', async () => {
    const home = tempHome();
    const mkt = (args: string[], input?: string) => runMkt(args, { env: mock.env, home, ...(input === undefined ? {} : { input }) });
    const search = [
      'listings',
      'search',
      '--platform_rating',
      'A,B',
      '--amount_remaining_min',
      '25',
      '--sort-by',
      'listing_number asc',
      '-o',
      'csv',
      '--columns',
      'listing_number',
    ];
    const submit = ['order', 'submit', '-', '--amount', '25', '--yes'];

    // One listing already bid on (and processed), as after an earlier run.
    const two = await mkt([...search, '--limit', '2']);
    expect(two.code, two.stderr).toBe(0);
    const first = two.stdout.trim().split('\n')[1]!;
    const placed = await mkt(submit, `listing_number\n${first}\n`);
    expect(placed.code, placed.stderr).toBe(0);
    // The mock's clock is frozen: moving it lets the order be processed, so the bid holds money in the listing.
    expect((await mkt(['mock', 'clock', 'advance', '10m'])).code).toBe(0);

    const again = await mkt(submit, (await mkt([...search, '--limit', '2'])).stdout);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`listing ${first}: `);
    expect(again.stderr).toMatch(/hint: .*add --invested false to the search/);

    const fixed = await mkt([...search, '--limit', '2', '--invested', 'false']);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout.trim().split('\n').slice(1)).not.toContain(first);
    const rest = await mkt(submit, fixed.stdout);
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stderr).not.toMatch(/refusing/);
  });
});
