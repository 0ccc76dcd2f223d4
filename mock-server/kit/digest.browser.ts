/**
 * The browser build's twin of `digest.ts` (scripts/bundle-browser.mjs takes it in its place): the same
 * functions, the same strings for the same text, from @noble/hashes (synchronous, as every caller is) and
 * `crypto.getRandomValues`. Node never loads it but in test/digest-twins.test.ts, which compares the two.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha1 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** Base64 of `bytes`; base64url (no padding) when `url`, as Node's Buffer writes them. */
function base64(bytes: Uint8Array, url: boolean): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  const text = btoa(binary);
  return url ? text.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '') : text;
}

/** `n` bytes from the platform's CSPRNG. */
function random(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

/** The hex SHA-256 of `text`. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** The base64 (with padding) SHA-256 of `text`: a Content-Security-Policy hash source. */
export function sha256Base64(text: string): string {
  return base64(sha256(utf8ToBytes(text)), false);
}

/** The base64url (no padding) SHA-256 of `text`. */
export function sha256Base64url(text: string): string {
  return base64(sha256(utf8ToBytes(text)), true);
}

/** The hex SHA-1 of `text` (not for secrets: an identifier the spec shows as 40 hex digits). */
export function sha1Hex(text: string): string {
  return bytesToHex(sha1(utf8ToBytes(text)));
}

/** The hex HMAC-SHA256 of `text` under the key `key` (both UTF-8). */
export function hmacSha256Hex(key: string, text: string): string {
  return bytesToHex(hmac(sha256, utf8ToBytes(key), utf8ToBytes(text)));
}

/** `bytes` random bytes from the platform's CSPRNG, base64url. */
export function randomBase64url(bytes: number): string {
  return base64(random(bytes), true);
}

/** `bytes` random bytes from the platform's CSPRNG, hex. */
export function randomHex(bytes: number): string {
  return bytesToHex(random(bytes));
}

/**
 * Whether two secrets are the same, in a time that tells nothing of where they differ: their SHA-256
 * digests (one length whatever was given) compared byte by byte without an early exit.
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = sha256(utf8ToBytes(given));
  const b = sha256(utf8ToBytes(expected));
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
