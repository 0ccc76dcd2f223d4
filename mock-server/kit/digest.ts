/**
 * The mock's one door to hashing and randomness (SHA-256, SHA-1, HMAC-SHA256, random tokens, a constant-time
 * compare): node:crypto here, so that Node stays fast (a payment row hashes its match-back id); the browser
 * build takes `digest.browser.ts` instead (@noble/hashes and `crypto.getRandomValues`), which gives the same
 * strings for the same text (test/digest-twins.test.ts). Text is hashed as UTF-8, a lone surrogate as U+FFFD.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The hex SHA-256 of `text`. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The base64 (with padding) SHA-256 of `text`: a Content-Security-Policy hash source. */
export function sha256Base64(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

/** The base64url (no padding) SHA-256 of `text`. */
export function sha256Base64url(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}

/** The hex SHA-1 of `text` (not for secrets: an identifier the spec shows as 40 hex digits). */
export function sha1Hex(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

/** The hex HMAC-SHA256 of `text` under the key `key` (both UTF-8). */
export function hmacSha256Hex(key: string, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

/** `bytes` random bytes from the system's CSPRNG, base64url. */
export function randomBase64url(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** `bytes` random bytes from the system's CSPRNG, hex. */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/**
 * Whether two secrets are the same, in a time that tells nothing of where they differ: their SHA-256
 * digests (one length whatever was given) compared in constant time.
 */
export function sameSecret(given: string, expected: string): boolean {
  const h = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(h(given), h(expected));
}
