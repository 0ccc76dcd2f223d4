import { describe, expect, it } from 'vitest';
import { issueTestToken, testMockApp } from './helpers/mock.js';

const START = Date.parse('2026-06-01T12:00:00Z');
const app = testMockApp({ seed: 5, listings: 300, frozen: true, start: START });
const world = app.ctx.world;
const token = issueTestToken(app);
const active = world.listings.filter((l) => l.listing_status === 2);
const fractional = active.filter((l) => l.investment_typeid === 1);

async function get(path: string, headers: Record<string, string> = { authorization: `Bearer ${token}` }) {
  const res = await app.handle(new Request(`http://127.0.0.1${path}`, { headers }));
  return { status: res.status, body: (await res.json()) as any };
}

describe('GET /listingsvc/v2/listings', () => {
  it('returns active fractional listings in the list envelope, 25 by default', async () => {
    const { status, body } = await get('/listingsvc/v2/listings');
    expect(status).toBe(200);
    expect(body.result).toHaveLength(25);
    expect(body.result_count).toBe(25);
    expect(body.total_count).toBe(fractional.length);
    for (const l of body.result) expect(l.investment_typeid).toBe(1);
  });

  it('pages with offset and limit, and clamps limit to 500', async () => {
    const a = await get('/listingsvc/v2/listings?limit=10&offset=0');
    const b = await get('/listingsvc/v2/listings?limit=10&offset=10');
    expect(b.body.result[0].listing_number).toBeGreaterThan(a.body.result[9].listing_number);
    const big = await get('/listingsvc/v2/listings?limit=100000&whole_loan=false');
    expect(big.body.result_count).toBe(Math.min(500, fractional.length));
  });

  it('whole_loan=true returns whole-loan listings only', async () => {
    const { body } = await get('/listingsvc/v2/listings?whole_loan=true&limit=500');
    expect(body.total_count).toBe(active.filter((l) => l.investment_typeid === 2).length);
    for (const l of body.result) expect(l.investment_typeid).toBe(2);
  });

  it('exclude_co_borrower_application=true removes co-borrower listings', async () => {
    const { body } = await get('/listingsvc/v2/listings?exclude_co_borrower_application=TRUE&limit=500');
    expect(body.total_count).toBe(fractional.filter((l) => !l.co_borrower_application).length);
    expect(body.total_count).toBeLessThan(fractional.length);
  });

  it('biddable=false returns originated listings the caller invested in, with loan fields', async () => {
    const held = new Set(world.notes.filter((n) => n.accountId === 'alice-1').map((n) => n.listingNumber));
    const { body } = await get('/listingsvc/v2/listings?biddable=false&limit=500');
    expect(body.total_count).toBe(held.size);
    for (const l of body.result) {
      expect(held.has(l.listing_number)).toBe(true);
      expect(l.loan_number).toEqual(expect.any(Number));
      expect(l.loan_origination_date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000$/);
      expect(l.invested).toBe(true);
      expect(l.biddable).toBe(false);
      expect(l.amount_participation).toBeGreaterThan(0);
    }
  });

  it('invested=true alone finds nothing active for a caller with no bids, invested=false finds everything', async () => {
    expect((await get('/listingsvc/v2/listings?invested=true')).body.total_count).toBe(0);
    expect((await get('/listingsvc/v2/listings?invested=false')).body.total_count).toBe(fractional.length);
  });

  it('finds an originated listing by number with biddable=false, and not without it', async () => {
    const other = world.listings.find((l) => l.loan_number !== null)!;
    expect((await get(`/listingsvc/v2/listings?listing_number=${other.listing_number}`)).body.total_count).toBe(0);
    const { body } = await get(`/listingsvc/v2/listings?listing_number=${other.listing_number}&biddable=false`);
    expect(body.result[0].listing_number).toBe(other.listing_number);
  });

  it('adds bureau objects only when asked, bureau1 only for listings created before 2017-03-31', async () => {
    const plain = await get('/listingsvc/v2/listings?limit=1');
    expect(plain.body.result[0]).not.toHaveProperty('credit_bureau_values_bureau2');
    expect(plain.body.result[0].credit_bureau_values_bureau2_indexed).toHaveProperty('at01s_credit_lines');
    const both = await get('/listingsvc/v2/listings?limit=1&include_credit_bureau_values=bureau1,bureau2');
    // The full block of the 2025 answers: lower-case short names, 321 keys (bureau2-fields-2026.test.ts has the rest).
    expect(Object.keys(both.body.result[0].credit_bureau_values_bureau2)).toHaveLength(321);
    expect(both.body.result[0].credit_bureau_values_bureau2.at01s).toBe(
      both.body.result[0].credit_bureau_values_bureau2_indexed.at01s_credit_lines,
    );
    expect(both.body.result[0].credit_bureau_values_bureau1).toBeNull();
    const old = await get(
      '/listingsvc/v2/listings?biddable=false&limit=1&sort_by=listing_creation_date%20asc&include_credit_bureau_values=bureau1',
    );
    expect(old.body.result[0].credit_bureau_values_bureau1).toHaveProperty('total_trade_items');
  });

  it('omits deprecated yields after 2018-08-08 and co-borrower fields on single applications', async () => {
    const { body } = await get('/listingsvc/v2/listings?limit=50');
    for (const l of body.result) {
      expect(l).not.toHaveProperty('effective_yield');
      expect('combined_dti_wplatform_loan' in l).toBe(l.co_borrower_application);
    }
    const old = await get('/listingsvc/v2/listings?biddable=false&limit=1&sort_by=listing_start_date%20asc');
    expect(old.body.result[0]).toHaveProperty('effective_yield');
  });

  it('sorts by several clauses', async () => {
    const { body } = await get('/listingsvc/v2/listings?limit=500&sort_by=platform_rating%20asc,borrower_rate%20desc');
    const rows = body.result as Array<{ platform_rating: string; borrower_rate: number }>;
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      expect(a.platform_rating <= b.platform_rating).toBe(true);
      if (a.platform_rating === b.platform_rating) expect(a.borrower_rate).toBeGreaterThanOrEqual(b.borrower_rate);
    }
  });

  it('formats dates in the timezone header', async () => {
    const utc = await get('/listingsvc/v2/listings?limit=1');
    const ny = await get('/listingsvc/v2/listings?limit=1', { authorization: `bearer ${token}`, timezone: 'America/Chicago' });
    // listing_creation_date: an active listing carries no listing_end_date since the 2025–26 answers.
    expect(utc.body.result[0].listing_creation_date).toMatch(/ \+0000$/);
    expect(ny.body.result[0].listing_creation_date).toMatch(/ -0500$/);
    // A date-time, as the spec types it and both public clients' real answers (2015, 2023) send it.
    expect(utc.body.result[0].listing_start_date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000$/);
    expect(ny.body.result[0].listing_start_date).toMatch(/ -0500$/);
  });

  it.each([
    ['/listingsvc/v2/listings?bogus=1', 'bogus'],
    ['/listingsvc/v2/listings?limit=0', 'limit'],
    ['/listingsvc/v2/listings?limit=-1', 'limit'],
    ['/listingsvc/v2/listings?limit=abc', 'limit'],
    ['/listingsvc/v2/listings?offset=-5', 'offset'],
    ['/listingsvc/v2/listings?borrower_rate_min=high', 'borrower_rate_min'],
    ['/listingsvc/v2/listings?borrower_rate=0.1', 'borrower_rate'],
    ['/listingsvc/v2/listings?listing_creation_date_min=2026-13-45', 'listing_creation_date_min'],
    ['/listingsvc/v2/listings?fico_score=999-1000', 'fico_score'],
    ['/listingsvc/v2/listings?has_mortgage=maybe', 'has_mortgage'],
    ['/listingsvc/v2/listings?sort_by=nonsense%20asc', 'sort_by'],
    ['/listingsvc/v2/listings?sort_by=borrower_rate%20sideways', 'sort_by'],
    ['/listingsvc/v2/listings?listing_number=abc', 'listing_number'],
    ['/listingsvc/v2/listings?include_credit_bureau_values=bureau3', 'include_credit_bureau_values'],
    ['/listingsvc/v2/listings?amount_funded_min=100&amount_funded_max=10', 'amount_funded_min'],
  ])('answers %s with 400 VAL0001 naming %s', async (path, param) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(body.code).toBe('VAL0001');
    expect(body.message.startsWith(`${param}:`)).toBe(true);
  });

  it('refuses an unknown timezone with 400', async () => {
    const { status, body } = await get('/listingsvc/v2/listings', { authorization: `bearer ${token}`, timezone: 'Mars/Olympus' });
    expect(status).toBe(400);
    expect(body.message).toContain('timezone');
  });

  it('requires a bearer token', async () => {
    const { status, body } = await get('/listingsvc/v2/listings', {});
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_token');
  });

  it('answers an unknown route with a JSON 404 naming method and path', async () => {
    const res = await app.handle(new Request('http://127.0.0.1/v1/nothing/here', { method: 'DELETE' }));
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe('No route for DELETE /v1/nothing/here');
  });
});

