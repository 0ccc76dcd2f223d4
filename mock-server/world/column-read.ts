/**
 * Reading one field of many rows by position, straight from a table's column (row-table.ts): the listings
 * search tests and sorts hundreds of thousands of rows by a field, and through the rows' objects each read was
 * a cache miss on a scattered object before the column's own (a sort key a tenth of a microsecond); in order
 * from a typed array it is a nanosecond or two. The value is the one the row's accessor gives.
 */
import { NIL32, type Column } from './column-kinds.js';
import type { RowTable } from './row-table.js';

/** A number column's data as the tight loops read it: row i is null when its value is `nil` (or NaN), else the value over `scale`. */
interface NumberData {
  data: ArrayLike<number>;
  nil: number;
  scale: number;
}

function numberData(c: Column, sub: string | null): NumberData | null {
  if (sub !== null) {
    const k = c.kind === 'ints' ? c.keys.indexOf(sub) : -1;
    return c.kind === 'ints' && k >= 0 ? { data: c.data[k]!, nil: NaN, scale: 1 } : null;
  }
  if (c.kind === 'int') return { data: c.data, nil: c.nil, scale: 1 };
  if (c.kind === 'dec') return { data: c.data, nil: NIL32, scale: c.scale };
  if (c.kind === 'float') return { data: c.data, nil: NaN, scale: 1 };
  return null;
}

/** Reads rows of field `name` (`sub` of it) from its number column, or through `slow` where the column cannot answer alone. */
function columnOf(t: RowTable, name: string, sub: string | null) {
  const j = t.byName.get(name);
  const c = j === undefined ? undefined : t.columns[j];
  const d = c ? numberData(c, sub) : null;
  if (!c || !d) return null;
  const describes = t.market !== null && !t.market.has(name);
  /** True when row `i` is read through its object: it awaits its description, or describing one widened the column. */
  const viaObject = (i: number) => (describes && t.awaiting[i] === 1) || t.columns[j!] !== c;
  return { d, viaObject };
}

/** Where the tight loops go to a row's object: the row, which reads as the field's value. */
type ViaObject = (i: number) => boolean;

type KeepLoop = (
  data: ArrayLike<number>,
  nil: number,
  scale: number,
  words: Uint32Array,
  lo: number,
  hi: number,
  viaObject: ViaObject,
  slowAt: (i: number) => unknown,
) => void;
type CodesLoop = (
  data: ArrayLike<number>,
  nil: number,
  nilCode: number,
  least: number,
  size: number,
  words: Uint32Array[],
  skip: Uint8Array | null,
) => void;
type KeysLoop = (
  data: ArrayLike<number>,
  nil: number,
  scale: number,
  rows: Uint32Array,
  out: Float64Array,
  viaObject: ViaObject,
  slowAt: (i: number) => unknown,
) => boolean;

const KEEP = `for (let w = 0; w < words.length; w++) {
  let bits = words[w];
  if (bits === 0) continue;
  let keep = bits;
  while (bits !== 0) {
    const low = bits & -bits;
    bits ^= low;
    const i = (w << 5) + 31 - Math.clz32(low);
    let ok;
    if (viaObject(i)) { const v = slowAt(i); ok = typeof v === 'number' && v >= lo && v <= hi; }
    else { const x = data[i]; const v = x / scale; ok = x !== nil && x === x && v >= lo && v <= hi; }
    if (!ok) keep ^= low;
  }
  words[w] = keep;
}`;
const KEYS = `for (let k = 0; k < rows.length; k++) {
  const i = rows[k];
  if (viaObject(i)) {
    const v = slowAt(i);
    if (v === null) out[k] = NaN;
    else if (typeof v === 'number' && v === v) out[k] = v;
    else return false;
  } else { const x = data[i]; out[k] = x === nil ? NaN : x / scale; }
}
return true;`;
const CODES = `const n = (size + 31) >>> 5;
for (let i = 0; i < size; i++) {
  if (skip !== null && skip[i] === 1) continue;
  const x = data[i];
  const code = x === nil ? nilCode : x - least;
  let w = words[code];
  if (w === undefined) words[code] = w = new Uint32Array(n);
  w[i >>> 5] |= 1 << (i & 31);
}`;

