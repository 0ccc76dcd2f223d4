/**
 * The mock's listings as the 2025–26 answers (cwalsh525/liveLongAndProsperBot `wiki/listings/listings_wiki`,
 * commit eacf2c4; docs/fidelity.md): `listing_duration` and `loan_product_id`, no `channel_code`,
 * `listing_end_date`, `loan_number` or `loan_origination_date` before origination, 48-month terms at a
 * fifth, no occupation with employment Other, and the full bureau2 block of 321 keys when asked. Every
 * answer here also passes the answer check against the OpenAPI document (answer-check-setup.ts).
 */
import { describe, expect, it } from 'vitest';
import { BUREAU2_BLOCK_KEYS, BUREAU2_BLOCK_PLACEHOLDERS } from '../src/contract/bureau2-block.js';
import { BUREAU2_ELEMENTS } from '../src/contract/bureau.js';
import { issueTestToken, testMockApp } from './helpers/mock.js';

const START = Date.parse('2026-03-06T23:00:00Z');
const app = testMockApp({ seed: 41, listings: 3000, frozen: true, start: START });
const world = app.ctx.world;
const token = issueTestToken(app);

async function search(query: string): Promise<Array<Record<string, any>>> {
  const res = await app.handle(
    new Request(`http://127.0.0.1/listingsvc/v2/listings?${query}`, { headers: { authorization: `Bearer ${token}` } }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: Array<Record<string, any>> }).result;
}

describe('the fields of a 2025–26 listing', () => {
  it('an active listing carries listing_duration 14 and loan_product_id 1, and no channel_code, listing_end_date or loan fields', async () => {
    const page = await search('limit=500');
    expect(page.length).toBe(500);
    for (const l of page) {
      expect([l.listing_number, l.listing_duration, l.loan_product_id]).toEqual([l.listing_number, 14, 1]);
      for (const absent of ['channel_code', 'listing_end_date', 'loan_number', 'loan_origination_date'])
        expect(l).not.toHaveProperty(absent);
    }
  });

  it('a listing without prior loans shows its largest and smallest prior loan as 0, one with them its amounts', async () => {
    const page = await search('limit=500');
    const none = page.filter((l) => l.prior_platform_loans === 0);
    const some = page.filter((l) => l.prior_platform_loans > 0);
    expect([none.length > 50, some.length > 50]).toEqual([true, true]);
    for (const l of none) expect([l.max_prior_platform_loan, l.min_prior_platform_loan]).toEqual([0, 0]);
    for (const l of some) expect(l.max_prior_platform_loan).toBeGreaterThan(0);
  });

  it('an originated listing the caller holds keeps its loan fields, its end date and its channel', async () => {
    const held = await search('biddable=false&limit=50');
    expect(held.length).toBeGreaterThan(0);
    for (const l of held) {
      expect(l.loan_number).toEqual(expect.any(Number));
      expect(l.listing_end_date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000$/);
      expect(l.channel_code).toMatch(/^\d+$/);
      expect(l.listing_duration).toEqual(expect.any(Number));
    }
  });

  it('48-month listings are about a fifth of new listings, 36 months the most, 24 months rare', () => {
    // The first 128 listings cycle through every term (coverage of small worlds); the share is of the rest.
    const drawn = world.listings.slice(128);
    const share = (t: number) => drawn.filter((l) => l.listing_term === t).length / drawn.length;
    expect(drawn.length).toBeGreaterThan(2500);
    expect(share(48)).toBeGreaterThan(0.17);
    expect(share(48)).toBeLessThan(0.23);
    expect(share(36)).toBeGreaterThan(0.5);
    expect(share(60)).toBeGreaterThan(0.17);
    expect(share(24)).toBeLessThan(0.08);
  });

  it('a 48-month search finds them, each with the payment of its term', async () => {
    const page = await search('listing_term=48&limit=100');
    expect(page.length).toBeGreaterThan(10);
    for (const l of page) expect(l.listing_term).toBe(48);
  });

  it('leaves occupation out when the employment is Other, and only then when the borrower gave one', async () => {
    const page = await search('limit=500');
    const other = page.filter((l) => l.employment_status_description === 'Other');
    expect(other.length).toBeGreaterThan(10);
    for (const l of other) expect(l).not.toHaveProperty('occupation');
    expect(page.filter((l) => l.employment_status_description !== 'Other' && typeof l.occupation === 'string').length).toBeGreaterThan(100);
    // Occupation 'Other' is a value of its own (employed, occupation Other, as three of the real listings).
    expect(page.some((l) => l.occupation === 'Other')).toBe(true);
  });
});

describe('the full bureau2 block', () => {
  it('is not sent unless asked for', async () => {
    for (const l of await search('limit=50')) expect(l).not.toHaveProperty('credit_bureau_values_bureau2');
  });

  it('has the 321 keys of the real block, in its order, the indexed values among them, and every placeholder across a page', async () => {
    const page = await search('limit=300&include_credit_bureau_values=bureau2');
    const seen = new Set<number>();
    for (const l of page) {
      const block = l.credit_bureau_values_bureau2 as Record<string, unknown>;
      expect(Object.keys(block)).toEqual(BUREAU2_BLOCK_KEYS);
      expect(block.credit_report_date).toBe(l.credit_bureau_values_bureau2_indexed.credit_report_date);
      expect(block.fico_score).toBe(l.fico_score);
      for (const e of BUREAU2_ELEMENTS)
        expect([e.short, block[e.short]]).toEqual([e.short, l.credit_bureau_values_bureau2_indexed[e.long]]);
      for (const [k, v] of Object.entries(block)) if (k !== 'credit_report_date' && k !== 'fico_score') seen.add(v as number);
      // A family with no trade is -1 in every other attribute of it, as the real answers send it.
      if (block.hr01s === 0) for (const k of BUREAU2_BLOCK_KEYS.filter((x) => /^hr\d/.test(x) && x !== 'hr01s')) expect(block[k]).toBe(-1);
    }
    for (const p of BUREAU2_BLOCK_PLACEHOLDERS) expect([p, seen.has(p)]).toEqual([p, true]);
  });

  it('is the same block for the same listing, asked again or from a world seeded the same', async () => {
    const ask = 'limit=20&include_credit_bureau_values=bureau1,bureau2';
    const first = (await search(ask)).map((l) => l.credit_bureau_values_bureau2);
    expect((await search(ask)).map((l) => l.credit_bureau_values_bureau2)).toEqual(first);
    const twin = testMockApp({ seed: 41, listings: 3000, frozen: true, start: START });
    const res = await twin.handle(
      new Request(`http://127.0.0.1/listingsvc/v2/listings?${ask}`, { headers: { authorization: `Bearer ${issueTestToken(twin)}` } }),
    );
    expect(((await res.json()) as any).result.map((l: any) => l.credit_bureau_values_bureau2)).toEqual(first);
  });
});
