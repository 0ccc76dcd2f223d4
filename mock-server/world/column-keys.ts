/**
 * Columns of keys (column-kinds.ts `key`): a value per row of upper-case hex digits of one even width (the member
 * key: 24 digits), held as bytes, 12 a row instead of a string on the heap and a pointer to it. How such a value
 * is told, stored and read back.
 */
/** The longest key a column of keys holds. */
const MAX_KEY = 64;

/**
 * Whether `v` is a key a column of keys of `width` holds: a string of `width` upper-case hex digits
 * (the member key: 24 digits, 12 bytes a row instead of a string on the heap and a pointer to it).
 */
export function isKey(v: unknown, width: number): v is string {
  if (typeof v !== 'string' || v.length !== width) return false;
  for (let k = 0; k < width; k++) {
    const c = v.charCodeAt(k);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 70))) return false;
  }
  return true;
}

/** The width of a column of keys holding `values` (all of one even width, hex digits only), or 0 if there is none. */
export function keyWidth(values: readonly unknown[]): number {
  const first = values[0];
  const width = typeof first === 'string' ? first.length : 0;
  return width > 0 && width <= MAX_KEY && width % 2 === 0 && values.every((v) => isKey(v, width)) ? width : 0;
}

const nibble = (c: number) => (c <= 57 ? c - 48 : c - 55);

/** Stores key `v` (`isKey(v, width)`) in row `i` of a column of keys' data. */
export function putKey(d: Uint8Array, i: number, width: number, v: string): void {
  const o = i * (width >> 1);
  for (let k = 0; k < width; k += 2) d[o + (k >> 1)] = (nibble(v.charCodeAt(k)) << 4) | nibble(v.charCodeAt(k + 1));
}

/** A hex digit's value (upper case, as `isKey` takes them), or -1. */
const digitOf = (c: number) => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : -1);

/**
 * `isKey` and `putKey` in one pass, each digit read once (compiled code stores a member key per listing: the two
 * passes were a third of copying a listing into its row). False when `v` is no key of `width`: row `i` may then hold
 * part of it, and the caller's slow path, which widens the column and writes the row whole, puts it right.
 */
export function storeKey(d: Uint8Array, i: number, width: number, v: unknown): boolean {
  if (typeof v !== 'string' || v.length !== width) return false;
  const o = i * (width >> 1);
  for (let k = 0; k < width; k += 2) {
    const hi = digitOf(v.charCodeAt(k));
    const lo = digitOf(v.charCodeAt(k + 1));
    if ((hi | lo) < 0) return false;
    d[o + (k >> 1)] = (hi << 4) | lo;
  }
  return true;
}

const HEX_DIGIT = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 65, 66, 67, 68, 69, 70];
/** Where a key being read is spelled (scratch: no state; String.fromCharCode reads its first `width` codes). */
const keyCodes = new Uint16Array(MAX_KEY);

/** The key in row `i` of a column of keys' data. */
export function readKey(d: Uint8Array, i: number, width: number): string {
  const o = i * (width >> 1);
  for (let k = 0; k < width; k += 2) {
    const b = d[o + (k >> 1)]!;
    keyCodes[k] = HEX_DIGIT[b >> 4]!;
    keyCodes[k + 1] = HEX_DIGIT[b & 15]!;
  }
  return String.fromCharCode.apply(null, keyCodes.subarray(0, width) as unknown as number[]);
}
