import { beforeAll, describe, expect, it } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import type { Offer } from '../mock-server/world/world.js';
import { applicantWith } from './fixtures/offers/applicants.js';
import { issueTestToken, testMockApp } from './helpers/mock.js';

// Written here on purpose, not imported from the code under test: P·i·(1+i)^n / ((1+i)^n − 1).
function amortisedPayment(principal: number, annualRate: number, months: number): number {
  const i = annualRate / 12;
  const growth = (1 + i) ** months;
  return (principal * i * growth) / (growth - 1);
}

/** Balance left after paying `payment` for `months` months on `principal` at `annualRate`. */
function balanceAfter(principal: number, annualRate: number, months: number, payment: number): number {
  let balance = principal;
  for (let m = 0; m < months; m++) balance = balance * (1 + annualRate / 12) - payment;
  return balance;
}

let app: MockApp;
beforeAll(() => {
  app = testMockApp({ frozen: true, start: Date.parse('2026-01-01T00:00:00Z'), listings: 50 });
});

async function offersFor(score: number | undefined, amount: number, income: number): Promise<Offer[]> {
  const body = applicantWith({
    'loan_info.self_reported_credit_score': score,
    'loan_info.loan_amount': amount,
    'employment_info.annual_income': income,
  });
  const res = await app.handle(
    new Request('http://mock.test/v1/marketplace/application/offers', {
      method: 'POST',
      headers: { authorization: `bearer ${issueTestToken(app)}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  const json = (await res.json()) as { offers: Offer[]; errors: unknown[] };
  expect(json.errors).toEqual([]);
  return json.offers;
}

const GRID: Array<[number, number, number]> = [];
for (const score of [1, 2, 3, 4, 5]) {
  for (const amount of [2000, 7777.77, 20000, 35000]) {
    for (const income of [60_000, 150_000]) GRID.push([score, amount, income]);
  }
}

describe('offer arithmetic', () => {
  it.each(GRID)('score %i, amount %d, income %d: payments match the amortisation formula to the cent', async (score, amount, income) => {
    const offers = await offersFor(score, amount, income);
    expect(offers.length).toBeGreaterThan(0);
    for (const o of offers) {
      expect(Number.isInteger(o.loan_amount)).toBe(true);
      expect(o.loan_amount).toBeGreaterThan(amount);
      expect(o.origination_fee).toBeCloseTo(o.loan_amount - amount, 2);
      expect(o.loan_term_in_years).toBe(o.loan_term_in_months / 12);
      expect(Math.round(o.monthly_payment * 100)).toBeCloseTo(o.monthly_payment * 100, 6);
      expect(o.monthly_payment).toBeCloseTo(amortisedPayment(o.loan_amount, o.loan_rate, o.loan_term_in_months), 2);
      expect(Math.abs(balanceAfter(o.loan_amount, o.loan_rate, o.loan_term_in_months, o.monthly_payment))).toBeLessThan(1);
      // The APR is the rate at which the same payment repays only what the borrower receives (4 decimals).
      expect(o.apr).toBeGreaterThan(o.loan_rate);
      expect(amortisedPayment(amount, o.apr - 0.00005, o.loan_term_in_months)).toBeLessThanOrEqual(o.monthly_payment);
      expect(amortisedPayment(amount, o.apr + 0.00005, o.loan_term_in_months)).toBeGreaterThanOrEqual(o.monthly_payment);
      expect(o.monthly_payment).toBeLessThanOrEqual((income / 12) * 0.35);
    }
  });

  it('offers 3- and 5-year terms to a good applicant, all at one loan amount', async () => {
    const offers = await offersFor(1, 10_000, 90_000);
    const terms = offers.map((o) => o.loan_term_in_months);
    expect(terms).toEqual(expect.arrayContaining([36, 60]));
    expect(new Set(offers.map((o) => o.loan_amount)).size).toBe(1);
  });

  it('grosses the amount up by the band fee so the borrower receives what was asked for', async () => {
    const [excellent] = await offersFor(1, 10_000, 90_000);
    expect(excellent!.loan_amount).toBe(Math.ceil(10_000 / (1 - 0.0241)));
    const [fair] = await offersFor(4, 9_500, 90_000);
    expect(fair!.loan_amount).toBe(10_000);
    expect(fair!.origination_fee).toBe(500);
  });

  it('prices the same applicant the same way every time (only ids and links differ)', async () => {
    const strip = (os: Offer[]) => os.map(({ id: _id, offer_url: _u, ...rest }) => rest);
    expect(strip(await offersFor(3, 12_345.67, 70_000))).toEqual(strip(await offersFor(3, 12_345.67, 70_000)));
  });

  it('charges less for a better credit score, a higher income and a shorter term', async () => {
    const rate36 = async (score: number, income: number, amount = 10_000) =>
      (await offersFor(score, amount, income)).find((o) => o.loan_term_in_months === 36)!.loan_rate;
    const byScore = [];
    for (const s of [1, 2, 3, 4, 5]) byScore.push(await rate36(s, 90_000));
    expect([...byScore].sort((a, b) => a - b)).toEqual(byScore);
    expect(new Set(byScore).size).toBe(5);
    expect(await rate36(2, 150_000)).toBeLessThan(await rate36(2, 90_000));
    expect(await rate36(2, 90_000)).toBeLessThan(await rate36(2, 30_000));
    expect(await rate36(2, 90_000, 25_000)).toBeGreaterThan(await rate36(2, 90_000, 10_000));
    const offers = await offersFor(2, 10_000, 90_000);
    const rates = offers.map((o) => o.loan_rate);
    expect([...rates].sort((a, b) => a - b)).toEqual(rates);
  });

  it('prices an applicant without a credit score like a fair score (4)', async () => {
    const strip = (os: Offer[]) => os.map((o) => [o.loan_rate, o.loan_amount, o.monthly_payment]);
    expect(strip(await offersFor(undefined, 10_000, 90_000))).toEqual(strip(await offersFor(4, 10_000, 90_000)));
  });

  it('drops the terms whose payment is above 35% of monthly income, shortest first', async () => {
    const all = await offersFor(2, 35_000, 150_000);
    const some = await offersFor(2, 35_000, 45_000);
    expect(all.map((o) => o.loan_term_in_months)).toEqual([24, 36, 48, 60]);
    expect(some.length).toBeLessThan(all.length);
    expect(some.map((o) => o.loan_term_in_months)).toContain(60);
    expect(some.map((o) => o.loan_term_in_months)).not.toContain(24);
  });
});
