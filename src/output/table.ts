/**
 * Table layout for a terminal, gh-style: no borders, two spaces between columns, numbers right-aligned.
 * Given a width (0 or none known: 80), prose gives way first: long text is cut with … or (descriptions)
 * wrapped onto more lines, then columns are dropped from the lowest priority up. Numbers and identifiers
 * (ids, listing numbers, field names, flags) are never cut nor dropped for prose: an identifier cell
 * wraps at its spaces, a word whole. When the identifiers cannot stand side by side even so, each row is
 * printed as a record (its key, then one `header  value` line a column) with nothing cut. Pure, so the
 * layout is tested without a terminal.
 */
import { display, identifies, label, wraps } from './columns.js';

const GAP = 2;
/** Narrowest a cut text column gets, and a wrapped one: below that they stop being readable. */
const MIN_CUT = 8;
const MIN_WRAP = 24;
/** The width of a terminal that reports none, or 0 columns (some do under a pipe or an emulator). */
export const DEFAULT_WIDTH = 80;
/** The indent of a record's lines under its key. */
const INDENT = 2;

/** One shown column and its width. */
export interface PlannedColumn {
  name: string;
  header: string;
  width: number;
  numeric: boolean;
  wrap: boolean;
  /** An identifier: never cut; it wraps at its spaces (a word kept whole) when wider than `width`. */
  ident: boolean;
}

/** The columns a table shows, in display order, with their widths; `records` (the width) when rows print as records. */
export type TablePlan = readonly PlannedColumn[] & { readonly records?: number };

/** Options of a layout: the width to fit (none: natural widths; 0: 80) and the columns to keep first. */
export interface LayoutOptions {
  width?: number;
  priority?: readonly string[];
}

type Cell = { text: string; numeric: boolean };

/** Length as the terminal counts it (code points; wide characters are rare in this data). */
const len = (s: string): number => [...s].length;

function cells(rows: readonly Record<string, unknown>[], columns: readonly string[]): Cell[][] {
  return rows.map((r) => columns.map((c) => display(c, r[c])));
}

type Sized = PlannedColumn & { natural: number; min: number };
const shape = ({ name, header, width, numeric, wrap, ident }: Sized): PlannedColumn => ({ name, header, width, numeric, wrap, ident });

/** Chooses and sizes the columns for `rows` (the first chunk of a stream is enough). */
export function planTable(rows: readonly Record<string, unknown>[], columns: readonly string[], opts: LayoutOptions = {}): TablePlan {
  const grid = cells(rows, columns);
  const all: Sized[] = columns.map((name, i) => {
    const values = grid.map((r) => r[i]!).filter((c) => c.text !== '');
    const numeric = values.length > 0 && values.every((c) => c.numeric);
    const header = label(name);
    const natural = Math.max(len(header), ...values.map((c) => len(c.text)));
    const ident = identifies(name);
    const wrap = !numeric && !ident && wraps(name);
    // An identifier may go onto more lines at its spaces (`--x_min --x_max`), never inside a word.
    const word = Math.max(len(header), ...values.flatMap((c) => c.text.split(/\s+/).map(len)));
    const min = numeric ? natural : ident ? word : Math.min(natural, wrap ? MIN_WRAP : MIN_CUT);
    return { name, header, numeric, wrap, ident, natural, width: natural, min };
  });
  if (opts.width === undefined || all.length === 0) return all.map(shape);
  const width = opts.width > 0 ? opts.width : DEFAULT_WIDTH;
  const order = [...(opts.priority ?? []).filter((c) => columns.includes(c)), ...columns.filter((c) => !opts.priority?.includes(c))];
  const byName = new Map(all.map((c) => [c.name, c]));
  // The most important column (the key) is not cut while it can have most of the line.
  const key = byName.get(order[0]!)!;
  if (!key.numeric && !key.ident) key.min = Math.min(key.natural, Math.floor(width * 0.6));
  const kept = order.map((n) => byName.get(n)!);
  const need = () => kept.reduce((s, c) => s + c.min, 0) + GAP * (kept.length - 1);
  // Prose and figures give way to identifiers: the lowest-priority column that is neither the key nor an identifier goes first.
  for (let i = kept.length - 1; i > 0 && need() > width; i--) if (!kept[i]!.ident) kept.splice(i, 1);
  if (need() > width || (kept.length === 1 && columns.length > 1)) {
    // The identifiers alone are wider than the line, or the key would be all that is left (a column of order
    // ids says nothing): one record a row, every value whole, the key first.
    const records = [key, ...all.filter((c) => c !== key)].map((c) => shape({ ...c, width: c.natural }));
    return Object.assign(records, { records: width });
  }
  for (const c of kept) c.width = c.min;
  let extra = width - need();
  // What is left goes to the columns in priority order: cut text and figures first, then wrapped prose, then
  // identifiers with spaces (a flags cell goes onto one line a flag rather than squeeze the description).
  const spread = [...kept.filter((k) => !k.wrap && !k.ident), ...kept.filter((k) => k.wrap), ...kept.filter((k) => k.ident)];
  for (const c of spread) {
    const add = Math.max(0, Math.min(extra, c.natural - c.min));
    c.width += add;
    extra -= add;
  }
  if (kept.length === 1) kept[0]!.width = Math.min(kept[0]!.natural, width);
  const shown = new Set(kept);
  return all.filter((c) => shown.has(c)).map(shape);
}

