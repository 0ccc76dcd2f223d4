/**
 * Records kept by column (a world's listings: listing-table.ts; its loans: loan-table.ts), so a world of a million fits
 * in memory and starts fast: each record is a small object holding its row, and its fields are accessors over the
 * table's columns. A plain
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
import {
  allNull,
  BYTE_CODES,
  codeOf,
  firstNumberColumn,
  holds,
  intData,
  intObjectKeys,
  laterColumn,
  nilFor,
  ownKeys,
  put,
  read,
  widerNumberColumn,
  type Column,
} from './column-kinds.js';
import { keyWidth } from './column-keys.js';
import { grown, GROWTH } from './typed-growth.js';
import { accessorOf, compileCopyOf, compilePlain, ROW, rowObject, type RowObject, type Table } from './row-code.js';

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
    case 'int':
    case 'dec':
    case 'float':
    case 'bool':
    case 'key':
    case 'any':
    case 'sparse':
    case 'sparseNum': {
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

/**
 * Compiles `t.copy` for the columns as they are now: a named load per field and a store into the
 * column's own array (kept in the closure), so copying a listing is straight-line code. Recompiled
 * whenever a column is added, widened or grown.
 */
function compileCopy(t: Table): void {
  t.copy = compileCopyOf(t, () => true, write);
  t.plain = compilePlain(t);
  t.compiled = true;
}

/**
 * Compiles, when stale, `t.copy` and `plain`, then `t.copyMarket` and `t.copyDescription` for the same columns: only
 * rows described later use these, so a world that makes none (a seed, a load) never compiles them.
 */
function compileSplitCopy(t: Table): void {
  if (!t.compiled) compileCopy(t);
  if (t.splitFor === t.copy || !t.market) return;
  const market = t.market;
  t.copyMarket = compileCopyOf(t, (name) => market.has(name), write);
  t.copyDescription = compileCopyOf(t, (name) => !market.has(name), write, true);
  t.splitFor = t.copy;
}

function addColumn(t: Table, name: string, first: unknown): void {
  const n = t.capacity;
  // A column appearing after the first rows holds undefined for them: an array from the start.
  const keys = intObjectKeys(first);
  const c: Column = t.later.includes(name)
    ? laterColumn(name, t.numbersLater.includes(name), n)
    : t.size > 0
      ? { name, kind: 'any', data: new Array<unknown>(t.size).fill(undefined) }
      : first === null || (typeof first === 'number' && first === first)
        ? firstNumberColumn(name, first, n)
        : typeof first === 'boolean'
          ? { name, kind: 'bool', data: new Uint8Array(n) }
          : typeof first === 'string'
            ? { name, kind: 'enum', data: new Uint8Array(n), values: [], codes: new Map() }
            : keys
              ? { name, kind: 'ints', keys, nils: keys.map(() => -128), data: keys.map(() => intData(-128, n)) }
              : // Sized to the rows reserved (holes read undefined): grown by appends, a million rows left ~270 bytes of garbage each.
                { name, kind: 'any', data: new Array<unknown>(n) };
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
  const { get, set } = accessorOf(t, j, write, describeRow);
  Object.defineProperty(t.Row.prototype, t.columns[j]!.name, { get, set, enumerable: false, configurable: true });
}

