/**
 * Listings kept by column, so a world of a million fits in memory and starts fast: each listing is a
 * small object holding its row, and its fields are accessors over the store's columns. A plain
 * listing object costs about 1.2 KB (eight bytes a field and a boxed number per decimal and date);
 * a row about half, and making one leaves only young garbage instead of a large object to promote.
 *
 * Columns are typed by the values they hold: 32-bit integers, other numbers, booleans (each with
 * null), objects of integers under fixed names (the bureau values), strings of a few values (rating,
 * state, FICO bin: a 16-bit code per row into the column's list of values), anything else as an
 * array; a value a column's type cannot hold turns the column into a wider one. Typed columns hold
 * no pointers, so the garbage collector never walks them, and room reserved in them costs no memory
 * until a row is written (the operating system hands out their pages on first touch). A row reads and writes like
 * the plain object it was made from: every field by name, assignment (the engine's changes),
 * `JSON.stringify` (the state file: the same text, fields in the same order), properties it never had
 * become its own, and a field absent from a listing reads undefined. An object field reads as a fresh
 * copy each time (nothing changes the bureau values in place).
 */
import type { Listing } from './records.js';

/** The own property of a row holding its position in the columns. */
const ROW = '$row';
/** null in an integer column (no field holds this integer). */
const NULL_INT = -2147483648;
const NULL_BOOL = 2;
/**
 * Distinct values a column of codes takes before it becomes an array: the catalogue's fields have at
 * most a few dozen; a field of a value per listing (the member key) turns into an array early.
 */
const MAX_CODES = 1024;

type Column =
  | { name: string; kind: 'int'; data: Int32Array }
  | { name: string; kind: 'float'; data: Float64Array }
  | { name: string; kind: 'bool'; data: Uint8Array }
  | { name: string; kind: 'ints'; keys: string[]; data: Int32Array[] }
  | { name: string; kind: 'enum'; data: Uint16Array; values: unknown[]; codes: Map<unknown, number> }
  | { name: string; kind: 'any'; data: unknown[] }
  | { name: string; kind: 'sparse'; data: Map<number, unknown> };

/**
 * Fields the mock sets on a few listings after making them (seed extras, the engine's origination
 * time): columns of their own holding only the rows that have them, so setting one never gives a row
 * object a property of its own (rows of several shapes made the engine's walk over listings slow).
 */
const LATER_FIELDS: readonly (keyof Listing)[] = ['mockRole', 'authorizedUsers', 'investmentTypeUnset', 'originateAt'];

interface Table {
  columns: Column[];
  byName: Map<string, number>;
  /** Rows made so far. */
  size: number;
  /** Rows the typed columns have room for. */
  capacity: number;
  /** Makes the object of row `i`. */
  Row: new (i: number) => Listing;
  /** Writes a plain listing's fields into row `i` of every column; returns how many it held (compiled, see compileCopy). */
  copy: (plain: unknown, i: number) => number;
  /** Row `i` as a plain object, fields in column order (compiled with `copy`: one object literal, so the state file's JSON.stringify meets a fast object). */
  plain: (i: number) => Record<string, unknown>;
  /** False once a column was added, widened or grown since `copy` was compiled. */
  compiled: boolean;
}

type RowObject = Record<string, unknown> & { [ROW]: number };

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

const isInt = (v: unknown): v is number => typeof v === 'number' && (v | 0) === v && v !== NULL_INT;

function intObjectKeys(v: unknown): string[] | null {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => isInt((v as Record<string, unknown>)[k])) ? keys : null;
}

function read(c: Column, i: number): unknown {
  switch (c.kind) {
    case 'int': { const x = c.data[i]!; return x === NULL_INT ? null : x; }
    case 'float': { const x = c.data[i]!; return x !== x ? null : x; }
    case 'bool': { const x = c.data[i]!; return x === NULL_BOOL ? null : x === 1; }
    case 'ints': {
      const out: Record<string, number> = {};
      for (let k = 0; k < c.keys.length; k++) out[c.keys[k]!] = c.data[k]![i]!;
      return out;
    }
    case 'sparse': return c.data.get(i);
    case 'enum': return c.values[c.data[i]!];
    default: return c.data[i];
  }
}

type EnumColumn = Extract<Column, { kind: 'enum' }>;

/** The code of `v` in column `c`, a new one if there is room; -1 when `v` cannot be coded or the column holds too many values already. */
function codeOf(c: EnumColumn, v: unknown): number {
  const k = c.codes.get(v);
  if (k !== undefined) return k;
  // Strings and null only: an object would be shared between the rows holding it.
  if ((v !== null && typeof v !== 'string') || c.values.length >= MAX_CODES) return -1;
  c.codes.set(v, c.values.length);
  return c.values.push(v) - 1;
}

