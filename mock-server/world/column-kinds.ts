/**
 * The kinds of column the row tables (row-table.ts: listings, listing-table.ts; loans, loan-table.ts) keep, each in as few bytes a row as its
 * values allow, and the code that reads and stores one row of each. A listing's page of memory costs a
 * page fault on first touch, and a clock move adds about as many listings as the world holds, so a
 * narrower row is a faster move.
 *
 * Numbers climb a ladder and never come down: integers in 1, 2 then 4 bytes, decimals exact at cents or
 * at basis points as the scaled integer in 4 bytes (amounts and rates), then any other number in 8;
 * a column moves to the first rung holding every value it has and the new one. Each rung keeps its
 * least integer for null, so a value equal to a narrow rung's null climbs. A value is held only if it
 * reads back as the very same double (-0 included): a row's JSON has the plain record's values.
 */
import { isKey, putKey, readKey, storeKey } from './column-keys.js';

/** null in a 4-byte integer column and in a decimal column (their least integer). */
export const NIL32 = -2147483648;
/** null in a column of booleans. */
export const NULL_BOOL = 2;
/**
 * Distinct values a column of codes takes before it becomes a column of keys (when every value is a key:
 * `isKey`) or an array: the catalogue's fields have at most a few dozen; a field of a value per listing
 * (the member key) outgrows them early.
 */
export const MAX_CODES = 1024;
/** Codes a column of one byte a row holds; past them it takes two. */
export const BYTE_CODES = 256;

/** A column of integers: its width is told by its null (the least integer of the width). */
export type IntData = Int8Array | Int16Array | Int32Array;

/** A column of the table, by the values it holds. */
export type Column =
  | { name: string; kind: 'int'; nil: number; data: IntData }
  | { name: string; kind: 'dec'; scale: number; data: Int32Array }
  | { name: string; kind: 'float'; data: Float64Array }
  | { name: string; kind: 'bool'; data: Uint8Array }
  | { name: string; kind: 'ints'; keys: string[]; nils: number[]; data: IntData[] }
  | { name: string; kind: 'enum'; data: Uint8Array | Uint16Array; values: unknown[]; codes: Map<unknown, number> }
  /** Keys (`isKey`) of `width` characters, `width / 2` bytes a row from byte `i * width / 2` of `data`. */
  | { name: string; kind: 'key'; width: number; data: Uint8Array }
  | { name: string; kind: 'any'; data: unknown[] }
  | { name: string; kind: 'sparse'; data: Map<number, unknown> }
  /** A number field set later (origination times: a map's entry and boxed number each was garbage), 0 where unset (reads undefined). */
  | { name: string; kind: 'sparseNum'; data: Float64Array };

type NumberRung = { kind: 'int'; nil: number } | { kind: 'dec'; scale: number } | { kind: 'float' };

/** The ladder of number columns, narrowest first. */
const LADDER: readonly NumberRung[] = [
  { kind: 'int', nil: -128 },
  { kind: 'int', nil: -32768 },
  { kind: 'int', nil: NIL32 },
  { kind: 'dec', scale: 100 },
  { kind: 'dec', scale: 10000 },
  { kind: 'float' },
];

/** Whether `v` is an integer an int column of null `nil` holds (not its null, not -0). */
export const fitsInt = (v: unknown, nil: number): v is number =>
  typeof v === 'number' && (v | 0) === v && v > nil && v <= -nil - 1 && (v !== 0 || 1 / v > 0);

/** Whether `v` is a number a decimal column of `scale` gives back exactly. */
function fitsDec(v: unknown, scale: number): v is number {
  if (typeof v !== 'number') return false;
  const k = Math.round(v * scale);
  return k > NIL32 && k <= 2147483647 && k / scale === v && (k !== 0 || 1 / v > 0);
}

function fitsRung(r: NumberRung, v: unknown): boolean {
  if (v === null) return true;
  return r.kind === 'int' ? fitsInt(v, r.nil) : r.kind === 'dec' ? fitsDec(v, r.scale) : typeof v === 'number' && v === v;
}

function rungOf(c: Column): number {
  return c.kind === 'int'
    ? LADDER.findIndex((r) => r.kind === 'int' && r.nil === c.nil)
    : c.kind === 'dec'
      ? LADDER.findIndex((r) => r.kind === 'dec' && r.scale === c.scale)
      : LADDER.length - 1;
}

/** A new array of `n` integers of the width whose null is `nil`. */
export function intData(nil: number, n: number): IntData {
  return nil === -128 ? new Int8Array(n) : nil === -32768 ? new Int16Array(n) : new Int32Array(n);
}

/** The null of the narrowest integer width holding `v` (an integer 4 bytes hold). */
export const nilFor = (v: number): number => (fitsInt(v, -128) ? -128 : fitsInt(v, -32768) ? -32768 : NIL32);

function numberColumn(name: string, r: NumberRung, n: number): Column {
  return r.kind === 'int'
    ? { name, kind: 'int', nil: r.nil, data: intData(r.nil, n) }
    : r.kind === 'dec'
      ? { name, kind: 'dec', scale: r.scale, data: new Int32Array(n) }
      : { name, kind: 'float', data: new Float64Array(n) };
}