describe('GET /listingsvc/v2/listings under random input', () => {
  it('answers 200 or 400, never 500, for any mix of known and unknown parameters and values', async () => {
    const { default: fc } = await import('fast-check');
    const { filterParamNames } = await import('../src/contract/listing-filters.js');
    const names = [
      ...filterParamNames(),
      'offset',
      'limit',
      'sort_by',
      'biddable',
      'invested',
      'whole_loan',
      'include_credit_bureau_values',
      'exclude_co_borrower_application',
      'bogus',
    ];
    const value = fc.oneof(
      fc.string(),
      fc.constantFrom(
        'true',
        'FALSE',
        '0',
        '-1',
        '1e3',
        '760-779,780-799',
        '2026-01-01',
        '2026-01-01 10:00:00',
        'borrower_rate desc',
        ',',
        '',
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 5 }),
        fc.option(fc.string(), { nil: undefined }),
        async (pairs, zone) => {
          const url = new URL('http://127.0.0.1/listingsvc/v2/listings');
          for (const [k, v] of pairs) url.searchParams.append(k, v);
          const headers: Record<string, string> = { authorization: `bearer ${token}` };
          if (zone !== undefined && /^[\x20-\x7e]*$/.test(zone)) headers.timezone = zone;
          const res = await app.handle(new Request(url, { headers }));
          expect([200, 400]).toContain(res.status);
          const body = await res.json();
          if (res.status === 400) expect(body.code).toBe('VAL0001');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers a query asked again (a kept parse) as the first time, a refused one with the same 400, and by its zone', async () => {
    const q = '/listingsvc/v2/listings?limit=7&offset=3&fico_score=700-719,720-739&sort_by=borrower_rate%20desc';
    const first = await get(q);
    expect(first.status).toBe(200);
    expect(await get(q)).toEqual(first);
    const bad = '/listingsvc/v2/listings?limit=7&fico_score=nope';
    const refused = await get(bad);
    expect(refused.status).toBe(400);
    expect(await get(bad)).toEqual(refused);
    // The same query string read in another zone is another query (its dates are that zone's).
    const dated = '/listingsvc/v2/listings?limit=3&listing_start_date_min=2026-05-31';
    const utc = await get(dated);
    const tokyo = await get(dated, { authorization: `Bearer ${token}`, timezone: 'Asia/Tokyo' });
    expect(utc.status).toBe(200);
    expect(tokyo.status).toBe(200);
    expect(await get(dated)).toEqual(utc);
    expect(await get(dated, { authorization: `Bearer ${token}`, timezone: 'Asia/Tokyo' })).toEqual(tokyo);
  });
});
