/**
 * Rendering of command results: table (terminal), json, ndjson, csv. stdout carries data only.
 * `json` prints a page as the API's envelope unchanged and a stream as one JSON array; `ndjson`
 * and `csv` stream item by item so memory stays flat. `--columns` picks fields in every format and
 * `--query` (JMESPath) reshapes json and ndjson; tables alone are fitted to the terminal and humanised.
 */
import type { Writable } from 'node:stream';
import { writeOut } from '../io.js';
import { toNumber } from '../contract/decode-kit.js';
import { count } from './columns.js';
import type { Format } from './formats.js';
import { fieldLines, sectionLines, type Section } from './sections.js';
import { checkColumns, pick, type Query } from './select.js';
import { planTable, tableLines, type TablePlan } from './table.js';

/** Names `--columns` may pick beyond the default columns, and the columns a narrow table keeps first. */
interface Choice {
  fields?: readonly string[];
  priority?: readonly string[];
}

/** What a command hands the runner to print. */
export type Output =
  | ({ kind: 'page'; envelope: { result: Record<string, unknown>[]; total_count?: unknown }; columns: string[] } & Choice)
  | ({ kind: 'stream'; items: AsyncIterable<Record<string, unknown>>; columns: string[]; live?: boolean } & Choice)
  | {
      kind: 'item';
      item: Record<string, unknown>;
      columns?: string[];
      table?: { rows: Record<string, unknown>[]; columns: string[] };
      sections?: readonly Section[];
    }
  | ({ kind: 'rows'; rows: Record<string, unknown>[]; columns: string[] } & Choice)
  | { kind: 'none' };

/** How to print: colour, the width to fit tables to, the raw `--columns`, the compiled `--query`, where notes go, the command's flags. */
export interface RenderOptions {
  color?: boolean;
  width?: number;
  columns?: string;
  query?: Query;
  notes?: Writable;
  /** The long flags of the command printing (`--all`, `--offset`, …): a footer names only those it has. */
  flags?: readonly string[];
}

/** Flags that reach past one page, in the order a footer names them; `--limit` only when neither is there. */
const PAGING_FLAGS = ['--all', '--offset'] as const;

/** The footer under one page of `shown` rows out of `total`, naming only the paging flags in `flags`. */
export function pageFooter(shown: number, total: number, flags: readonly string[]): string {
  const named = PAGING_FLAGS.filter((f) => flags.includes(f));
  const hint = named.length > 0 ? named : flags.includes('--limit') ? ['--limit'] : [];
  return `${count(shown)} of ${count(total)}${hint.length > 0 ? ` — use ${hint.join(' or ')}` : ''}`;
}

/** Writes, waiting for the stream to drain; rejects once the reader has gone (`mkt … | head`). */
const write = writeOut;