/** Replaces column `j` by a wider one holding the same values for the rows made so far. */
function widen(t: Table, j: number, kind: 'float' | 'any'): Column {
  const old = t.columns[j]!;
  const c: Column = kind === 'float' ? { name: old.name, kind, data: new Float64Array(t.capacity) } : { name: old.name, kind, data: [] };
  for (let i = 0; i < t.size; i++) {
    const v = read(old, i);
    if (c.kind === 'float') c.data[i] = v === null ? NaN : (v as number);
    else c.data.push(v);
  }
  t.columns[j] = c;
  t.compiled = false;
  defineAccessor(t, j);
  return c;
}

function write(t: Table, j: number, i: number, v: unknown): void {
  const c = t.columns[j]!;
  switch (c.kind) {
    case 'int':
      if (isInt(v)) return void (c.data[i] = v);
      if (v === null) return void (c.data[i] = NULL_INT);
      widen(t, j, typeof v === 'number' && v === v ? 'float' : 'any');
      return write(t, j, i, v);
    case 'float':
      if (typeof v === 'number' && v === v) return void (c.data[i] = v);
      if (v === null) return void (c.data[i] = NaN);
      break;
    case 'bool':
      if (typeof v === 'boolean') return void (c.data[i] = v ? 1 : 0);
      if (v === null) return void (c.data[i] = NULL_BOOL);
      break;
    case 'ints': {
      const o = v as Record<string, unknown> | null;
      if (o !== null && typeof o === 'object' && !Array.isArray(o) && ownKeys(o) === c.keys.length
        && c.keys.every((k) => isInt(o[k]))) {
        for (let k = 0; k < c.keys.length; k++) c.data[k]![i] = o[c.keys[k]!] as number;
        return;
      }
      break;
    }
    case 'sparse':
      if (v === undefined) c.data.delete(i);
      else c.data.set(i, v);
      return;
    case 'enum': {
      const k = codeOf(c, v);
      if (k >= 0) return void (c.data[i] = k);
      break;
    }
    default:
      c.data[i] = v;
      return;
  }
  widen(t, j, 'any');
  write(t, j, i, v);
}

const INT = (x: string) => `(typeof ${x} === 'number' && (${x} | 0) === ${x} && ${x} !== ${NULL_INT})`;

/** The statement storing `v` in row `i` of column `j` when its type fits the column, else through `write` (which may widen it). */
function storeCode(c: Column, j: number): string {
  const slow = `write(t, ${j}, i, v);`;
  switch (c.kind) {
    case 'int': return `if (${INT('v')}) d${j}[i] = v; else if (v === null) d${j}[i] = ${NULL_INT}; else ${slow}`;
    case 'float': return `if (typeof v === 'number' && v === v) d${j}[i] = v; else if (v === null) d${j}[i] = NaN; else ${slow}`;
    case 'bool': return `if (v === true) d${j}[i] = 1; else if (v === false) d${j}[i] = 0; else if (v === null) d${j}[i] = ${NULL_BOOL}; else ${slow}`;
    case 'ints': {
      const names = c.keys.map((k) => `v[${JSON.stringify(k)}]`);
      return `if (v !== null && typeof v === 'object' && ${names.map(INT).join(' && ')} && ownKeys(v) === ${c.keys.length}) { ${
        names.map((x, k) => `d${j}[${k}][i] = ${x};`).join(' ')} } else ${slow}`;
    }
    case 'sparse': return `if (v !== undefined) d${j}.set(i, v);`;
    case 'enum': return `k = C${j}.get(v); if (k !== undefined) d${j}[i] = k; else ${slow}`;
    default: return `d${j}[i] = v;`;
  }
}

/**
 * How many enumerable properties `o` has (the objects given are literals, JSON.parse's or Bureau2's:
 * nothing enumerable is inherited). Counted with for-in over V8's cached key list: Object.keys copies
 * that list, and a copy per listing was the largest garbage of seeding a million.
 */
function ownKeys(o: object): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

/**
 * Compiles `t.copy` for the columns as they are now: a named load per field and a store into the
 * column's own array (kept in the closure), so copying a listing is straight-line code. Recompiled
 * whenever a column is added, widened or grown.
 */
