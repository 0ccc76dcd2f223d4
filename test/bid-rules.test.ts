import { describe, expect, it } from 'vitest';
import type { ApiClient, Call } from '../src/api/client.js';
import { youngPartialCap } from '../src/contract/bid-rules.js';
import { dryRun } from '../src/orders/dry-run.js';

const HOUR = 3_600_000;
const now = Date.parse('2024-05-01T12:00:00Z');

/** A young partial-funding listing of `amount`, created an hour before `now`. */
const listing = (amount: number) => ({
  listing_number: 42,
  listing_amount: amount,
  amount_remaining: amount,
  partial_funding_indicator: true,
  listing_creation_date: '2024-05-01 11:00:00 +0000',
  // Every real listing answer carries its investment type; without one a listing takes no bid (ORD0037).
  investment_typeid: 1,
});

/** A client answering listings searches with `l` and the account with plenty of cash, through the real decoders. */
function clientWith(l: object): ApiClient {
  const answer = (path: string): unknown =>
    path === '/accounts/platform'
      ? { available_cash_balance: 10_000, external_user_id: 'ext-1' }
      : { result: [l], result_count: 1, total_count: 1 };
  return { call: async <T>(c: Call<T>): Promise<T> => c.decode(answer(c.path), 'answer') } as ApiClient;
}

describe('the 10% rule for young partial-funding listings', () => {
  it('caps a bid at 10% of the listing amount, to the cent, for a day after creation', () => {
    expect(youngPartialCap({ listing_amount: 1234.55, partial_funding_indicator: true }, now - HOUR, now)).toBe(123.46);
    expect(youngPartialCap({ listing_amount: 1234.55, partial_funding_indicator: true }, now - 24 * HOUR, now)).toBeNull();
    expect(youngPartialCap({ listing_amount: 1234.55, partial_funding_indicator: false }, now - HOUR, now)).toBeNull();
  });

  it('the dry run accepts a bid at the cap the engine accepts, and refuses one a cent above', async () => {
    const at = await dryRun(clientWith(listing(1234.55)), [{ line: 2, listing_id: 42, bid_amount: 123.46 }], () => now);
    expect(at.rows[0]).toMatchObject({ ok: true, verdict: 'ok' });
    const above = await dryRun(clientWith(listing(1234.55)), [{ line: 2, listing_id: 42, bid_amount: 123.47 }], () => now);
    expect(above.rows[0]).toMatchObject({ ok: false, verdict: expect.stringMatching(/at most 123\.46 \(10%\)/) });
  });
});
