import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { OFFER_ASSERTIONS, OFFER_ERRORS } from '../src/contract/errors.js';
import { applicantWith, fixture, validApplicant } from './fixtures/offers/applicants.js';
import { CASES } from './fixtures/offers/cases.js';
import { issueTestToken, testMockApp } from './helpers/mock.js';

const START = Date.parse('2026-01-01T00:00:00Z');
const URL_OFFERS = 'http://mock.test/v1/marketplace/application/offers';

let app: MockApp;
let token: string;
beforeEach(() => {
  app = testMockApp({ frozen: true, start: START, listings: 50 });
  token = issueTestToken(app);
});

async function post(body: unknown, headers: Record<string, string> = { authorization: `bearer ${token}` }) {
  const res = await app.handle(
    new Request(URL_OFFERS, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const codes = (b: Record<string, any>): string[] => (b.errors ?? []).map((e: { code: string }) => e.code);
const assertionCodes = (b: Record<string, any>): string[] =>
  (b.errors ?? []).flatMap((e: { assertions?: { code: string }[] }) => (e.assertions ?? []).map((a) => a.code));

describe('POST /marketplace/application/offers: one applicant per code', () => {
  it.each(CASES)('%s', async (_what, changes, errors, assertions) => {
    const { status, body } = await post(applicantWith(changes));
    expect(status).toBe(200);
    expect(codes(body)).toEqual(errors);
    expect(assertionCodes(body)).toEqual(assertions);
    expect(body.offers).toEqual([]);
    expect(body.referral_code).toBeUndefined();
    for (const e of body.errors) {
      expect(e.message).toContain(OFFER_ERRORS[e.code]!.message);
      for (const a of e.assertions ?? []) expect(a.message).toContain(OFFER_ASSERTIONS[a.code]);
    }
  });

  it('the table produces every assertion code and every HTTP 200 error code', () => {
    expect(new Set(CASES.flatMap((c) => c[3]))).toEqual(new Set(Object.keys(OFFER_ASSERTIONS)));
    const ok200 = Object.keys(OFFER_ERRORS).filter((c) => OFFER_ERRORS[c]!.status === 200);
    expect(new Set(CASES.flatMap((c) => c[2]))).toEqual(new Set(ok200));
  });
});

describe('POST /marketplace/application/offers: several problems at once', () => {
  it('reports every problem of the several-problems file in one response', async () => {
    const { status, body } = await post(fixture('several-problems.json'));
    expect(status).toBe(200);
    expect(codes(body)).toEqual(['MKTPL-1012', 'MKTPL-1006']);
    expect(assertionCodes(body)).toEqual([
      'MKTPL-1012-102',
      'MKTPL-1012-111',
      'MKTPL-1012-122',
      'MKTPL-1012-142',
      'MKTPL-1012-151',
      'MKTPL-1012-161',
      'MKTPL-1012-173',
      'MKTPL-1012-181',
      'MKTPL-1012-202',
      'MKTPL-1012-211',
      'MKTPL-1012-222',
      'MKTPL-1012-232',
      'MKTPL-1012-243',
      'MKTPL-1012-261',
      'MKTPL-1012-271',
      'MKTPL-1012-282',
      'MKTPL-1012-292',
    ]);
  });

  it('judges eligibility on what parsed, so a bad zip code does not hide the state, the age or a known borrower', async () => {
    const { body } = await post(
      applicantWith({
        'address_info.state': 'WV',
        'address_info.zip_code': 'x',
        'personal_info.date_of_birth': '06/30/2010',
        'personal_info.ssn': '555001234',
      }),
    );
    expect(codes(body)).toEqual(['MKTPL-1012', 'MKTPL-1006', 'MKTPL-1007', 'MKTPL-100']);
    expect(assertionCodes(body)).toEqual(['MKTPL-1012-173', 'MKTPL-1012-232']);
  });

  it('treats a required object that is missing as all its required elements missing', async () => {
    const body = validApplicant();
    delete body.loan_info;
    delete body.personal_info;
    body.employment_info = 'full time';
    const res = await post(body);
    expect(assertionCodes(res.body)).toEqual([
      'MKTPL-1012-101',
      'MKTPL-1012-111',
      'MKTPL-1012-131',
      'MKTPL-1012-171',
      'MKTPL-1012-281',
      'MKTPL-1012-291',
    ]);
  });
});

describe('POST /marketplace/application/offers: edges that are accepted', () => {
  it('counts age on the mock clock: one day short of 18 is under age', async () => {
    const { body } = await post(applicantWith({ 'personal_info.date_of_birth': '01/02/2008' }));
    expect(codes(body)).toEqual(['MKTPL-1006']);
  });

  it.each([
    ['the applicant turns 18 today', { 'personal_info.date_of_birth': '01/01/2008' }],
    ['MM-dd-yyyy dates', { 'personal_info.date_of_birth': '02-03-1990' }],
    ['a 5+4 zip code without a dash', { 'address_info.zip_code': '733010001' }],
    ['no credit score at all (priced as fair)', { 'loan_info.self_reported_credit_score': undefined }],
    ['amount exactly at the state limit', { 'address_info.state': 'MA', 'loan_info.loan_amount': 25000 }],
    ['amounts as plain digit strings', { 'loan_info.loan_amount': '2000.00', 'employment_info.annual_income': '85000' }],
    ['a client_reference_id of exactly 255 characters', { 'identification.client_reference_id': 'x'.repeat(255) }],
    ['no bank_account_info (optional)', { bank_account_info: undefined }],
  ])('%s', async (_what, changes) => {
    const { status, body } = await post(applicantWith(changes));
    expect(status).toBe(200);
    expect(body.errors).toEqual([]);
    expect(body.offers.length).toBeGreaterThan(0);
  });
});

describe('POST /marketplace/application/offers: partner code and request shape', () => {
  it.each([
    ['partner code left out', { 'identification.partner_source_code': undefined }, 'MKTPL-1001'],
    ['partner code empty', { 'identification.partner_source_code': '' }, 'MKTPL-1001'],
    ['identification left out', { identification: undefined }, 'MKTPL-1001'],
    ['partner code unknown', { 'identification.partner_source_code': 'PARTNER-NOPE' }, 'MKTPL-1004'],
    ['partner code expired', { 'identification.partner_source_code': 'PARTNER-EXPIRED' }, 'MKTPL-1004'],
    ['partner code not a string', { 'identification.partner_source_code': 42 }, 'MKTPL-1004'],
  ])('%s → 401 %s', async (_what, changes, code) => {
    const { status, body } = await post(applicantWith(changes));
    expect(status).toBe(401);
    expect(codes(body)).toEqual([code]);
  });

  it('checks the partner code before the applicant data', async () => {
    const { status, body } = await post({ identification: { partner_source_code: 'PARTNER-EXPIRED' } });
    expect(status).toBe(401);
    expect(codes(body)).toEqual(['MKTPL-1004']);
  });

  it('needs the bearer header', async () => {
    const { status, body } = await post(validApplicant(), {});
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_token');
  });

  it.each([
    ['not JSON', '{"loan_info": '],
    ['empty', ''],
    ['a JSON array', '[1, 2]'],
    ['a JSON string', '"hello"'],
    ['null', 'null'],
  ])('answers a body that is %s with 400 VAL0001, never 500', async (_what, text) => {
    const { status, body } = await post(text);
    expect(status).toBe(400);
    expect(body.code).toBe('VAL0001');
    expect(body.errors[0].code).toBe('VAL0001');
  });

  it.each([
    ['longer than 255 characters', 'x'.repeat(256)],
    ['not a string', 12345],
  ])('answers a client_reference_id %s with 400 naming the field', async (_what, ref) => {
    const { status, body } = await post(applicantWith({ 'identification.client_reference_id': ref }));
    expect(status).toBe(400);
    expect(body.message).toContain('identification.client_reference_id');
  });
});

describe('offers and their pages', () => {
  it('echoes identification and gives a referral code unique per response, part of every offer URL', async () => {
    const first = (await post(validApplicant())).body;
    const second = (await post(validApplicant())).body;
    expect(first.identification).toEqual({ client_reference_id: 'campaign-2026-spring', partner_source_code: 'PARTNER-DEMO' });
    expect(first.referral_code).not.toBe(second.referral_code);
    for (const r of [first, second]) {
      expect(r.offers_url).toContain(r.referral_code);
      for (const o of r.offers) expect(o.offer_url).toContain(r.referral_code);
    }
    const ids = [...first.offers, ...second.offers].map((o: { id: number }) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('leaves client_reference_id out of the echo when the partner sent none', async () => {
    const { body } = await post(applicantWith({ 'identification.client_reference_id': undefined }));
    expect(body.identification).toEqual({ partner_source_code: 'PARTNER-DEMO' });
  });

  it('serves an HTML page on offers_url and on each offer_url, naming the offers', async () => {
    const { body } = await post(validApplicant());
    const list = await app.handle(new Request(body.offers_url));
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await list.text();
    for (const o of body.offers) expect(html).toContain(`Offer ${o.id}`);
    const one = body.offers[1];
    const page = await app.handle(new Request(one.offer_url));
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain(`Offer ${one.id}`);
    expect(text).toContain(`${one.loan_term_in_months} months`);
    expect(text).not.toContain(`Offer ${body.offers[0].id}<`);
  });

  it('answers an unknown referral code or offer id with a 404 page', async () => {
    const { body } = await post(validApplicant());
    expect((await app.handle(new Request('http://mock.test/apply/offers/NOPE'))).status).toBe(404);
    expect((await app.handle(new Request(`${body.offers_url}/1`))).status).toBe(404);
  });

  it('escapes the applicant name on the pages', async () => {
    const { body } = await post(applicantWith({ 'personal_info.first_name': "O'Neil" }));
    const html = await (await app.handle(new Request(body.offers_url))).text();
    expect(html).toContain('O&#39;Neil');
  });
});

describe('POST /marketplace/application/offers: never a 500', () => {
  const OBJECTS = ['loan_info', 'personal_info', 'address_info', 'contact_info', 'employment_info', 'identification'];

  it('answers any JSON body with 200, 400 or 401', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const { status } = await post(JSON.stringify(value));
        expect([200, 400, 401]).toContain(status);
      }),
      { numRuns: 200 },
    );
  });

  it('answers any value in any applicant field with 200 and a well-formed errors array, or offers', async () => {
    const field = fc
      .constantFrom(...OBJECTS.filter((o) => o !== 'identification'))
      .chain((obj) => fc.tuple(fc.constant(obj), fc.constantFrom(...Object.keys(validApplicant()[obj])), fc.jsonValue()));
    await fc.assert(
      fc.asyncProperty(fc.array(field, { minLength: 1, maxLength: 6 }), async (changes) => {
        const { status, body } = await post(applicantWith(Object.fromEntries(changes.map(([o, k, v]) => [`${o}.${k}`, v]))));
        expect(status).toBe(200);
        if (body.errors.length === 0) expect(body.offers.length).toBeGreaterThan(0);
        for (const e of body.errors) {
          expect(OFFER_ERRORS[e.code]).toBeDefined();
          for (const a of e.assertions ?? []) expect(OFFER_ASSERTIONS[a.code]).toBeDefined();
        }
      }),
      { numRuns: 300 },
    );
  });
});
