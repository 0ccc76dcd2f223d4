import { describe, expect, it } from 'vitest';
import { chunk, readBids } from '../src/orders/bids-file.js';
import { UsageError } from '../src/errors.js';

async function problems(text: string, amount?: string): Promise<string> {
  try {
    await readBids(text, 'bids.csv', amount);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('expected the file to be refused');
}

describe('reading a bids file', () => {
  it('reads listing_id and bid_amount with their line numbers', async () => {
    const bids = await readBids('listing_id,bid_amount\n10000001,25\n10000002,30.50\n', 'bids.csv');
    expect(bids).toEqual([
      { listing_id: 10000001, bid_amount: 25, line: 2 },
      { listing_id: 10000002, bid_amount: 30.5, line: 3 },
    ]);
  });

  it('accepts listing_number and fills missing amounts from --amount', async () => {
    const bids = await readBids('listing_number\n10000001\n10000002\n', 'stdin', '25');
    expect(bids.map((b) => b.bid_amount)).toEqual([25, 25]);
    const mixed = await readBids('listing_id,bid_amount\n1,\n2,40\n', 'f', '25');
    expect(mixed.map((b) => b.bid_amount)).toEqual([25, 40]);
  });

  it('reports every problem with its line number, header being line 1', async () => {
    const text = 'listing_id,bid_amount\n10000001,25\nabc,25\n-4,25\n10000002,24.99\n10000003,25.001\n10000001,30\n10000004,\n';
    const msg = await problems(text);
    expect(msg).toContain('6 problems');
    expect(msg).toContain("bids.csv line 3: listing id 'abc' is not a positive whole number");
    expect(msg).toContain("bids.csv line 4: listing id '-4'");
    expect(msg).toContain('bids.csv line 5: bid_amount 24.99 is below the minimum bid of 25.00');
    expect(msg).toContain("bids.csv line 6: bid_amount '25.001' is not an amount with at most 2 decimals");
    expect(msg).toContain('bids.csv line 7: listing 10000001 is already bid on at line 2');
    expect(msg).toContain('bids.csv line 8: bid_amount is empty');
  });

  it('refuses an empty file, a header without bids, and a header without the needed columns', async () => {
    expect(await problems('')).toMatch(/is empty/);
    expect(await problems('listing_id,bid_amount\n')).toMatch(/no bids/);
    expect(await problems('id,amount\n1,25\n')).toMatch(/line 1: the header needs a listing_id or listing_number column/);
    expect(await problems('listing_id\n1\n')).toMatch(/no bid_amount column/);
  });

  it('refuses a bad --amount before reading rows', async () => {
    expect(await problems('listing_id\n1\n', '10')).toMatch(/--amount: 10 is below the minimum/);
  });

  it('splits 250 bids into orders of 100, 100 and 50', () => {
    expect(chunk(Array.from({ length: 250 }, (_, i) => i), 100).map((c) => c.length)).toEqual([100, 100, 50]);
  });
});
