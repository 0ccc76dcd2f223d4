/**
 * Listings (and loans: loan-table.ts) kept by column, so a world of a million fits in memory and starts fast: each listing is a
 * small object holding its row, and its fields are accessors over the store's columns. A plain
 * listing object costs about 1.2 KB (eight bytes a field and a boxed number per decimal and date);
 * a row's typed columns about 235 bytes (a seeded world's: 424 when every integer took 4 bytes, every
 * other number 8 and every code 2), and making one leaves only young garbage instead of a large object.
 *
 * Columns are typed by the values they hold (column-kinds.ts): integers in 1, 2 or 4 bytes, amounts
 * and rates as integers of cents or basis points, other numbers, booleans (each with null), objects of
 * integers under fixed names (the bureau values), strings of a few values (rating, state, FICO bin: a
 * code per row into the column's list of values), keys of a value per row (the member key's 24 hex digits
 * in 12 bytes), anything else as an array; a value a column cannot
 * hold turns it into a wider one. Typed columns hold no pointers, so the garbage collector never walks
 * them, and room reserved in them costs no memory until a row is written (the operating system hands
 * out their pages on first touch). A row reads and writes like
 * the plain object it was made from: every field by name, assignment (the engine's changes),
 * `JSON.stringify` (the state file: the same values, fields in the table's column order — the first row's
 * fields, then the fields set later in a fixed order — so a row whose object had them in another order
 * reads back in the table's), properties it never had become its own, and a field absent from a row reads undefined. An object field reads as a fresh
 * copy each time (nothing changes the bureau values in place).
 */
import type { Listing } from './records.js';
import {
  BYTE_CODES, codeOf, COMPILED_HELPERS, firstNumberColumn, holds, intData, intObjectKeys, keyWidth, nilFor, ownKeys, put, read, readCode,
  storeCode, widerNumberColumn, type Column, type Names,
} from './column-kinds.js';

/** The own property of a row holding its position in the columns. */
const ROW = '$row';

/**
 * Fields the mock sets on a few listings after making them (seed extras, the engine's origination
 * time): columns of their own holding only the rows that have them, so setting one never gives a row
 * object a property of its own (rows of several shapes made the engine's walk over listings slow).
 */
const LATER_FIELDS: readonly (keyof Listing)[] = ['mockRole', 'authorizedUsers', 'investmentTypeUnset', 'originateAt'];

interface Table {
  /** Fields set on a few rows after they are made: sparse columns (LATER_FIELDS for listings, loan-table.ts for loans). */
  later: readonly string[];
  columns: Column[];
  byName: Map<string, number>;
  /** Rows made so far. */
  size: number;
  /** Rows the typed columns have room for. */
  capacity: number;
  /** Makes the object of row `i`. */
  Row: new (i: number) => object;
  /** Writes a plain record's fields into row `i` of every column; returns how many it held (compiled, see compileCopy). */
  copy: (plain: unknown, i: number) => number;
  /** Row `i` as a plain object, fields in column order (compiled with `copy`: one object literal, so the state file's JSON.stringify meets a fast object). */
  plain: (i: number) => Record<string, unknown>;
  /** False once a column was added, widened or grown since `copy` was compiled. */
  compiled: boolean;
}

