/**
 * POST /__mock/listings (issue 40, item 1): a listing added with chosen fields to an empty or seeded world,
 * the rest drawn as the seed draws them. It is answered as the search shows it; every field it is given is
 * checked against the contract and against the others (a 400 VAL0001 naming the field, the world unchanged);
 * it then lives as any other listing: found by the search's filters, bid on, funded, originated on a clock
 * move; replayed from a --state folder; the same for the same seed and calls.
 */
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { checkInvariants } from '../mock-server/audit/invariants.js';
import { cancelledAtOrigination } from '../mock-server/engine/market.js';
import { monthlyPayment } from '../mock-server/kit/money.js';
import type { Listing } from '../mock-server/world/world.js';
import { readChosenFields } from '../mock-server/engine/chosen-fields.js';
import { FIRST_ACTIVE_LISTING } from '../mock-server/seed/seed.js';
import { serializeState } from '../mock-server/world/persistence.js';
import { LISTING_FIELDS } from '../src/contract/listing-fields.js';
import { WireListingFields } from '../src/contract/resources.js';
import { call, DAY, makeApp, order, START, tokenFor, type Answer } from './engine-fixture.js';

const open: MockApp[] = [];
afterEach(async () => {
  for (const a of open.splice(0)) await a.close?.().catch(() => undefined);
});
const app = (extra: Parameters<typeof makeApp>[0] = {}): MockApp => {
  const a = makeApp({ listings: 60, ...extra });
  open.push(a);
  return a;
};
const empty = (): MockApp => app({ listings: 0, history: 'none' });
const add = (a: MockApp, body: unknown): Promise<Answer> => call(a, 'POST', '/__mock/listings', { body });
const search = async (a: MockApp, query: string): Promise<Record<string, unknown>[]> => {
  const res = await call(a, 'GET', `/listingsvc/v2/listings?${query}`, { token: tokenFor(a, 'alice-1') });
  expect(res.status).toBe(200);
  return res.body.result as Record<string, unknown>[];
};
/** The world's state text, as a route reads it. */
const digest = (a: MockApp): string => {
  a.ctx.engine.settle();
  return serializeState(a.ctx.world, a.ctx.clock.now());
};

