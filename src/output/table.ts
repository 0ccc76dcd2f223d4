/**
 * Table layout for a terminal, gh-style: no borders, two spaces between columns, numbers right-aligned.
 * Given a width, columns are dropped from the lowest priority up until the rest fit, then sized: numbers
 * keep their full width, long text is cut with … or (descriptions) wrapped onto more lines. Pure, so the
 * layout is tested without a terminal.
 */
import { display, label, wraps } from './columns.js';

const GAP = 2;
/** Narrowest a cut text column gets, and a wrapped one: below that they stop being readable. */
const MIN_CUT = 8;
const MIN_WRAP = 24;

/** One shown column and its width. */
export interface PlannedColumn {
  name: string;
  header: string;
  width: number;
  numeric: boolean;
  wrap: boolean;
}

/** The columns a table shows, in display order, with their widths. */
export type TablePlan = readonly PlannedColumn[];

/** Options of a layout: the width to fit (none: natural widths) and the columns to keep first. */
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

/** Chooses and sizes the columns for `rows` (the first chunk of a stream is enough). */
export function planTable(rows: readonly Record<string, unknown>[], columns: readonly string[], opts: LayoutOptions = {}): TablePlan {
  const grid = cells(rows, columns);
  const all = columns.map((name, i) => {
    const values = grid.map((r) => r[i]!).filter((c) => c.text !== '');
    const numeric = values.length > 0 && values.every((c) => c.numeric);
    const header = label(name);
    const natural = Math.max(len(header), ...values.map((c) => len(c.text)));
    const wrap = !numeric && wraps(name);
    return { name, header, numeric, wrap, natural, width: natural, min: numeric ? natural : Math.min(natural, wrap ? MIN_WRAP : MIN_CUT) };
  });
  const width = opts.width;
  if (width === undefined || all.length === 0) return all;
  const order = [...(opts.priority ?? []).filter((c) => columns.includes(c)), ...columns.filter((c) => !opts.priority?.includes(c))];
  const byName = new Map(all.map((c) => [c.name, c]));
  // The most important column (the key) is not cut while it can have most of the line.
  const key = byName.get(order[0]!)!;
  key.min = Math.min(key.natural, Math.floor(width * 0.6));
  const kept = order.map((n) => byName.get(n)!);
  const need = () => kept.reduce((s, c) => s + c.min, 0) + GAP * (kept.length - 1);
  while (kept.length > 1 && need() > width) kept.pop();
  for (const c of kept) c.width = c.min;
  let extra = width - need();
  for (const c of kept) {
    const add = Math.max(0, Math.min(extra, c.natural - c.min));
    c.width += add;
    extra -= add;
  }
  if (kept.length === 1) kept[0]!.width = Math.min(kept[0]!.natural, width);
  const shown = new Set(kept);
  return all.filter((c) => shown.has(c)).map(({ name, header, width: w, numeric, wrap }) => ({ name, header, width: w, numeric, wrap }));
}

/** `text` cut to `width` with … marking the cut. */
export function cut(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/** `text` wrapped at spaces onto lines of at most `width` (a longer word is split). */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (let word of text.split(/\s+/).filter(Boolean)) {
    while (len(word) > width) {
      if (line) lines.push(line);
      line = '';
      lines.push([...word].slice(0, width).join(''));
      word = [...word].slice(width).join('');
    }
    if (!line) line = word;
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

/** The lines of a table laid out by `plan`: the header (unless told not to), then each row. */
export function tableLines(
  plan: TablePlan,
  rows: readonly Record<string, unknown>[],
  opts: { header?: boolean; paint?: (s: string) => string } = {},
): string[] {
  const lines: string[] = [];
  if (opts.header !== false) {
    const head = plan
      .map((c) => pad(cut(c.header, c.width), c.width, c.numeric))
      .join(' '.repeat(GAP))
      .trimEnd();
    lines.push(opts.paint ? opts.paint(head) : head);
  }
  for (const row of rows) {
    const parts = plan.map((c) => {
      const { text } = display(c.name, row[c.name]);
      return c.wrap ? wrapText(text, c.width) : [cut(text, c.width)];
    });
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
