/**
 * Bid amounts read from the JSON text: the two-decimal rule sees the number as the client spelled it,
 * not the double JSON.parse rounds it to (`24.999999999999999` was taken as 25.00).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decimalPlaces, numberTexts } from '../mock-server/kit/json-numbers.js';
import { call, makeApp, plainListings, tokenFor } from './engine-fixture.js';

/** The oracle: the decimal places of a token's exact value, by BigInt arithmetic on its digits. */
function exactPlaces(token: string): number {
  const m = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(token)!;
  let digits = BigInt(`${m[1]}${m[2] ?? ''}`);
  let scale = (m[2] ?? '').length - Number(m[3] ?? '0'); // value = digits / 10^scale
  if (digits === 0n) return 0;
  while (scale > 0 && digits % 10n === 0n) {
    digits /= 10n;
    scale--;
  }
  return Math.max(0, scale);
}

/** A spelling of the amount `cents / 100`: plain with `zeros` trailing zeros, or with an exponent shifting the point. */
const spelling = (minCents = 0) =>
  fc
    .record({
      cents: fc.integer({ min: minCents, max: 10_000_000 }),
      zeros: fc.integer({ min: 0, max: 4 }),
      shift: fc.integer({ min: -3, max: 3 }),
      exp: fc.boolean(),
      upper: fc.boolean(),
    })
    .map(({ cents, zeros, shift, exp, upper }) => {
      const plain = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}${'0'.repeat(zeros)}`;
      if (!exp) return plain;
      // Move the point `shift` places and say so in the exponent: the same value.
      const [int, frac] = plain.split('.') as [string, string];
      const all = int + frac;
      const point = int.length + shift;
      const mantissa =
        point <= 0
          ? `0.${'0'.repeat(-point)}${all}`
          : point >= all.length
            ? all + '0'.repeat(point - all.length)
            : `${all.slice(0, point)}.${all.slice(point)}`;
      return `${mantissa.replace(/^0+(?=\d)/, '')}${upper ? 'E' : 'e'}${-shift}`;
    });

/** A JSON number token of any value. */
const anyToken = fc
  .tuple(
    fc.boolean(),
    fc.bigInt({ min: 0n, max: 10n ** 30n }),
    fc.option(fc.stringMatching(/^\d{1,20}$/), { nil: undefined }),
    fc.option(fc.integer({ min: -30, max: 30 }), { nil: undefined }),
  )
  .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}${exp === undefined ? '' : `e${exp}`}`);

describe('decimalPlaces: the places of the exact value a number token spells', () => {
  test.each([
    ['25', 0],
    ['25.0', 0],
    ['25.00', 0],
    ['25.000', 0],
    ['2.5e1', 0],
    ['2500e-2', 0],
    ['25.10', 1],
    ['25.01', 2],
    ['25.001', 3],
    ['24.999999999999999', 15],
    ['0.1e-1', 2],
    ['1E2', 0],
    ['-25.5', 1],
    ['0.000', 0],
  ])('%s has %i', (token, places) => {
    expect(decimalPlaces(token)).toBe(places);
  });

  test('agrees with exact arithmetic on any token, and refuses what is not a token', () => {
    fc.assert(
      fc.property(anyToken, (t) => decimalPlaces(t) === exactPlaces(t)),
      { numRuns: 2000 },
    );
    for (const bad of ['', '+1', '01', '1.', '.5', '1e', '0x10', 'NaN', '25 ', 'Infinity']) expect(decimalPlaces(bad)).toBeNull();
  });

  test('an amount of whole cents has at most 2 places however it is spelled', () => {
    fc.assert(
      fc.property(spelling(), (t) => {
        expect(decimalPlaces(t)).toBeLessThanOrEqual(2);
        expect(Math.abs(Number(t) * 100 - Math.round(Number(t) * 100))).toBeLessThan(1e-6);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('numberTexts: the body as JSON.parse reads it, each number as its token', () => {
  test("has the shape JSON.parse gives, with the tokens in the numbers' places", () => {
    const toTokens = (v: unknown): unknown =>
      typeof v === 'number'
        ? 'num'
        : Array.isArray(v)
          ? v.map(toTokens)
          : v !== null && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toTokens(x)]))
            : v;
    const asNum = (v: unknown): unknown =>
      typeof v === 'string' && /^-?\d/.test(v)
        ? 'num'
        : Array.isArray(v)
          ? v.map(asNum)
          : v !== null && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asNum(x)]))
            : v;
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (v, pretty) => {
        const text = JSON.stringify(v, null, pretty ? 2 : undefined);
        // Strings that look like numbers would be counted as numbers by asNum: compare numbers only where JSON.parse has them.
        const parsed = JSON.parse(text) as unknown;
        const tokens = numberTexts(text);
        expect(asNum(JSON.parse(JSON.stringify(tokens)))).toEqual(asNum(toTokens(parsed)));
      }),
      { numRuns: 500 },
    );
    expect(numberTexts('{"bid_requests":[{"listing_id":7,"bid_amount":24.999999999999999}],"__proto__":{"a":2.50}}')).toEqual(
      Object.assign(Object.create(null), {
        bid_requests: [Object.assign(Object.create(null), { listing_id: '7', bid_amount: '24.999999999999999' })],
        ['__proto__']: Object.assign(Object.create(null), { a: '2.50' }),
      }),
    );
  });

  test('takes a body nested as deep as JSON.parse does without overflowing the stack', () => {
    const deep = `${'['.repeat(200_000)}1${']'.repeat(200_000)}`;
    expect(() => numberTexts(deep)).not.toThrow();
  });
});

describe('POST /orders reads bid_amount from the text', () => {
  const app = makeApp();
  const alice = tokenFor(app, 'alice-1');
  const listings = plainListings(app);
  const post = (listing: number, amount: string) =>
    call(app, 'POST', '/v1/orders', { token: alice, body: `{"bid_requests":[{"listing_id":${listing},"bid_amount":${amount}}]}` });

  test.each(['25', '25.0', '25.00', '25.000', '2.5e1', '2500E-2'])('%s is a bid of 25.00', async (amount) => {
    const listing = listings.shift()!.listing_number;
    const res = await post(listing, amount);
    expect(res.status).toBe(200);
    expect(res.body.bid_requests[0].bid_amount).toBe(25);
  });

  test.each(['24.999999999999999', '25.000000000000001', '25.001', '2.5001e1'])(
    '%s is ORD0005 naming the amount as sent',
    async (amount) => {
      const res = await post(listings[0]!.listing_number, amount);
      expect([res.status, res.body.code]).toEqual([400, 'ORD0005']);
      expect(res.body.message).toContain(`got ${amount}.`);
    },
  );

  test('any spelling of whole cents is taken at its value; a spelling with more places is refused', async () => {
    const listing = listings[0]!.listing_number;
    await fc.assert(
      fc.asyncProperty(spelling(2500), fc.integer({ min: 0, max: 14 }), fc.integer({ min: 1, max: 9 }), async (t, zeros, extra) => {
        // A taken amount may still fail later (on cash or the listing amount), never on its decimals.
        expect((await post(listing, t)).body.code).not.toBe('ORD0005');
        if (/[eE]/.test(t)) return;
        // The same amount with a non-zero digit past the second decimal, however far: refused.
        const more = `${t.slice(0, t.indexOf('.') + 3)}${'0'.repeat(zeros)}${extra}`;
        expect((await post(listing, more)).body.code).toBe('ORD0005');
      }),
      { numRuns: 150 },
    );
  });
});
