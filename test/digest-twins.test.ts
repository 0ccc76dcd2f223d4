/**
 * The two doors to hashing and randomness (mock-server/kit/digest.ts under Node, digest.browser.ts in the
 * browser build) give the same strings for the same text: a world built in a page shows the digests, ids and
 * passwords the same world shows under Node. Text of any code points, lone surrogates included.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as browser from '../mock-server/kit/digest.browser.js';
import * as node from '../mock-server/kit/digest.js';

// The twin offers every function of the Node module, with the same types (a compile-time check).
const twin: typeof node = browser;

const text = fc.oneof(fc.string({ maxLength: 300, unit: 'binary' }), fc.string({ maxLength: 300, unit: 'grapheme' }), fc.string());

describe('digest twins', () => {
  test('the same names on both sides', () => {
    expect(Object.keys(twin).sort()).toEqual(Object.keys(node).sort());
  });

  test('SHA-256 (hex, base64, base64url), SHA-1 and HMAC-SHA256 give the same strings', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(browser.sha256Hex(a)).toBe(node.sha256Hex(a));
        expect(browser.sha256Base64(a)).toBe(node.sha256Base64(a));
        expect(browser.sha256Base64url(a)).toBe(node.sha256Base64url(a));
        expect(browser.sha1Hex(a)).toBe(node.sha1Hex(a));
        expect(browser.hmacSha256Hex(a, b)).toBe(node.hmacSha256Hex(a, b));
      }),
      { numRuns: 300 },
    );
  });

  test('a secret compares the same on both sides: equal to itself, unequal to any other text', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        for (const side of [node, browser]) {
          expect(side.sameSecret(a, a)).toBe(true);
          expect(side.sameSecret(a, b)).toBe(a === b || node.sha256Hex(a) === node.sha256Hex(b));
        }
      }),
    );
  });

  test('random tokens have the length and alphabet of their encoding, and differ', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), (n) => {
        for (const side of [node, browser]) {
          const url = side.randomBase64url(n);
          expect(url).toMatch(/^[A-Za-z0-9_-]+$/);
          expect(url).toHaveLength(Math.ceil((n * 4) / 3));
          expect(side.randomHex(n)).toMatch(new RegExp(`^[0-9a-f]{${n * 2}}$`));
        }
      }),
    );
    // 24 random bytes twice alike would be a broken source.
    expect(browser.randomBase64url(24)).not.toBe(browser.randomBase64url(24));
    expect(browser.randomHex(24)).not.toBe(browser.randomHex(24));
  });
});
