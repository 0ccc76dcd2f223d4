/**
 * The webhook signature (mock-server/kit/webhook-signature.ts): what the mock signs verifies, under
 * the helper and under the three lines the docs give a receiver; anything else does not, and no
 * header, however odd, makes either throw.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseSignatureHeader, signatureHeader, verifySignature } from '../mock-server/kit/webhook-signature.js';

/** The receiver's three lines from the docs, with the clock passed in. */
function documented(header: string, body: string, secret: string, nowS: number): boolean {
  const { t = '', v1 = '' } = Object.fromEntries(header.split(',').map((kv) => kv.split('=', 2)));
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return Buffer.byteLength(v1) === 64 && timingSafeEqual(Buffer.from(v1), Buffer.from(expected)) && Math.abs(nowS - Number(t)) < 300;
}

const secret = fc.string({ minLength: 1, maxLength: 40 });
const body = fc.string({ maxLength: 200, unit: 'binary' });
const time = fc.integer({ min: 0, max: 4_000_000_000 });

describe('webhook signature', () => {
  test('a signed body verifies, under the helper and the documented lines, within the tolerance', () => {
    fc.assert(
      fc.property(secret, body, time, fc.integer({ min: -299, max: 299 }), (s, b, t, skew) => {
        const header = signatureHeader(s, t, b);
        expect(verifySignature(s, header, b, t + skew)).toBe(true);
        expect(documented(header, b, s, t + skew)).toBe(true);
        expect(parseSignatureHeader(header)).toEqual({ t, v1: [header.slice(header.indexOf('v1=') + 3)] });
      }),
    );
  });

  test('another body, secret or a time out of tolerance does not verify', () => {
    fc.assert(
      fc.property(secret, secret, body, body, time, (s1, s2, b1, b2, t) => {
        const header = signatureHeader(s1, t, b1);
        if (b1 !== b2) expect(verifySignature(s1, header, b2, t)).toBe(false);
        if (s1 !== s2) expect(verifySignature(s2, header, b1, t)).toBe(false);
        expect(verifySignature(s1, header, b1, t + 301)).toBe(false);
        expect(documented(header, b1, s1, t - 301)).toBe(false);
      }),
    );
  });

  test('any header text is read without throwing, and verifies only when it carries the right signature', () => {
    const part = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom('t=1', 'v1=', 't=', '=', ',', 't=99999999999999', `v1=${'a'.repeat(64)}`, `v1=${'é'.repeat(64)}`),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), body, (parts, b) => {
        const header = parts.join(',');
        const parsed = parseSignatureHeader(header);
        if (parsed) {
          expect(Number.isSafeInteger(parsed.t)).toBe(true);
          for (const v of parsed.v1) expect(v).toMatch(/^[0-9a-f]{64}$/);
        }
        expect(verifySignature('k', header, b, 1)).toBe(false);
        expect(documented(header, b, 'k', 1)).toBe(false);
      }),
    );
  });

  test('a header of several v1 (a secret being rotated) verifies when one of them is right; two t are refused', () => {
    const good = signatureHeader('new', 100, 'x');
    const old = signatureHeader('old', 100, 'x').split(',')[1]!;
    expect(verifySignature('new', `${good},${old}`, 'x', 100)).toBe(true);
    expect(verifySignature('new', `t=100,${old},${good.split(',')[1]}`, 'x', 100)).toBe(true);
    expect(parseSignatureHeader(`t=100,t=101,${old}`)).toBeNull();
    expect(verifySignature('new', ` t=100 , ${good.split(',')[1]} `, 'x', 100)).toBe(true);
  });
});
