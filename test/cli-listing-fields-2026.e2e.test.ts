/**
 * `mkt listings search` and `mkt listings get` (the built binary) read the mock's 2025–26 listings from a
 * spawned `mkt mock serve`: 48-month listings filtered, the full bureau2 block asked for, printed in
 * every output format (listing-fields-2026.test.ts checks the answers themselves).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUREAU2_BLOCK_KEYS } from '../src/contract/bureau2-block.js';
import { runMkt } from './helpers/cli.js';
import { aliceToken, serveMock, type ServedMock } from './helpers/serve.js';

let served: ServedMock;
let env: Record<string, string>;
beforeAll(async () => {
  served = await serveMock(['--seed', '41', '--listings', '600', '--frozen', '--auto-approve', 'alice']);
  env = { MKT_ROOT_URL: served.origin, MKT_ACCESS_TOKEN: await aliceToken(served.origin) };
}, 30_000);
afterAll(async () => {
  served.child.kill('SIGTERM');
  await served.exited;
});

describe('mkt reads the 2025–26 listings', () => {
  it('listings search --listing_term 48 with the bureau2 block: every listing 48 months, 321 keys, the new fields, none of the gone ones', async () => {
    const r = await runMkt(
      ['listings', 'search', '--listing_term', '48', '--include-credit-bureau-values', 'bureau2', '--limit', '40', '-o', 'json'],
      { env },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as { result: Array<Record<string, any>>; total_count: number };
    expect(body.result.length).toBeGreaterThan(10);
    for (const l of body.result) {
      expect(l.listing_term).toBe(48);
      expect([l.listing_duration, l.loan_product_id]).toEqual([14, 1]);
      expect(l).not.toHaveProperty('channel_code');
      expect(l).not.toHaveProperty('listing_end_date');
      expect(Object.keys(l.credit_bureau_values_bureau2)).toEqual(BUREAU2_BLOCK_KEYS);
    }
  });

  it.each(['table', 'csv', 'ndjson'])('prints them -o %s, exit 0', async (format) => {
    const r = await runMkt(
      ['listings', 'search', '--listing_term', '48', '--include-credit-bureau-values', 'bureau2', '--limit', '5', '-o', format],
      { env },
    );
    // A table of one page says on stderr that there are more; nothing else.
    expect(r.stderr.replace(/^5 of \d+ — use --all or --offset\n$/, '')).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('48');
  });

  it('listings get shows a listing with employment Other: no occupation, its duration and product', async () => {
    const search = await runMkt(['listings', 'search', '--employment_status_description', 'Other', '--limit', '1', '-o', 'json'], { env });
    const listing = (JSON.parse(search.stdout) as { result: Array<Record<string, unknown>> }).result[0]!;
    expect(listing).not.toHaveProperty('occupation');
    const r = await runMkt(['listings', 'get', String(listing.listing_number), '-o', 'table'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/listing_duration\s*:?\s*14/);
    expect(r.stdout).toMatch(/loan_product_id\s*:?\s*1/);
    expect(r.stdout).not.toContain('occupation');
  });
});