describe('adding', () => {
  test('to an empty world, nothing chosen: 201, the next number, active, fractional, unfunded, and the search answers it field for field', async () => {
    const a = empty();
    const res = await add(a, {});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      listing_number: FIRST_ACTIVE_LISTING,
      listing_status: 2,
      listing_status_reason: 'Active',
      investment_typeid: 1,
      amount_funded: 0,
      percent_funded: 0,
      verification_stage: 1,
      listing_creation_date: '2026-03-02 12:00:00 +0000',
      listing_start_date: '2026-03-02 12:00:00 +0000',
      // Fourteen days, shown as the 2025 answers show it: no listing_end_date before origination.
      listing_duration: 14,
      biddable: true,
      invested: false,
    });
    expect(res.body.amount_remaining).toBe(res.body.listing_amount);
    expect(await search(a, '')).toEqual([res.body]);
    expect((await add(a, {})).body.listing_number).toBe(FIRST_ACTIVE_LISTING + 1);
    expect(checkInvariants(a.ctx.world)).toEqual({ ok: true, violations: [] });
  });

  test('the chosen fields are the listing’s, the fields worked out from them follow, and the filters find it', async () => {
    const a = app();
    const chosen = {
      platform_rating: 'B',
      borrower_rate: 0.1234,
      fico_score: '760-779',
      listing_amount: 10_000,
      listing_term: 36,
      amount_remaining: 2_500,
      income_range: 4,
      employment_status_description: 'Employed',
      stated_monthly_income: 5_000,
      borrower_state: 'WA',
      has_mortgage: true,
      listing_category_id: 2,
      credit_bureau_values_bureau2_indexed: { at01s_credit_lines: 7, at02s_open_accounts: -4 },
    };
    const res = await add(a, chosen);
    expect(res.status).toBe(201);
    const l = res.body;
    const { credit_bureau_values_bureau2_indexed: bureau, ...plain } = chosen;
    expect(l).toMatchObject(plain);
    expect(l.credit_bureau_values_bureau2_indexed).toMatchObject({ ...bureau, fico_score: '760-779' });
    expect(l).toMatchObject({
      amount_funded: 7_500,
      percent_funded: 0.75,
      lender_yield: 0.1134,
      listing_monthly_payment: monthlyPayment(10_000, 0.1234, 36),
      income_range_description: '$50,000-74,999',
      listing_title: 'Home improvement',
    });
    const n = l.listing_number as number;
    const numbers = async (q: string): Promise<unknown[]> => (await search(a, `${q}&limit=500`)).map((x) => x.listing_number);
    const matching = [
      'platform_rating=B',
      'fico_score=760-779',
      'listing_term=36',
      'income_range=4',
      'borrower_state=WA',
      'has_mortgage=true',
      'borrower_rate_min=0.1234&borrower_rate_max=0.1234',
      'amount_remaining_min=2500&amount_remaining_max=2500',
      'percent_funded_min=0.75&percent_funded_max=0.75',
      'at01s_min=7&at01s_max=7',
    ];
    for (const q of matching) expect(await numbers(q), q).toContain(n);
    expect(await numbers(matching.join('&'))).toEqual([n]);
    for (const q of ['platform_rating=A', 'fico_score=800-819', 'listing_term=60', 'has_mortgage=false', 'borrower_rate_min=0.13']) {
      expect(await numbers(q), q).not.toContain(n);
    }
  });

  test('the example docs/mock.md gives is added as printed', async () => {
    const docs = readFileSync(new URL('../docs/mock.md', import.meta.url), 'utf8');
    const body = /__mock\/listings .*\n.*-d '(\{.*\})'/.exec(docs)?.[1];
    expect(body).toBeDefined();
    const res = await add(empty(), JSON.parse(body!));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(JSON.parse(body!) as object);
  });

  test('the rate alone picks its rating; the lender yield alone gives the rate; a listing number chosen is kept, the next free one follows it', async () => {
    const a = empty();
    expect((await add(a, { borrower_rate: 0.2 })).body).toMatchObject({ platform_rating: 'D', borrower_rate: 0.2, lender_yield: 0.19 });
    expect((await add(a, { lender_yield: 0.05 })).body).toMatchObject({ platform_rating: 'AA', borrower_rate: 0.06 });
    expect((await add(a, { listing_number: 12_345_678 })).body.listing_number).toBe(12_345_678);
    expect((await add(a, {})).body.listing_number).toBe(12_345_679);
    expect((await add(a, { listing_number: 5 })).body.listing_number).toBe(5);
    expect((await add(a, {})).body.listing_number).toBe(12_345_680);
  });

  test('each status the spec lists: Pending originates on a clock move, Completed is originated now (a loan, no notes), the ended ones stay', async () => {
    const a = empty();
    const byStatus = new Map<number, number>();
    // Numbers the operator does not cancel when they would originate (a fixed draw per listing).
    const numbers = Array.from({ length: 40 }, (_, i) => 20_000_000 + i).filter(
      (n) => !cancelledAtOrigination(a.ctx.world, { listing_number: n } as Listing),
    );
    for (const status of [2, 4, 5, 6, 7, 8]) {
      const res = await add(a, { listing_status: status, listing_amount: 4_000, listing_number: numbers.pop() });
      expect(res.status, String(status)).toBe(201);
      expect(res.body).toMatchObject({ listing_status: status, biddable: status === 2 });
      byStatus.set(status, res.body.listing_number as number);
    }
    const completed = a.ctx.world.listingByNumber.get(byStatus.get(6)!)!;
    expect(a.ctx.world.loans.get(completed.loan_number!)?.amount_borrowed).toBe(4_000);
    await call(a, 'POST', '/__mock/clock', { body: { advance: '4d' } });
    const pending = a.ctx.world.listingByNumber.get(byStatus.get(8)!)!;
    expect(pending.listing_status).toBe(6);
    for (const s of [4, 5, 7]) expect(a.ctx.world.listingByNumber.get(byStatus.get(s)!)!.listing_status).toBe(s);
    expect(checkInvariants(a.ctx.world)).toEqual({ ok: true, violations: [] });
  });

  test('bid on, placed, funded and originated on a clock move: the bid INVESTED, a note for the investor', async () => {
    const a = app();
    const token = tokenFor(a, 'alice-1');
    const added = await add(a, { listing_amount: 2_000, amount_funded: 1_500, verification_stage: 3, platform_rating: 'A' });
    const n = added.body.listing_number as number;
    const placed = await order(a, token, [{ listing_id: n, bid_amount: 25 }]);
    expect(placed.status).toBe(200);
    await call(a, 'POST', '/__mock/process');
    expect((await search(a, `listing_number=${n}`))[0]).toMatchObject({ amount_funded: 1_525, amount_participation: 25, invested: true });
    expect((await call(a, 'POST', '/__mock/clock', { body: { advance: '15d' } })).status).toBe(200);
    const after = await call(a, 'GET', `/v1/orders/${placed.body.order_id}`, { token });
    expect(after.body).toMatchObject({ order_status: 'COMPLETED', bid_requests: [{ listing_id: n, bid_status: 'INVESTED' }] });
    const originated = (await search(a, `listing_number=${n}&biddable=false`))[0]!;
    expect(originated).toMatchObject({ listing_status: 6, amount_participation: 25 });
    const notes = await call(a, 'GET', '/v1/notes?limit=100', { token });
    expect(notes.body.result.some((x: { listing_number: number }) => x.listing_number === n)).toBe(true);
    expect(checkInvariants(a.ctx.world)).toEqual({ ok: true, violations: [] });
  });

  test('deterministic: the same seed and the same calls add the same listings', async () => {
    const calls = [{}, { platform_rating: 'C' }, { income_range: 7 }, { listing_status: 8 }, { co_borrower_application: true }];
    const run = async (): Promise<unknown[]> => {
      const a = app();
      const out: unknown[] = [];
      for (const body of calls) out.push((await add(a, body)).body);
      return out;
    };
    const [first, second] = [await run(), await run()];
    expect(second).toEqual(first);
    expect(first[2]).toMatchObject({ income_range: 7, employment_status_description: 'Not employed', months_employed: 0 });
    expect(first[4]).toHaveProperty('combined_dti_wplatform_loan');
  });

  test('replayed from a --state folder after a restart: the same listing, the next number after it; a refused one left no trace', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'mkt-add-listing-')), 'world');
    const first = makeApp({ listings: 20, stateFile: dir });
    const added = await add(first, { platform_rating: 'E', listing_amount: 3_000 });
    expect((await add(first, { platform_rating: 'E', borrower_rate: 0.1 })).status).toBe(400);
    await first.ctx.durability.durable();
    const before = digest(first);
    await first.close?.();
    const second = app({ listings: 20, stateFile: dir });
    expect(digest(second)).toBe(before);
    expect(await search(second, `listing_number=${added.body.listing_number}`)).toEqual([added.body]);
    expect((await add(second, {})).body.listing_number).toBe((added.body.listing_number as number) + 1);
  });
});