/** A number column for a first value `v` (null or a number): the narrowest holding it. */
export function firstNumberColumn(name: string, v: unknown, n: number): Column {
  return numberColumn(
    name,
    LADDER.find((r) => fitsRung(r, v))!,
    n,
  );
}

/**
 * The number column after `c` on the ladder that holds `v` and the `size` rows `c` holds (as `read`
 * gives them); null when `v` is not a number (nor null) or `c` is no number column.
 */
export function widerNumberColumn(c: Column, v: unknown, size: number, capacity: number): Column | null {
  // A number field set later, now set to something else (or 0, its rows' absence): a map, as the other fields set later.
  if (c.kind === 'sparseNum') return { name: c.name, kind: 'sparse', data: new Map() };
  if (c.kind !== 'int' && c.kind !== 'dec' && c.kind !== 'float') return null;
  for (let r = rungOf(c) + 1; r < LADDER.length; r++) {
    if (!fitsRung(LADDER[r]!, v)) continue;
    let all = true;
    for (let i = 0; i < size && all; i++) all = fitsRung(LADDER[r]!, read(c, i));
    if (all) return numberColumn(c.name, LADDER[r]!, capacity);
  }
  return null;
}

/** The column of a field set later: typed when it holds `numbers` only (`sparseNum`), else a map. */
export function laterColumn(name: string, numbers: boolean, capacity: number): Column {
  return numbers ? { name, kind: 'sparseNum', data: new Float64Array(capacity) } : { name, kind: 'sparse', data: new Map() };
}

/** Whether every row of `c` below `size` is null. */
export function allNull(c: Column, size: number): boolean {
  for (let i = 0; i < size; i++) if (read(c, i) !== null) return false;
  return true;
}

/** The keys of `v` when it is an object of integers under fixed names (the bureau values), else null. */
export function intObjectKeys(v: unknown): string[] | null {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => fitsInt((v as Record<string, unknown>)[k], NIL32)) ? keys : null;
}

/**
 * How many enumerable properties `o` has (the objects given are literals, JSON.parse's or Bureau2's:
 * nothing enumerable is inherited). Counted with for-in over V8's cached key list: Object.keys copies
 * that list, and a copy per listing was the largest garbage of seeding a million.
 */
export function ownKeys(o: object): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

/** Row `i` of column `c`. */
export function read(c: Column, i: number): unknown {
  switch (c.kind) {
    case 'int': {
      const x = c.data[i]!;
      return x === c.nil ? null : x;
    }
    case 'dec': {
      const x = c.data[i]!;
      return x === NIL32 ? null : x / c.scale;
    }
    case 'float': {
      const x = c.data[i]!;
      return x !== x ? null : x;
    }
    case 'bool': {
      const x = c.data[i]!;
      return x === NULL_BOOL ? null : x === 1;
    }
    case 'ints': {
      const out: Record<string, number> = {};
      for (let k = 0; k < c.keys.length; k++) out[c.keys[k]!] = c.data[k]![i]!;
      return out;
    }
    case 'sparse':
      return c.data.get(i);
    case 'sparseNum': {
      const x = c.data[i]!;
      return x === 0 ? undefined : x;
    }
    case 'enum':
      return c.values[c.data[i]!];
    case 'key':
      return readKey(c.data, i, c.width);
    case 'any':
      return c.data[i];
  }
}

/** Whether column `c` holds `v` as it is (without widening; a column of codes: a value it has a code for). */
export function holds(c: Column, v: unknown): boolean {
  switch (c.kind) {
    case 'int':
      return v === null || fitsInt(v, c.nil);
    case 'dec':
      return v === null || fitsDec(v, c.scale);
    case 'float':
      return v === null || (typeof v === 'number' && v === v);
    case 'bool':
      return v === null || typeof v === 'boolean';
    case 'ints': {
      const o = v as Record<string, unknown> | null;
      return (
        o !== null
        && typeof o === 'object'
        && !Array.isArray(o)
        && ownKeys(o) === c.keys.length
        && c.keys.every((k, n) => fitsInt(o[k], c.nils[n]!))
      );
    }
    case 'enum':
      return c.codes.has(v);
    case 'key':
      return isKey(v, c.width);
    case 'any':
    case 'sparse':
      return true;
    case 'sparseNum':
      return v === undefined || (typeof v === 'number' && v === v && v !== 0);
  }
}

/** Stores `v` in row `i` of `c`, which holds it (`holds`). */
export function put(c: Column, i: number, v: unknown): void {
  switch (c.kind) {
    case 'int':
      c.data[i] = v === null ? c.nil : (v as number);
      return;
    case 'dec':
      c.data[i] = v === null ? NIL32 : Math.round((v as number) * c.scale);
      return;
    case 'float':
      c.data[i] = v === null ? NaN : (v as number);
      return;
    case 'bool':
      c.data[i] = v === null ? NULL_BOOL : v ? 1 : 0;
      return;
    case 'ints':
      for (let k = 0; k < c.keys.length; k++) c.data[k]![i] = (v as Record<string, number>)[c.keys[k]!]!;
      return;
    case 'enum':
      c.data[i] = c.codes.get(v)!;
      return;
    case 'key':
      putKey(c.data, i, c.width, v as string);
      return;
    case 'sparse':
      if (v === undefined) c.data.delete(i);
      else c.data.set(i, v);
      return;
    case 'sparseNum':
      c.data[i] = v === undefined ? 0 : (v as number);
      return;
    case 'any':
      c.data[i] = v;
  }
}