/**
 * The loops compiled once per kind of array (Int8Array, Float64Array, …): one loop reading arrays of every kind was
 * several times slower (its element load saw them all), and each is run over hundreds of thousands of rows.
 */
const loops = new Map<string, { keep: KeepLoop; keys: KeysLoop; codes: CodesLoop }>();

function loopsFor(data: ArrayLike<number>): { keep: KeepLoop; keys: KeysLoop; codes: CodesLoop } {
  const kind = data.constructor.name;
  let l = loops.get(kind);
  if (!l) {
    /* eslint-disable @typescript-eslint/no-implied-eval -- the same loop compiled per kind of array, from the constants above */
    l = {
      keep: new Function('data', 'nil', 'scale', 'words', 'lo', 'hi', 'viaObject', 'slowAt', KEEP) as KeepLoop,
      keys: new Function('data', 'nil', 'scale', 'rows', 'out', 'viaObject', 'slowAt', KEYS) as KeysLoop,
      codes: new Function('data', 'nil', 'nilCode', 'least', 'size', 'words', 'skip', CODES) as CodesLoop,
    };
    /* eslint-enable @typescript-eslint/no-implied-eval */
    loops.set(kind, l);
  }
  return l;
}

/**
 * Clears from `words` (bits of rows) every row whose value of field `name` (`sub` of it) is not a number from `lo` to `hi`,
 * reading the column in one tight loop; false (nothing cleared) when the field's column is no number column.
 */
export function keepInRange(
  t: RowTable,
  rows: readonly object[],
  name: string,
  sub: string | null,
  words: Uint32Array,
  lo: number,
  hi: number,
  slow: (row: object) => unknown,
): boolean {
  const col = columnOf(t, name, sub);
  if (!col) return false;
  const { data, nil, scale } = col.d;
  loopsFor(data).keep(data, nil, scale, words, lo, hi, col.viaObject, (i) => slow(rows[i]!));
  return true;
}

/**
 * Writes into `out` each row's value of field `name` from its number column (NaN for null), rows `rows[k]` in order:
 * 'ok'; 'none' when its column is no number column; 'other' when a row read through its object holds neither a number nor null.
 */
export function readKeys(
  t: RowTable,
  objects: readonly object[],
  name: string,
  rows: Uint32Array,
  out: Float64Array,
  slow: (row: object) => unknown,
): 'ok' | 'none' | 'other' {
  const col = columnOf(t, name, null);
  if (!col) return 'none';
  const { data, nil, scale } = col.d;
  return loopsFor(data).keys(data, nil, scale, rows, out, col.viaObject, (i) => slow(objects[i]!)) ? 'ok' : 'other';
}

/**
 * The rows below `size` by their code in a column of codes, booleans or integers, as bit words per code (`words[code]`):
 * an integer's code is its value less `least`, its null's `nilCode`. Rows marked in `skip` are left out (the caller reads them
 * through their objects). Null when the field's column is none of those kinds; else what a code stands for.
 */
export function rowsByCode(
  t: RowTable,
  name: string,
  size: number,
  words: Uint32Array[],
  skip: Uint8Array | null,
): ((code: number) => unknown) | null {
  const j = t.byName.get(name);
  const c = j === undefined ? undefined : t.columns[j];
  if (!c) return null;
  if (c.kind === 'enum' || c.kind === 'bool') {
    loopsFor(c.data).codes(c.data, NaN, 0, 0, size, words, skip);
    return c.kind === 'enum' ? (code) => c.values[code] : (code) => (code === 2 ? null : code === 1);
  }
  if (c.kind !== 'int') return null;
  let least = Infinity;
  let most = -Infinity;
  for (let i = 0; i < size; i++) {
    const x = c.data[i]!;
    if (x === c.nil || (skip !== null && skip[i] === 1)) continue;
    if (x < least) least = x;
    if (x > most) most = x;
  }
  // Integers of many values (amounts, numbers) are no codes: a word array each would be most of the index.
  if (most - least > 4096) return null;
  if (least === Infinity) least = most = 0;
  const nilCode = most - least + 1;
  loopsFor(c.data).codes(c.data, c.nil, nilCode, least, size, words, skip);
  return (code) => (code === nilCode ? null : code + least);
}
