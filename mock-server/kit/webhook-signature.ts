/**
 * The signature of the mock's webhooks (`Mkt-Signature: t=<unix seconds>,v1=<hex>`): the hex
 * HMAC-SHA256 of `t + "." + body` under the shared secret, the convention webhook receivers know.
 * Pure, so the parser is property-tested; receivers need none of it (README: three lines of Node).
 */
import { hmacSha256Hex, sameSecret } from './digest.js';

/** The header that carries the signature. */
export const SIGNATURE_HEADER = 'mkt-signature';
/** How far, by default, a signature's time may lie from the verifier's clock (seconds). */
export const DEFAULT_TOLERANCE_S = 300;

/** The hex HMAC-SHA256 of `t.body` under `secret`. */
export function signatureOf(secret: string, t: number, body: string): string {
  return hmacSha256Hex(secret, `${t}.${body}`);
}

/** The header's value for `body` sent at unix second `t`. */
export function signatureHeader(secret: string, t: number, body: string): string {
  return `t=${t},v1=${signatureOf(secret, t, body)}`;
}

/** A header read: its time and every v1 signature (several while a secret is being rotated); null when it is not one. */
export function parseSignatureHeader(header: string): { t: number; v1: string[] } | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    // A second t would make the signed text ambiguous: refuse rather than pick one.
    if (key === 't') {
      if (t !== null || !/^\d{1,12}$/.test(value)) return null;
      t = Number(value);
    } else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) v1.push(value);
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

/** Whether `header` signs `body` under `secret`, its time within `toleranceS` of `nowS` (unix seconds). */
export function verifySignature(secret: string, header: string, body: string, nowS: number, toleranceS = DEFAULT_TOLERANCE_S): boolean {
  const parsed = parseSignatureHeader(header);
  if (!parsed || Math.abs(nowS - parsed.t) > toleranceS) return false;
  const expected = signatureOf(secret, parsed.t, body);
  // Every candidate is compared (no early exit), in constant time.
  let ok = false;
  for (const v of parsed.v1) ok = sameSecret(v, expected) || ok;
  return ok;
}