/** The code of `v` in column `c`, a new one if there is room; -1 when `v` cannot be coded or the column holds too many values already. */
export function codeOf(c: Extract<Column, { kind: 'enum' }>, v: unknown): number {
  const k = c.codes.get(v);
  if (k !== undefined) return k;
  // Strings and null only: an object would be shared between the rows holding it.
  if ((v !== null && typeof v !== 'string') || c.values.length >= MAX_CODES) return -1;
  c.codes.set(v, c.values.length);
  return c.values.push(v) - 1;
}

/** What compiled code calls by name besides the table's own (the compiled functions take them as parameters, in this order). */
export const COMPILED_HELPERS = { readKey, storeKey } as const;

/** Names of a column's parts in compiled code: its data array, and a column of codes' map and values. */
export interface Names {
  d: string;
  codes: string;
  values: string;
}

const fitsIntCode = (x: string, nil: number) =>
  `(typeof ${x} === 'number' && (${x} | 0) === ${x} && ${x} > ${nil} && ${x} <= ${-nil - 1} && (${x} !== 0 || 1 / ${x} > 0))`;

/** The statement storing `v` in row `i` of `c` when `c` holds it, else `slow` (locals `v`, `i`, `k`). */
export function storeCode(c: Column, n: Names, slow: string): string {
  const { d } = n;
  switch (c.kind) {
    case 'int':
      return `if (${fitsIntCode('v', c.nil)}) ${d}[i] = v; else if (v === null) ${d}[i] = ${c.nil}; else ${slow}`;
    case 'dec':
      return `if (typeof v === 'number' && (k = Math.round(v * ${c.scale}), k > ${NIL32} && k <= 2147483647 && k / ${c.scale} === v && (k !== 0 || 1 / v > 0))) ${
        d
      }[i] = k; else if (v === null) ${d}[i] = ${NIL32}; else ${slow}`;
    case 'float':
      return `if (typeof v === 'number' && v === v) ${d}[i] = v; else if (v === null) ${d}[i] = NaN; else ${slow}`;
    case 'bool':
      return `if (v === true) ${d}[i] = 1; else if (v === false) ${d}[i] = 0; else if (v === null) ${d}[i] = ${NULL_BOOL}; else ${slow}`;
    case 'ints': {
      const names = c.keys.map((k) => `v[${JSON.stringify(k)}]`);
      return `if (v !== null && typeof v === 'object' && ${names.map((x, k) => fitsIntCode(x, c.nils[k]!)).join(' && ')} && ownKeys(v) === ${
        c.keys.length
      }) { ${names.map((x, k) => `${d}[${k}][i] = ${x};`).join(' ')} } else ${slow}`;
    }
    case 'sparse':
      return `if (v !== undefined) ${d}.set(i, v);`;
    case 'sparseNum':
      return `if (typeof v === 'number' && v === v && v !== 0) ${d}[i] = v; else if (v === undefined) ${d}[i] = 0; else ${slow}`;
    case 'enum':
      return `k = ${n.codes}.get(v); if (k !== undefined) ${d}[i] = k; else ${slow}`;
    case 'key':
      return `if (!storeKey(${d}, i, ${c.width}, v)) ${slow}`;
    case 'any':
      return `${d}[i] = v;`;
  }
}

/** The expression reading row `i` of `c` (local `x`). */
export function readCode(c: Column, n: Names): string {
  const { d } = n;
  switch (c.kind) {
    case 'int':
      return `(x = ${d}[i], x === ${c.nil} ? null : x)`;
    case 'dec':
      return `(x = ${d}[i], x === ${NIL32} ? null : x / ${c.scale})`;
    case 'float':
      return `(x = ${d}[i], x !== x ? null : x)`;
    case 'bool':
      return `(x = ${d}[i], x === ${NULL_BOOL} ? null : x === 1)`;
    case 'ints':
      return `{ ${c.keys.map((k, m) => `${JSON.stringify(k)}: ${d}[${m}][i]`).join(', ')} }`;
    case 'sparse':
      return `${d}.get(i)`;
    case 'sparseNum':
      return `(x = ${d}[i], x === 0 ? undefined : x)`;
    case 'enum':
      return `${n.values}[${d}[i]]`;
    case 'key':
      return `readKey(${d}, i, ${c.width})`;
    case 'any':
      return `${d}[i]`;
  }
}

/** The typed arrays a column's data is held in. */
export type TypedData = Int8Array | Int16Array | Int32Array | Float64Array | Uint16Array | Uint8Array | Uint32Array;