function makeTable(later: readonly string[], market: readonly string[] | null, numbersLater: readonly string[] = []): Table {
  const Row = function (this: RowObject, i: number) {
    this[ROW] = i;
  } as unknown as Table['Row'];
  const t: Table = {
    later,
    numbersLater,
    columns: [],
    byName: new Map(),
    size: 0,
    capacity: 1024,
    Row,
    prepared: null,
    copy: () => 0,
    plain: () => ({}),
    compiled: false,
    market: market && new Set(market),
    copyMarket: () => 0,
    copyDescription: () => 0,
    splitFor: null,
    awaiting: new Uint8Array(1024),
    awaitingCount: 0,
    awaitingFrom: 0,
    awaitingKey: new Uint32Array(1024),
    describer: null,
    describable: false,
    ascending: true,
  };
  Object.defineProperty(Row.prototype, 'toJSON', {
    /** The plain record: its columns in order, then the properties it got later (as the plain object had them). */
    value(this: RowObject) {
      if (t.awaiting[this[ROW]] === 1) describeRow(t, this[ROW]);
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

function grow(t: Table, capacity: number): void {
  t.capacity = capacity;
  t.compiled = false;
  t.awaiting = grown(t.awaiting, capacity);
  t.awaitingKey = grown(t.awaitingKey, capacity);
  for (const c of t.columns) {
    if (c.kind === 'ints') c.data = c.data.map((d) => grown(d, t.capacity));
    else if (c.kind === 'key') c.data = grown(c.data, t.capacity * (c.width >> 1));
    else if (c.kind !== 'any' && c.kind !== 'sparse') c.data = grown(c.data, t.capacity);
  }
}

/** Records of one kind by column (a world's listings, its loans: loan-table.ts). */
export type RowTable = Table;

/**
 * An empty table whose rows get the fields `later` after they are made (kept in sparse columns; those in `numbersLater`
 * in a typed column), and, with `market`, rows made from those fields alone (`describedLaterRow`).
 */
export function emptyRowTable(
  later: readonly string[],
  market: readonly string[] | null = null,
  numbersLater: readonly string[] = [],
): RowTable {
  return makeTable(later, market, numbersLater);
}

/**
 * Makes room for `rows` rows in all, before they are added, and half as many again as the listings the market adds
 * later (a clock move of 15 days adds about as many as a world holds): allocated once, in typed columns that cost
 * memory only once written. Growing a million rows by doubling copied every column twenty times and made the garbage
 * collector mark the whole heap again on every new buffer; growing by a move's arrivals copied every row the world
 * held and took a third of the move's time in page faults.
 */
export function reserveRows(t: RowTable, rows: number): void {
  const capacity = Math.ceil(2.5 * rows) + 1024;
  if (capacity > t.capacity) grow(t, capacity);
}

/** `record` as a row of table `t`: the object to keep instead of the plain one (it reads and writes as `record` does). */
export function tableRow<T extends object>(t: RowTable, record: T): T {
  const i = nextRow(t);
  const present = t.copy(record, i);
  addColumnsFor(t, record as unknown as Record<string, unknown>, i, present);
  t.size++;
  return rowObject(t, i) as T;
}

/** The next row's number, with room and compiled copies for it. */
function nextRow(t: Table): number {
  if (t.size === t.capacity) grow(t, t.capacity * GROWTH);
  if (!t.compiled) compileCopy(t);
  return t.size;
}

/** Gives the fields of `plain` that have no column yet (`present` of its fields had one) a column, holding their values in row `i`. */
function addColumnsFor(t: Table, plain: Record<string, unknown>, i: number, present: number): void {
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
}

/**
 * A row made from `market`, a record holding the market fields (listing-table.ts MARKET_FIELDS), whose other fields are
 * written by `describer(i, key)` (with `describe`) the first time anything reads or writes one of them, or
 * when `describeAwaiting` reaches it; null until a whole row as the describer writes them was added and
 * marked (`markDescribable`: a field without a column would read undefined on an awaiting row instead of
 * describing it, and a world loaded from an older mock's state file may lack one). The describer must write
 * the same description whenever it is called (`key`, a 32-bit number kept with the row, says which): the
 * row reads as if it had been written whole when it was made.
 */
export function describedLaterRow<T extends object>(
  t: RowTable,
  market: T,
  describer: (i: number, key: number) => void,
  key: number,
): T | null {
  if (!t.market || !t.describable) return null;
  const i = nextRow(t);
  compileSplitCopy(t);
  t.copyMarket(market, i);
  t.awaiting[i] = 1;
  t.awaitingKey[i] = key;
  if (t.awaitingCount === 0) t.awaitingFrom = i;
  t.awaitingCount++;
  t.describer = describer;
  t.size++;
  return rowObject(t, i) as T;
}

/** Says that the table's last row was made whole as its describer writes descriptions: every field of one now has a column. */
export function markDescribable(t: RowTable): void {
  t.describable = true;
}

/** Writes the description of row `i` (awaiting it) from `plain`, a whole record of the row; its market fields are left as they are. */
export function describe(t: RowTable, i: number, plain: object): void {
  compileSplitCopy(t);
  addColumnsFor(t, plain as Record<string, unknown>, i, t.copyDescription(plain, i));
}

/** Describes row `i` (awaiting its description) with the table's describer. */
function describeRow(t: Table, i: number): void {
  t.awaiting[i] = 0;
  t.awaitingCount--;
  t.describer!(i, t.awaitingKey[i]!);
}

/** Describes up to `rows` rows awaiting it, first rows first; true once none awaits. */
export function describeAwaiting(t: RowTable, rows = Infinity): boolean {
  let left = rows;
  let i = t.awaitingFrom;
  for (; t.awaitingCount > 0 && i < t.size && left > 0; i++) {
    if (t.awaiting[i] === 0) continue;
    describeRow(t, i);
    left--;
  }
  t.awaitingFrom = i;
  return t.awaitingCount === 0;
}

/** Rows awaiting their description. */
export function rowsAwaiting(t: RowTable): number {
  return t.awaitingCount;
}

/** The row of a row object the table made (a listing the world keeps, `addListing`: its position in `world.listings` and in the columns). */
export function rowOf(row: object): number {
  return (row as RowObject)[ROW];
}