/** `text` cut to `width` with … marking the cut. */
export function cut(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/** `word` split into pieces of at most `width` characters, nothing left out. */
const split = (word: string, width: number): string[] => {
  const chars = [...word];
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += width) pieces.push(chars.slice(i, i + width).join(''));
  return pieces;
};

/** An identifier longer than `width` split after its `_`, `.` or `-` where it can be (a field name at its parts), else anywhere. */
export function breakName(word: string, width: number): string[] {
  const pieces: string[] = [];
  let rest = [...word];
  while (rest.length > width) {
    const head = rest.slice(0, width);
    const at = Math.max(head.lastIndexOf('_'), head.lastIndexOf('.'), head.lastIndexOf('-'));
    const n = at > 0 ? at + 1 : width;
    pieces.push(rest.slice(0, n).join(''));
    rest = rest.slice(n);
  }
  pieces.push(rest.join(''));
  return pieces;
}

/** `text` wrapped at spaces onto lines of at most `width`; a longer word is split by `breakWord` (anywhere, by default). */
export function wrapText(text: string, width: number, breakWord: (word: string, width: number) => string[] = split): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (len(word) > width) {
      const pieces = breakWord(word, Math.max(1, width));
      if (line) lines.push(line);
      lines.push(...pieces.slice(0, -1));
      line = pieces.at(-1)!;
    } else if (!line) line = word;
    else if (len(line) + 1 + len(word) <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

const pad = (s: string, width: number, right: boolean): string => {
  const gap = ' '.repeat(Math.max(0, width - len(s)));
  return right ? gap + s : s + gap;
};

/** The lines of one cell: prose wrapped or cut, an identifier wrapped (never cut), a number whole. */
function cellLines(c: PlannedColumn, text: string): string[] {
  if (c.ident) return wrapText(text, c.width, breakName);
  if (c.wrap) return wrapText(text, c.width);
  // A later chunk of a stream may hold a wider number than the first: it pushes its line out rather than lose digits.
  return c.numeric ? [text] : [cut(text, c.width)];
}

/** One row as a record within `width`: its key (whole, broken after `_` if longer than the line), then a `header  value` line a column. */
function recordLines(plan: TablePlan, row: Record<string, unknown>, width: number, paint?: (s: string) => string): string[] {
  const [key, ...rest] = plan;
  const lines = wrapText(display(key!.name, row[key!.name]).text, width, breakName).map((l) => (paint ? paint(l) : l));
  const shown = rest.map((c) => ({ c, text: display(c.name, row[c.name]).text })).filter((e) => e.text !== '');
  const labels = Math.max(0, ...shown.map((e) => len(e.c.header)));
  // A value keeps at least half the line: a longer header goes on a line of its own, its value under it.
  const beside = INDENT + labels + GAP <= width / 2;
  const at = beside ? INDENT + labels + GAP : INDENT * 2;
  for (const { c, text } of shown) {
    const room = Math.max(1, width - at);
    const values = c.wrap ? wrapText(text, room) : wrapText(text, room, breakName);
    if (beside) lines.push(`${' '.repeat(INDENT)}${c.header.padEnd(labels)}${' '.repeat(GAP)}${values.shift() ?? ''}`.trimEnd());
    else lines.push(...wrapText(c.header, Math.max(1, width - INDENT), breakName).map((l) => `${' '.repeat(INDENT)}${l}`));
    lines.push(...values.map((v) => `${' '.repeat(at)}${v}`));
  }
  return lines;
}

/** The lines of a table laid out by `plan`: the header (unless told not to), then each row; or each row as a record. */
export function tableLines(
  plan: TablePlan,
  rows: readonly Record<string, unknown>[],
  opts: { header?: boolean; paint?: (s: string) => string } = {},
): string[] {
  if (plan.records !== undefined) return rows.flatMap((row) => recordLines(plan, row, plan.records!, opts.paint));
  const lines: string[] = [];
  if (opts.header !== false) {
    const head = plan
      .map((c) => pad(cut(c.header, c.width), c.width, c.numeric))
      .join(' '.repeat(GAP))
      .trimEnd();
    lines.push(opts.paint ? opts.paint(head) : head);
  }
  for (const row of rows) {
    const parts = plan.map((c) => cellLines(c, display(c.name, row[c.name]).text));
    const height = Math.max(...parts.map((p) => p.length));
    for (let i = 0; i < height; i++) {
      lines.push(
        plan
          .map((c, j) => pad(parts[j]![i] ?? '', c.width, c.numeric))
          .join(' '.repeat(GAP))
          .trimEnd(),
      );
    }
  }
  return lines;
}