/** A cell for csv output: the value as the API gave it. */
export function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** One CSV field, quoted when needed (RFC 4180). */
export function csvField(v: unknown): string {
  const s = cell(v);
  return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csvLine = (columns: readonly string[], row: Record<string, unknown>): string => `${columns.map((c) => csvField(row[c])).join(',')}\n`;
const cyan = (s: string): string => `\x1b[36m${s}\x1b[39m`;
const unique = (names: readonly string[]): string[] => [...new Set(names)];

function tableText(plan: TablePlan, rows: readonly Record<string, unknown>[], o: RenderOptions, header = true): string {
  return tableLines(plan, rows, { header, ...(o.color ? { paint: cyan } : {}) })
    .map((l) => `${l}\n`)
    .join('');
}

function table(
  out: Writable,
  rows: readonly Record<string, unknown>[],
  columns: readonly string[],
  o: RenderOptions,
  priority?: readonly string[],
): Promise<void> {
  return write(out, tableText(planTable(rows, columns, { width: o.width, ...(priority ? { priority } : {}) }), rows, o));
}

/** The JSON text of `value`, after --query when given. */
function json(value: unknown, o: RenderOptions, indent?: number): string {
  return JSON.stringify(o.query ? o.query.apply(value) : value, null, indent) ?? 'null';
}

/** One ndjson line, after --query; an item the query maps to null is left out (JMESPath projections drop nulls too). */
function ndjsonLine(item: unknown, o: RenderOptions): string {
  const v = o.query ? o.query.apply(item) : item;
  return v === null ? '' : `${JSON.stringify(v)}\n`;
}

/** Prints `output` to `out` in `format`; a boolean fourth argument is the colour alone. */
export async function render(out: Writable, output: Output, format: Format, options: boolean | RenderOptions = {}): Promise<void> {
  const o: RenderOptions = typeof options === 'boolean' ? { color: options } : options;
  switch (output.kind) {
    case 'none':
      return;
    case 'item': {
      const known = unique([...(output.columns ?? []), ...Object.keys(output.item), ...(output.table?.columns ?? [])]);
      const chosen = o.columns === undefined ? undefined : checkColumns(o.columns, known);
      const item = chosen ? pick(output.item, chosen) : output.item;
      if (format === 'json') return write(out, `${json(item, o, 2)}\n`);
      if (format === 'ndjson') return write(out, ndjsonLine(item, o));
      if (output.table) {
        const cols = chosen?.filter((c) => output.table!.columns.includes(c)) ?? output.table.columns;
        return render(out, { kind: 'rows', rows: output.table.rows, columns: cols.length > 0 ? cols : output.table.columns }, format, {
          ...o,
          columns: undefined,
        });
      }
      const cols = chosen ?? output.columns ?? Object.keys(output.item);
      if (format === 'csv') return write(out, `${cols.map(csvField).join(',')}\n${csvLine(cols, output.item)}`);
      if (output.sections)
        return write(
          out,
          sectionLines(pick(output.item, cols), output.sections, o.width, o.color ? cyan : undefined)
            .map((l) => `${l}\n`)
            .join(''),
        );
      // One record: `field: value` lines, each value shown as its own field's (money as money), none cut.
      return write(
        out,
        fieldLines(pick(output.item, cols), o.width)
          .map((l) => `${l}\n`)
          .join(''),
      );
    }
    case 'page':
    case 'rows': {
      const rows = output.kind === 'page' ? output.envelope.result : output.rows;
      const known = output.fields ?? unique([...output.columns, ...rows.flatMap((r) => Object.keys(r))]);
      const chosen = o.columns === undefined ? undefined : checkColumns(o.columns, known);
      const shown = chosen ? rows.map((r) => pick(r, chosen)) : rows;
      const columns = chosen ?? output.columns;
      if (format === 'json') return write(out, `${json(output.kind === 'page' ? { ...output.envelope, result: shown } : shown, o, 2)}\n`);
      if (format === 'ndjson') return write(out, shown.map((r) => ndjsonLine(r, o)).join(''));
      if (format === 'csv') return write(out, `${columns.map(csvField).join(',')}\n${rows.map((r) => csvLine(columns, r)).join('')}`);
      await table(out, rows, columns, o, chosen ?? output.priority);
      const total = output.kind === 'page' ? toNumber(output.envelope.total_count) : undefined;
      if (o.notes && total !== undefined && total > rows.length) await write(o.notes, `${pageFooter(rows.length, total, o.flags ?? [])}\n`);
      return;
    }
    case 'stream':
      return renderStream(out, output, format, o);
  }
}

async function renderStream(out: Writable, output: Extract<Output, { kind: 'stream' }>, format: Format, o: RenderOptions): Promise<void> {
  const it = output.items[Symbol.asyncIterator]();
  const first = await it.next();
  // Without declared fields, --columns is checked against the first item's keys, before anything is printed.
  const known = output.fields ?? unique([...output.columns, ...(first.done ? [] : Object.keys(first.value))]);
  const chosen = o.columns === undefined ? undefined : checkColumns(o.columns, known);
  const columns = chosen ?? output.columns;
  async function* items(): AsyncGenerator<Record<string, unknown>> {
    if (first.done) return;
    yield chosen ? pick(first.value, chosen) : first.value;
    for (let r = await it.next(); !r.done; r = await it.next()) yield chosen ? pick(r.value, chosen) : r.value;
  }
  if (format === 'json') {
    if (o.query) {
      // A query sees the whole array (as with a page), so a stream with --query is held in memory.
      const all: Record<string, unknown>[] = [];
      for await (const item of items()) all.push(item);
      return write(out, `${json(all, o, 2)}\n`);
    }
    let none = true;
    await writeLines(out, items(), (item) => {
      const text = `${none ? '[\n' : ',\n'}${JSON.stringify(item)}`;
      none = false;
      return text;
    });
    return write(out, none ? '[]\n' : '\n]\n');
  }
  if (format === 'ndjson') return writeLines(out, items(), (item) => ndjsonLine(item, o));
  if (format === 'csv') {
    await write(out, `${columns.map(csvField).join(',')}\n`);
    return writeLines(out, items(), (item) => csvLine(columns, item));
  }
  // A table needs its column widths: plan them on the first chunk and print chunk by chunk, so memory stays bounded.
  let plan: TablePlan | undefined;
  let chunk: Record<string, unknown>[] = [];
  const flush = async () => {
    const header = plan === undefined;
    const layout = () =>
      planTable(chunk, columns, { width: o.width, ...((chosen ?? output.priority) ? { priority: chosen ?? output.priority } : {}) });
    // A live stream's later rows may be wider than its first: its columns grow to fit them rather than cut them.
    plan = plan === undefined ? layout() : output.live ? widened(plan, layout()) : plan;
    await write(out, tableText(plan, chunk, o, header));
    chunk = [];
  };
  const source = items();
  for (;;) {
    const next = source.next();
    // A live stream (`--follow`) prints what it has whenever the next item is not ready at once.
    if (output.live && chunk.length > 0 && (await notYet(next))) await flush();
    const r = await next;
    if (r.done) break;
    chunk.push(r.value);
    if (chunk.length === 500) await flush();
  }
  if (chunk.length > 0 || plan === undefined) await flush();
}

/** `plan` with each column as wide as in `wider` when that is more (records have no widths to grow). */
function widened(plan: TablePlan, wider: TablePlan): TablePlan {
  if (plan.records !== undefined) return plan;
  return plan.map((c) => ({ ...c, width: Math.max(c.width, wider.find((w) => w.name === c.name)?.width ?? 0) }));
}

/** Text held back before a write: one write a row cost a system call each (a tenth of `--all -o ndjson`'s time). */
const LINE_BATCH = 64 * 1024;

/**
 * Writes `line(item)` for every item, gathered into writes of up to LINE_BATCH characters: what is
 * gathered is written once it is that long, whenever the next item is not ready at once (a page still
 * coming, a `--follow` waiting), and at the end; so a row is never held back while mkt waits.
 */
async function writeLines<T>(out: Writable, source: AsyncIterator<T>, line: (item: T) => string): Promise<void> {
  let held = '';
  for (;;) {
    const next = source.next();
    if (held.length >= LINE_BATCH || (held !== '' && (await notYet(next)))) {
      const text = held;
      held = '';
      await write(out, text);
    }
    let r: IteratorResult<T>;
    try {
      r = await next;
    } catch (err) {
      // The rows before a failure are printed, as they were before gathering.
      if (held !== '') await write(out, held);
      throw err;
    }
    if (r.done) break;
    held += line(r.value);
  }
  if (held !== '') await write(out, held);
}

/** True when `p` has not settled by the next turn of the event loop. */
function notYet(p: Promise<unknown>): Promise<boolean> {
  return Promise.race([
    p.then(
      () => false,
      () => false,
    ),
    new Promise<boolean>((resolve) => setImmediate(resolve, true)),
  ]);
}