function compileCopy(t: Table): void {
  // Names come from listing objects the mock made; any that is not an identifier is read by key.
  const load = (name: string) => (IDENTIFIER.test(name) ? `p.${name}` : `p[${JSON.stringify(name)}]`);
  const locals = t.columns.map((c, j) => `const d${j} = D[${j}];${c.kind === 'enum' ? ` const C${j} = t.columns[${j}].codes;` : ''}`).join(' ');
  const body = t.columns.map((c, j) => `v = ${load(c.name)}; if (v !== undefined) n++; ${storeCode(c, j)}`).join('\n');
  const factory = new Function('t', 'write', 'ownKeys', 'D', `${locals} return (p, i) => { let n = 0; let v; let k;\n${body}\nreturn n; };`);
  t.copy = factory(t, write, ownKeys, t.columns.map((c) => c.data)) as Table['copy'];
  t.plain = compilePlain(t);
  t.compiled = true;
}

/** The expression reading row `i` of column `j` (its locals as compilePlain declares them). */
function readCode(c: Column, j: number): string {
  switch (c.kind) {
    case 'int': return `(x = d${j}[i], x === ${NULL_INT} ? null : x)`;
    case 'float': return `(x = d${j}[i], x !== x ? null : x)`;
    case 'bool': return `(x = d${j}[i], x === ${NULL_BOOL} ? null : x === 1)`;
    case 'ints': return `{ ${c.keys.map((k, n) => `${JSON.stringify(k)}: d${j}_${n}[i]`).join(', ')} }`;
    case 'sparse': return `d${j}.get(i)`;
    case 'enum': return `V${j}[d${j}[i]]`;
    default: return `d${j}[i]`;
  }
}

/**
 * Compiles `t.plain` for the columns as they are now: one object literal with a field per column in
 * order. Built field by field, an object of ~80 fields became a slow dictionary, and saving a world of
 * rows took twice as long as saving plain listings.
 */
function compilePlain(t: Table): Table['plain'] {
  const locals = t.columns.map((c, j) => (c.kind === 'ints'
    ? c.keys.map((_, n) => `const d${j}_${n} = D[${j}][${n}];`).join(' ')
    : c.kind === 'enum' ? `const d${j} = D[${j}]; const V${j} = T.columns[${j}].values;`
    : `const d${j} = D[${j}];`)).join(' ');
  const fields = t.columns.map((c, j) => `${JSON.stringify(c.name)}: ${readCode(c, j)}`).join(',\n');
  const factory = new Function('D', 'T', `${locals} return (i) => { let x; return {\n${fields}\n}; };`);
  return factory(t.columns.map((c) => c.data), t) as Table['plain'];
}

function addColumn(t: Table, name: string, first: unknown): void {
  const n = t.capacity;
  // A column appearing after the first rows holds undefined for them: an array from the start.
  const keys = intObjectKeys(first);
  const c: Column = (LATER_FIELDS as readonly string[]).includes(name) ? { name, kind: 'sparse', data: new Map() }
    : t.size > 0 ? { name, kind: 'any', data: new Array<unknown>(t.size).fill(undefined) }
    : first === null || isInt(first) ? { name, kind: 'int', data: new Int32Array(n) }
    : typeof first === 'number' && first === first ? { name, kind: 'float', data: new Float64Array(n) }
    : typeof first === 'boolean' ? { name, kind: 'bool', data: new Uint8Array(n) }
    : typeof first === 'string' ? { name, kind: 'enum', data: new Uint16Array(n), values: [], codes: new Map() }
    : keys ? { name, kind: 'ints', keys, data: keys.map(() => new Int32Array(n)) }
    // Sized to the rows reserved (holes read undefined): grown by appends, a million rows left ~270 bytes of garbage each.
    : { name, kind: 'any', data: new Array<unknown>(n) };
  const j = t.columns.length;
  t.columns.push(c);
  t.byName.set(name, j);
  t.compiled = false;
  defineAccessor(t, j);
}

/**
 * Defines the row accessor of column `j`, specialised to its type (a generic one reading any column
 * made the engine's hourly walk over the live listings twice as slow). Redefined when it widens.
 */