type RowObject = Record<string, unknown> & { [ROW]: number };

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Stores `v` in row `i` of column `j`, widening the column first when it cannot hold `v` (the
 * compiled code's slow path).
 */
function write(t: Table, j: number, i: number, v: unknown): void {
  let c = t.columns[j]!;
  if (!holds(c, v)) c = replace(t, j, wider(t, c, v));
  put(c, i, v);
}

/** The column to take `c`'s place so that it holds `v` and the rows it holds. */
function wider(t: Table, c: Column, v: unknown): Column {
  switch (c.kind) {
    case 'enum': {
      const k = codeOf(c, v);
      if (k < 0) {
        // Past the codes, a value per row (the member key): when every value is a key of one width, its bytes, not an array of strings.
        const width = keyWidth([...c.values, v]);
        if (width > 0) return { name: c.name, kind: 'key', width, data: new Uint8Array(t.capacity * (width >> 1)) };
        break;
      }
      return k < BYTE_CODES || c.data instanceof Uint16Array ? c : { ...c, data: new Uint16Array(t.capacity) };
    }
    case 'ints': {
      // The same names, integers all: only the sub-columns too narrow for `v` widen.
      const o = v as Record<string, unknown> | null;
      if (intObjectKeys(o) === null || ownKeys(o!) !== c.keys.length || !c.keys.every((k) => k in o!)) break;
      const nils = c.keys.map((k, n) => Math.min(c.nils[n]!, nilFor(o![k] as number)));
      return { ...c, nils, data: nils.map((nil, n) => (nil === c.nils[n] ? c.data[n]! : intData(nil, t.capacity))) };
    }
    default: {
      const next = widerNumberColumn(c, v, t.size, t.capacity);
      if (next) return next;
      // Null in every row so far, then strings (the owner's user id): codes in a byte, not an array the collector walks.
      if (typeof v === 'string' && c.kind !== 'any' && c.kind !== 'sparse' && allNull(c, t.size)) {
        const codes: Column = { name: c.name, kind: 'enum', data: new Uint8Array(t.capacity), values: [], codes: new Map() };
        codeOf(codes, null);
        codeOf(codes, v);
        return codes;
      }
    }
  }
  return { name: c.name, kind: 'any', data: [] };
}

function allNull(c: Column, size: number): boolean {
  for (let i = 0; i < size; i++) if (read(c, i) !== null) return false;
  return true;
}

/** Puts `next` in column `old`'s place `j`, holding the same values for the rows made so far; returns `next`. */
function replace(t: Table, j: number, next: Column): Column {
  const old = t.columns[j]!;
  if (next === old) return next;
  for (let i = 0; i < t.size; i++) put(next, i, read(old, i));
  t.columns[j] = next;
  t.compiled = false;
  defineAccessor(t, j);
  return next;
}

/** The helpers compiled code calls (column-kinds.ts), passed to it as parameters of these names. */
const HELPER_NAMES = Object.keys(COMPILED_HELPERS);
const HELPERS = Object.values(COMPILED_HELPERS);

/** The names compiled copying and reading give column `j`'s parts (declared by `locals`). */
const names = (j: number): Names => ({ d: `d${j}`, codes: `C${j}`, values: `V${j}` });

/** Declares column `j`'s parts as locals of compiled code, from `D` (the columns' data) and `T` (the table). */
const locals = (t: Table) => t.columns.map((c, j) => `const d${j} = D[${j}];${
  c.kind === 'enum' ? ` const C${j} = T.columns[${j}].codes; const V${j} = T.columns[${j}].values;` : ''}`).join(' ');

/**
 * Compiles `t.copy` for the columns as they are now: a named load per field and a store into the
 * column's own array (kept in the closure), so copying a listing is straight-line code. Recompiled
 * whenever a column is added, widened or grown.
 */
function compileCopy(t: Table): void {
  // Names come from listing objects the mock made; any that is not an identifier is read by key.
  const load = (name: string) => (IDENTIFIER.test(name) ? `p.${name}` : `p[${JSON.stringify(name)}]`);
  const body = t.columns.map((c, j) => `v = ${load(c.name)}; if (v !== undefined) n++; ${storeCode(c, names(j), `write(T, ${j}, i, v);`)}`).join('\n');
  const factory = new Function('T', 'write', 'ownKeys', 'D', ...HELPER_NAMES, `${locals(t)} return (p, i) => { let n = 0; let v; let k;\n${body}\nreturn n; };`);
  t.copy = factory(t, write, ownKeys, t.columns.map((c) => c.data), ...HELPERS) as Table['copy'];
  t.plain = compilePlain(t);
  t.compiled = true;
}

/**
 * Compiles `t.plain` for the columns as they are now: one object literal with a field per column in
 * order. Built field by field, an object of ~80 fields became a slow dictionary, and saving a world of
 * rows took twice as long as saving plain listings.
 */
function compilePlain(t: Table): Table['plain'] {
  const fields = t.columns.map((c, j) => `${JSON.stringify(c.name)}: ${readCode(c, names(j))}`).join(',\n');
  const factory = new Function('D', 'T', ...HELPER_NAMES, `${locals(t)} return (i) => { let x; return {\n${fields}\n}; };`);
  return factory(t.columns.map((c) => c.data), t, ...HELPERS) as Table['plain'];
}

function addColumn(t: Table, name: string, first: unknown): void {
  const n = t.capacity;
  // A column appearing after the first rows holds undefined for them: an array from the start.
  const keys = intObjectKeys(first);
  const c: Column = t.later.includes(name) ? { name, kind: 'sparse', data: new Map() }
    : t.size > 0 ? { name, kind: 'any', data: new Array<unknown>(t.size).fill(undefined) }
    : first === null || (typeof first === 'number' && first === first) ? firstNumberColumn(name, first, n)
    : typeof first === 'boolean' ? { name, kind: 'bool', data: new Uint8Array(n) }
    : typeof first === 'string' ? { name, kind: 'enum', data: new Uint8Array(n), values: [], codes: new Map() }
    : keys ? { name, kind: 'ints', keys, nils: keys.map(() => -128), data: keys.map(() => intData(-128, n)) }
    // Sized to the rows reserved (holes read undefined): grown by appends, a million rows left ~270 bytes of garbage each.
    : { name, kind: 'any', data: new Array<unknown>(n) };
  const j = t.columns.length;
  t.columns.push(c);
  t.byName.set(name, j);
  t.compiled = false;
  defineAccessor(t, j);
}

/**
 * Defines the row accessor of column `j`, compiled for its kind and width (a generic one reading any
 * column made the engine's hourly walk over the live listings twice as slow; compiled per column, each
 * reads one type of array). It reads the column's data through `c`, which growing replaces; redefined
 * when the column widens.
 */
function defineAccessor(t: Table, j: number): void {
  const c = t.columns[j]!;
  const parts: Names = { d: 'c.data', codes: 'c.codes', values: 'c.values' };
  // Set on some rows, then cleared (the engine's origination time, a loan's arrears): straight to the map, not through `write`.
  const store = c.kind === 'sparse' ? 'if (v === undefined) c.data.delete(i); else c.data.set(i, v);'
    : storeCode(c, parts, `write(T, ${j}, i, v);`);
  const make = new Function('c', 'T', 'write', 'ownKeys', ...HELPER_NAMES, `return {
    get() { const i = this[${JSON.stringify(ROW)}]; let x; return ${readCode(c, parts)}; },
    set(v) { const i = this[${JSON.stringify(ROW)}]; let k; ${store} },
  };`);
  const { get, set } = make(c, t, write, ownKeys, ...HELPERS) as { get: () => unknown; set: (v: unknown) => void };
  Object.defineProperty(t.Row.prototype, c.name, { get, set, enumerable: false, configurable: true });
}

function makeTable(later: readonly string[]): Table {
  const Row = function (this: RowObject, i: number) {
    this[ROW] = i;
  } as unknown as Table['Row'];
  const t: Table = { later, columns: [], byName: new Map(), size: 0, capacity: 1024, Row, copy: () => 0, plain: () => ({}), compiled: false };
  Object.defineProperty(Row.prototype, 'toJSON', {
    /** The plain record: its columns in order, then the properties it got later (as the plain object had them). */
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

type TypedData = Int8Array | Int16Array | Int32Array | Float64Array | Uint16Array | Uint8Array;

function grown<A extends TypedData>(a: A, n: number): A {
  const next = new (a.constructor as new (n: number) => A)(n);
  next.set(a);
  return next;
}

function grow(t: Table, capacity: number): void {
  t.capacity = capacity;
  t.compiled = false;
  for (const c of t.columns) {
    if (c.kind === 'ints') c.data = c.data.map((d) => grown(d, t.capacity));
    else if (c.kind === 'key') c.data = grown(c.data, t.capacity * (c.width >> 1));
    else if (c.kind !== 'any' && c.kind !== 'sparse') c.data = grown(c.data, t.capacity);
  }
}

/** Records of one kind by column (a world's listings, its loans: loan-table.ts). */
export type RowTable = Table;

/** An empty table whose rows get the fields `later` after they are made (kept in sparse columns). */
export function emptyRowTable(later: readonly string[]): RowTable {
  return makeTable(later);
}

/**
 * Makes room for `rows` rows in all, before they are added, and half as many again as the listings the
 * market adds later (a clock move of 15 days adds about as many as a world holds): allocated once, in
 * typed columns that cost memory only once written. Growing a million rows by doubling copied every
 * column twenty times and made the garbage collector mark the whole heap again on every new buffer;
 * growing by a move's arrivals copied every row the world held and took a third of the move's time
 * in page faults.
 */
export function reserveRows(t: RowTable, rows: number): void {
  const capacity = Math.ceil(2.5 * rows) + 1024;
  if (capacity > t.capacity) grow(t, capacity);
}

/** `record` as a row of table `t`: the object to keep instead of the plain one (it reads and writes as `record` does). */
export function tableRow<T extends object>(t: RowTable, record: T): T {
  if (t.size === t.capacity) grow(t, t.capacity * 2);
  const i = t.size;
  if (!t.compiled) compileCopy(t);
  const present = t.copy(record, i);
  const plain = record as unknown as Record<string, unknown>;
  if (present < ownKeys(plain)) {
    for (const k of Object.keys(plain)) {
      // The fields set later get their columns after the first row's others, in `later` order, whatever that row holds:
      // a table's field order (its rows' text) never depends on which of them its first row had.
      if (t.byName.has(k) || (i === 0 && t.later.includes(k))) continue;
      addColumn(t, k, plain[k]);
      write(t, t.columns.length - 1, i, plain[k]);
    }
  }
  if (i === 0) {
    for (const k of t.later) {
      if (t.byName.has(k)) continue;
      addColumn(t, k, undefined);
      if (plain[k] !== undefined) write(t, t.columns.length - 1, i, plain[k]);
    }
  }
  t.size++;
  return new t.Row(i) as T;
}

/** A world's listings by column: the store holds its own (`store.listingTable`), made with it. */
export type ListingTable = RowTable;

/** An empty table, for a new world. */
export function emptyListingTable(): ListingTable {
  return makeTable(LATER_FIELDS);
}

/** Makes room for `rows` listings in all (reserveRows). */
export function reserveListingRows(t: ListingTable, rows: number): void {
  reserveRows(t, rows);
}

/** `listing` as a row of table `t`: the object to keep in the store instead of the plain one. */
export function listingRow(t: ListingTable, listing: Listing): Listing {
  return tableRow(t, listing);
}

/** The row of a listing the store keeps (`addListing`): its position in `store.listings` and in the columns. */
export function rowOf(l: Listing): number {
  return (l as unknown as RowObject)[ROW];
}
