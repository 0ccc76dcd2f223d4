/**
 * A row table (row-table.ts) and the code compiled for its columns as they are: copying a plain
 * record into a row, reading a row back as a plain record, and the accessors of row objects. Each is
 * straight-line code over the columns' own arrays (column-kinds.ts writes the code of each kind).
 */
import { COMPILED_HELPERS, ownKeys, readCode, storeCode, type Column, type Names } from './column-kinds.js';

/** The own property of a row holding its position in the columns. */
export const ROW = '$row';

/** A row object: its position, and its fields as accessors on its prototype. */
export type RowObject = Record<string, unknown> & { [ROW]: number };

/** Stores `v` in row `i` of column `j` of `t`, widening the column when it cannot hold `v` (the compiled code's slow path). */
export type Write = (t: Table, j: number, i: number, v: unknown) => void;

/** Records of one kind by column. */
export interface Table {
  /** Fields set on a few rows after they are made: sparse columns (LATER_FIELDS for listings, loan-table.ts for loans). */
  later: readonly string[];
  /** Of `later`, the fields that hold numbers: a typed column each until a value of another kind comes (column-kinds.ts `sparseNum`). */
  numbersLater: readonly string[];
  columns: Column[];
  byName: Map<string, number>;
  /** Rows made so far. */
  size: number;
  /** Rows the typed columns have room for. */
  capacity: number;
  /** Makes the object of row `i`. */
  Row: new (i: number) => object;
  /** The objects of the rows about to be added from row `from`, made together (`prepareRowObjects`); null when none waits. */
  prepared: { from: number; rows: object[] } | null;
  /** Writes a plain record's fields into row `i` of every column; returns how many it held (compiled, see compileCopy). */
  copy: (plain: unknown, i: number) => number;
  /** Row `i` as a plain object, fields in column order (compiled with `copy`: one object literal, so the state file's JSON.stringify meets a fast object). */
  plain: (i: number) => Record<string, unknown>;
  /** False once a column was added, widened or grown since `copy` was compiled. */
  compiled: boolean;
  /**
   * The fields every row gets when it is made; null when that is all of them (the loans). With them, a row
   * may be made with these only and described later (`describedLaterRow`): the other columns' accessors
   * and the row's JSON describe a row that awaits it before they read or write it.
   */
  market: ReadonlySet<string> | null;
  /** Writes the market fields of a plain record into row `i` (compiled for the columns `copy` was, when a row needs it). */
  copyMarket: (plain: unknown, i: number) => number;
  /** Writes every other field of a plain record into row `i`; returns how many of its fields had a column, as `copy` does. */
  copyDescription: (plain: unknown, i: number) => number;
  /** The `copy` that `copyMarket` and `copyDescription` were compiled with (they are stale once it is recompiled). */
  splitFor: Table['copy'] | null;
  /** 1 for a row whose description is still to be written, by row. */
  awaiting: Uint8Array;
  /** Rows awaiting their description, and the first row that may. */
  awaitingCount: number;
  awaitingFrom: number;
  /** True once the table holds a whole row drawn as its describer draws (`markDescribable`): every field of one has a column. */
  describable: boolean;
  /** What the describer of each awaiting row was given with it (`describedLaterRow`), by row. */
  awaitingKey: Uint32Array;
  /** Writes row `i`'s description (with `describe`), given by whoever made the row, with its key. */
  describer: ((i: number, key: number) => void) | null;
  /**
   * True while each row added holds a higher listing number than the row before (world.ts `addListing` keeps it), so
   * that its rows in order are its listings in number order (engine/market.ts `inNumberOrder`): a listing table's;
   * other tables leave it true and unread.
   */
  ascending: boolean;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The helpers compiled code calls (column-kinds.ts), passed to it as parameters of these names. */
const HELPER_NAMES = Object.keys(COMPILED_HELPERS);
const HELPERS = Object.values(COMPILED_HELPERS);

/** The names compiled copying and reading give column `j`'s parts (declared by `locals`). */
const names = (j: number): Names => ({ d: `d${j}`, codes: `C${j}`, values: `V${j}` });

/** Declares column `j`'s parts as locals of compiled code, from `D` (the columns' data) and `T` (the table). */
const locals = (t: Table) =>
  t.columns
    .map(
      (c, j) =>
        `const d${j} = D[${j}];${c.kind === 'enum' ? ` const C${j} = T.columns[${j}].codes; const V${j} = T.columns[${j}].values;` : ''}`,
    )
    .join(' ');

/** A compiled copy of the columns whose names pass `which`; returns how many fields of the record they held (with `countAll`, every column). */
export function compileCopyOf(t: Table, which: (name: string) => boolean, write: Write, countAll = false): Table['copy'] {
  // Names come from listing objects the mock made; any that is not an identifier is read by key.
  const load = (name: string) => (IDENTIFIER.test(name) ? `p.${name}` : `p[${JSON.stringify(name)}]`);
  const body = t.columns
    .map((c, j) =>
      which(c.name)
        ? `v = ${load(c.name)}; if (v !== undefined) n++; ${storeCode(c, names(j), `write(T, ${j}, i, v);`)}`
        : countAll
          ? `if (${load(c.name)} !== undefined) n++;`
          : '',
    )
    .join('\n');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the table's compiled row code, from its own column names
  const factory = new Function(
    'T',
    'write',
    'ownKeys',
    'D',
    ...HELPER_NAMES,
    `${locals(t)} return (p, i) => { let n = 0; let v; let k;\n${body}\nreturn n; };`,
  );
  return factory(
    t,
    write,
    ownKeys,
    t.columns.map((c) => c.data),
    ...HELPERS,
  ) as Table['copy'];
}

/**
 * Compiles `t.plain` for the columns as they are now: one object literal with a field per column in
 * order. Built field by field, an object of ~80 fields became a slow dictionary, and saving a world of
 * rows took twice as long as saving plain listings.
 */
export function compilePlain(t: Table): Table['plain'] {
  const fields = t.columns.map((c, j) => `${JSON.stringify(c.name)}: ${readCode(c, names(j))}`).join(',\n');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the table's compiled row code, from its own column names
  const factory = new Function('D', 'T', ...HELPER_NAMES, `${locals(t)} return (i) => { let x; return {\n${fields}\n}; };`);
  return factory(
    t.columns.map((c) => c.data),
    t,
    ...HELPERS,
  ) as Table['plain'];
}

/**
 * The accessor of column `j` for row objects, compiled for its kind and width (a generic one reading any
 * column made the engine's hourly walk over the live listings twice as slow; compiled per column, each
 * reads one type of array). It reads the column's data through `c`, which growing replaces; made again
 * when the column widens. `write` stores a value the column cannot hold (widening it), `describeRow`
 * describes a row awaiting its description.
 */
export function accessorOf(
  t: Table,
  j: number,
  write: Write,
  describeRow: (t: Table, i: number) => void,
): { get: () => unknown; set: (v: unknown) => void } {
  const c = t.columns[j]!;
  const parts: Names = { d: 'c.data', codes: 'c.codes', values: 'c.values' };
  // Set on some rows, then cleared (the engine's origination time, a loan's arrears): straight to the map, not through `write`.
  const store =
    c.kind === 'sparse' ? 'if (v === undefined) c.data.delete(i); else c.data.set(i, v);' : storeCode(c, parts, `write(T, ${j}, i, v);`);
  // A field of the description: a row awaiting it is described first (a write too, or the description would overwrite
  // it), then read or written through the property again (describing may have widened this column: `c` is then the old one).
  const key = JSON.stringify(c.name);
  const describes = t.market !== null && !t.market.has(c.name);
  const describeGet = describes ? `if (T.awaiting[i] === 1) { describeRow(T, i); return this[${key}]; } ` : '';
  const describeSet = describes ? `if (T.awaiting[i] === 1) { describeRow(T, i); this[${key}] = v; return; } ` : '';
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the table's compiled row code, from its own column names
  const make = new Function(
    'c',
    'T',
    'write',
    'ownKeys',
    'describeRow',
    ...HELPER_NAMES,
    `return {
    get() { const i = this[${JSON.stringify(ROW)}]; let x; ${describeGet}return ${readCode(c, parts)}; },
    set(v) { const i = this[${JSON.stringify(ROW)}]; let k; ${describeSet}${store} },
  };`,
  );
  return make(c, t, write, ownKeys, describeRow, ...HELPERS) as { get: () => unknown; set: (v: unknown) => void };
}

/**
 * Makes the objects of the rows from the table's size up to `rows`, before those rows are added (the seed, a
 * world loaded): `rowObject` hands them out. Made one per row among the garbage of drawing or reading each
 * record, a million of them were copied by every young-generation collection they lived through (~0.4 s of
 * CPU in seeding a million listings); made in one loop with nothing else between them, the collector
 * promotes them in bulk.
 */
export function prepareRowObjects(t: Table, rows: number): void {
  const from = t.size;
  const made = new Array<object>(Math.max(0, rows - from));
  for (let k = 0; k < made.length; k++) made[k] = new t.Row(from + k);
  t.prepared = made.length > 0 ? { from, rows: made } : null;
}

/** The object of row `i`, just added: the one prepared for it (the last of them lets the list go), else a new one. */
export function rowObject(t: Table, i: number): object {
  const prepared = t.prepared;
  if (prepared === null) return new t.Row(i);
  const k = i - prepared.from;
  if (k === prepared.rows.length - 1) t.prepared = null;
  return k >= 0 && k < prepared.rows.length ? prepared.rows[k]! : new t.Row(i);
}