test('added while a clock move is under way: at the day the move reached, and a restart from the --state folder rebuilds the same world', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'mkt-add-listing-')), 'world');
  const first = makeApp({ listings: 20, stateFile: dir });
  const moving = call(first, 'POST', '/__mock/clock', { body: { advance: '3d' } });
  // The move yields between its days: the listing is added between two of them.
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  const added = await add(first, { listing_amount: 8_000 });
  expect(added.status).toBe(201);
  expect((await moving).status).toBe(200);
  const created = Date.parse(String(added.body.listing_creation_date).replace(' ', 'T').replace(' +0000', 'Z'));
  expect(created).toBeGreaterThanOrEqual(START);
  expect(created).toBeLessThanOrEqual(START + 3 * DAY);
  expect(checkInvariants(first.ctx.world)).toEqual({ ok: true, violations: [] });
  await first.ctx.durability.durable();
  const before = digest(first);
  await first.close?.();
  expect(digest(app({ listings: 20, stateFile: dir }))).toBe(before);
});

describe('refusing', () => {
  const REFUSED: [string, unknown, string][] = [
    ['not an object', [1, 2], 'body: must be a JSON object'],
    ['an unknown field', { rating: 'A' }, 'rating: is not a field of a listing'],
    ['a wrong type', { listing_amount: '5000' }, 'listing_amount: must be a number'],
    ['a value outside its list', { fico_score: '850+' }, 'fico_score: must be one of'],
    ['N/A, the rating of old loans only', { platform_rating: 'N/A' }, 'platform_rating: must be one of'],
    ['a rate outside its rating’s band', { platform_rating: 'AA', borrower_rate: 0.2 }, "borrower_rate: 0.2 is outside rating AA's band"],
    ['a rate in no band', { borrower_rate: 0.14 }, "borrower_rate: 0.14 is in no rating's band"],
    ['a listing number in use', { listing_number: FIRST_ACTIVE_LISTING }, `listing_number: ${FIRST_ACTIVE_LISTING} is already`],
    [
      'a derived field that disagrees',
      { amount_remaining: 1000, listing_amount: 4000, percent_funded: 0.5 },
      'percent_funded: is worked out',
    ],
    ['an income outside its range', { income_range: 2, stated_monthly_income: 9000 }, 'stated_monthly_income: 9000 a month is outside'],
    ['employment against the range', { income_range: 7, employment_status_description: 'Employed' }, 'employment_status_description:'],
    ['an amount the marketplace does not lend', { listing_amount: 100 }, 'listing_amount: must be from 2000 to 35000'],
    ['funding above the amount', { listing_amount: 3000, amount_funded: 3500 }, 'amount_funded: must leave the funding'],
    ['a funded active whole loan', { investment_typeid: 2, amount_funded: 100 }, 'amount_funded: an active whole loan'],
    ['a Pending listing not funded', { listing_status: 8, amount_funded: 0 }, 'amount_funded: must be listing_amount'],
    ['a field the mock keeps', { loan_number: 5 }, 'loan_number: is given by origination'],
    ['a date not a date', { listing_start_date: 'yesterday' }, 'listing_start_date: must be a date-time'],
    ['an active listing already ended', { listing_start_date: '2026-02-01 00:00:00 +0000' }, 'listing_start_date: an active listing'],
    ['an APR below the rate', { platform_rating: 'HR', borrower_rate: 0.3, borrower_apr: 0.2 }, 'borrower_apr: must not be below'],
    ['a bureau element unknown', { credit_bureau_values_bureau2_indexed: { zz: 1 } }, 'credit_bureau_values_bureau2_indexed.zz:'],
    ['a bureau value out of range', { credit_bureau_values_bureau2_indexed: { at01s_credit_lines: -4 } }, 'at01s_credit_lines: must be'],
    ['combined figures without a co-borrower', { co_borrower_application: false, combined_dti_wplatform_loan: 0.2 }, 'combined_dti'],
  ];

  test.each(REFUSED)('%s: 400 VAL0001 naming the field and what is wrong, the world unchanged', async (_, body, message) => {
    const a = app();
    const before = digest(a);
    const res = await add(a, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VAL0001');
    expect(res.body.message).toContain(message);
    expect(digest(a)).toBe(before);
  });

  test('a body that is not JSON: 400 before any operation', async () => {
    const a = app();
    const before = digest(a);
    const res = await call(a, 'POST', '/__mock/listings', { body: '{"listing_amount": ', headers: { 'content-type': 'application/json' } });
    expect([res.status, res.body.message]).toEqual([400, 'body: is not valid JSON']);
    expect(digest(a)).toBe(before);
  });

  test('any map of fields, junk or plausible: a 400 leaves the world as it was; a 201 is a listing the invariants hold for', async () => {
    const a = app({ listings: 20, history: 'none' });
    const types = new Map(LISTING_FIELDS.map((f) => [f.name, f.type]));
    const names = [...types.keys(), 'rating', '__proto__', 'constructor', ''];
    const junk = fc.oneof(fc.jsonValue(), fc.string(), fc.double());
    // Mostly values of the field's own type, so that the checks of how fields fit together are reached too.
    const plausible = (name: string): fc.Arbitrary<unknown> => {
      const type = types.get(name);
      if (type === 'integer')
        return fc.oneof(fc.integer({ min: 0, max: 12 }), fc.constantFrom(24, 36, 60), fc.integer({ min: 9_999_990, max: 10_000_040 }));
      if (type === 'decimal')
        return fc.oneof(
          fc.integer({ min: 0, max: 40_000 }),
          fc.integer({ min: 0, max: 4000 }).map((n) => n / 10_000),
        );
      if (type === 'boolean') return fc.boolean();
      if (type === 'datetime') return fc.constantFrom('2026-03-02 12:00:00 +0000', '2026-02-20 00:00:00 +0000', '2026-03-10T00:00:00Z');
      return fc.constantFrom('B', 'HR', 'N/A', '760-779', 'Employed', 'Not employed', 'CA', 'Active', 'Whole');
    };
    const entry = fc
      .constantFrom(...names)
      .chain((name) => fc.tuple(fc.constant(name), fc.oneof({ weight: 4, arbitrary: plausible(name) }, junk)));
    const counts = { added: 0, refused: 0, fitting: 0 };
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(entry, { maxLength: 5, selector: ([k]) => k }), async (entries) => {
        const before = digest(a);
        const count = a.ctx.world.listings.length;
        const res = await add(a, Object.fromEntries(entries));
        if (res.status === 201) {
          counts.added++;
          expect(a.ctx.world.listings.length).toBe(count + 1);
          expect(checkInvariants(a.ctx.world).ok).toBe(true);
          return;
        }
        counts.refused++;
        expect([res.status, res.body.code]).toEqual([400, 'VAL0001']);
        // The field named plainly, or quoted where its name is not a plain word (a space or a colon would blur it).
        expect(res.body.message).toMatch(/^(?:[\w.]+|"[^"]*"|[\w.]+\["[^"]*"\]): \S/);
        // Refused for how the fields fit together, not for one field's type or list.
        if (!/: (must be (a |one of|in whole|true)|is not a field)/.test(res.body.message as string)) counts.fitting++;
        expect(digest(a)).toBe(before);
      }),
      // Found by a CI run: a bureau key of one space made `credit_bureau_values_bureau2_indexed. : …`.
      { numRuns: 200, examples: [[[['credit_bureau_values_bureau2_indexed', { ' ': [] }]]], [[['a b', 1]]], [[['', 1]]]] },
    );
    expect(counts.added).toBeGreaterThan(10);
    expect(counts.fitting).toBeGreaterThan(10);
  });

  test("each field a caller may give is taken only when the contract's schema takes it (dates aside: ISO 8601 is read too)", () => {
    const settable = LISTING_FIELDS.filter((f) => f.type !== 'datetime' && f.type !== 'object' && f.name in WireListingFields);
    expect(settable.length).toBeGreaterThan(60);
    const schemas = WireListingFields as Record<string, Parameters<typeof Value.Check>[0]>;
    fc.assert(
      fc.property(
        fc.constantFrom(...settable.map((f) => f.name)),
        fc.oneof(fc.jsonValue(), fc.integer({ min: -20, max: 20 }), fc.double({ noNaN: true }), fc.string(), fc.constant(null)),
        (name, v) => {
          let taken = true;
          try {
            readChosenFields({ [name]: v });
          } catch {
            taken = false;
          }
          if (taken) expect(Value.Check(schemas[name]!, v), `${name} ${JSON.stringify(v)}`).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('dates are read as the API writes them and as ISO 8601, and only those', () => {
    for (const t of ['2026-03-02 12:00:00 +0000', '2026-03-02T12:00:00Z', '2026-03-02 14:00:00 +0200', '2026-03-02T13:00:00+01:00']) {
      expect(readChosenFields({ listing_start_date: t }).fields.listing_start_date, t).toBe(Date.parse('2026-03-02T12:00:00Z'));
    }
    expect(readChosenFields({ listing_start_date: '2026-03-02' }).fields.listing_start_date).toBe(Date.parse('2026-03-02T00:00:00Z'));
    for (const t of ['02/03/2026', '2026-02-30 12:00:00 +0000', 1_772_452_800_000, '1999-01-01']) {
      expect(() => readChosenFields({ listing_start_date: t })).toThrow(/listing_start_date: must be/);
    }
  });
});

test('a day later the added listing has been visited by the market as any other (simulated investors fund it)', async () => {
  const a = empty();
  const n = (await add(a, { listing_amount: 20_000 })).body.listing_number as number;
  await call(a, 'POST', '/__mock/clock', { body: { advance: '1d' } });
  a.ctx.engine.settle();
  const l = a.ctx.world.listingByNumber.get(n)!;
  expect(l.amount_funded).toBeGreaterThan(0);
  expect(l.last_updated_date).toBeGreaterThan(a.ctx.clock.now() - DAY);
});