function defineAccessor(t: Table, j: number): void {
  const c = t.columns[j]!;
  const slowSet = function (this: RowObject, v: unknown) { write(t, j, this[ROW], v); };
  let get: (this: RowObject) => unknown;
  let set = slowSet;
  // Setters take null and values of the column's type without a call to `write` (the engine's changes).
  if (c.kind === 'int') {
    get = function () { const x = c.data[this[ROW]]!; return x === NULL_INT ? null : x; };
    set = function (v) { if (isInt(v)) c.data[this[ROW]] = v; else if (v === null) c.data[this[ROW]] = NULL_INT; else slowSet.call(this, v); };
  } else if (c.kind === 'float') {
    get = function () { const x = c.data[this[ROW]]!; return x !== x ? null : x; };
    set = function (v) { if (typeof v === 'number' && v === v) c.data[this[ROW]] = v; else if (v === null) c.data[this[ROW]] = NaN; else slowSet.call(this, v); };
  } else if (c.kind === 'bool') {
    get = function () { const x = c.data[this[ROW]]!; return x === NULL_BOOL ? null : x === 1; };
    set = function (v) { if (typeof v === 'boolean') c.data[this[ROW]] = v ? 1 : 0; else slowSet.call(this, v); };
  } else if (c.kind === 'any') {
    get = function () { return c.data[this[ROW]]; };
    set = function (v) { c.data[this[ROW]] = v; };
  } else if (c.kind === 'enum') {
    get = function () { return c.values[c.data[this[ROW]]!]; };
    set = function (v) { const k = c.codes.get(v); if (k !== undefined) c.data[this[ROW]] = k; else slowSet.call(this, v); };
  } else if (c.kind === 'sparse') {
    // Set on most listings once (the engine's origination time, then null): straight to the map, not through `write`.
    get = function () { return c.data.get(this[ROW]); };
    set = function (v) { if (v === undefined) c.data.delete(this[ROW]); else c.data.set(this[ROW], v); };
  } else {
    get = function () { return read(c, this[ROW]); };
  }
  Object.defineProperty(t.Row.prototype, c.name, { get, set, enumerable: false, configurable: true });
}

function makeTable(): Table {
  const Row = function (this: RowObject, i: number) {
    this[ROW] = i;
  } as unknown as Table['Row'];
  const t: Table = { columns: [], byName: new Map(), size: 0, capacity: 1024, Row, copy: () => 0, plain: () => ({}), compiled: false };
  Object.defineProperty(Row.prototype, 'toJSON', {
    /** The plain listing: its columns in order, then the properties it got later (as the plain object had them). */
    value(this: RowObject) {
      if (!t.compiled) compileCopy(t);
      const out = t.plain(this[ROW]);
      const own = Object.keys(this);
      if (own.length > 1) for (const k of own) if (k !== ROW) out[k] = this[k];
      return out;
    },
    enumerable: false,
  });
  return t;
}

function grown<A extends Int32Array | Float64Array | Uint16Array | Uint8Array>(a: A, n: number): A {
  const next = new (a.constructor as new (n: number) => A)(n);
  next.set(a);
  return next;
}

function grow(t: Table, capacity: number): void {
  t.capacity = capacity;
  t.compiled = false;
  for (const c of t.columns) {
    if (c.kind === 'ints') c.data = c.data.map((d) => grown(d, t.capacity));
    else if (c.kind !== 'any' && c.kind !== 'sparse') c.data = grown(c.data as Int32Array | Float64Array | Uint16Array | Uint8Array, t.capacity);
  }
}

/** A world's listings by column: the store holds its own (`store.listingTable`), made with it. */
export type ListingTable = Table;

/** An empty table, for a new world. */
export function emptyListingTable(): ListingTable {
  return makeTable();
}

/**
 * Makes room for `rows` rows in all, before they are added, and half as many again as the listings the
 * market adds later (a clock move of 15 days adds about as many as a world holds): allocated once, in
 * typed columns that cost memory only once written. Growing a million rows by doubling copied every
 * column twenty times and made the garbage collector mark the whole heap again on every new buffer;
 * growing by a move's arrivals copied every row the world held and took a third of the move's time
 * in page faults.
 */
export function reserveListingRows(t: ListingTable, rows: number): void {
  const capacity = Math.ceil(2.5 * rows) + 1024;
  if (capacity > t.capacity) grow(t, capacity);
}

/** `listing` as a row of table `t`: the object to keep in the store instead of the plain one. */
export function listingRow(t: ListingTable, listing: Listing): Listing {
  if (t.size === t.capacity) grow(t, t.capacity * 2);
  const i = t.size;
  if (!t.compiled) compileCopy(t);
  const present = t.copy(listing, i);
  const plain = listing as unknown as Record<string, unknown>;
  if (present < ownKeys(plain)) {
    for (const k of Object.keys(plain)) {
      if (t.byName.has(k)) continue;
      addColumn(t, k, plain[k]);
      write(t, t.columns.length - 1, i, plain[k]);
    }
  }
  if (i === 0) for (const k of LATER_FIELDS) if (!t.byName.has(k)) addColumn(t, k, undefined);
  t.size++;
  return new t.Row(i);
}

/** The row of a listing the store keeps (`addListing`): its position in `store.listings` and in the columns. */
export function rowOf(l: Listing): number {
  return (l as unknown as RowObject)[ROW];
}
