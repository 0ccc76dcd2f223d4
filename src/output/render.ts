/**
 * Rendering of command results: table (terminal), json, ndjson, csv. stdout carries data only.
 * `json` prints a page as the API's envelope unchanged and a stream as one JSON array; `ndjson`
 * and `csv` stream item by item so memory stays flat.
 */
import type { Writable } from 'node:stream';
import { UsageError } from '../errors.js';
import { writeOut } from '../io.js';

export const FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

/** What a command hands the runner to print. */
export type Output =
  | { kind: 'page'; envelope: { result: Record<string, unknown>[] }; columns: string[] }
  | { kind: 'stream'; items: AsyncIterable<Record<string, unknown>>; columns: string[] }
  | { kind: 'item'; item: Record<string, unknown>; columns?: string[]; table?: { rows: Record<string, unknown>[]; columns: string[] } }
  | { kind: 'rows'; rows: Record<string, unknown>[]; columns: string[] }
  | { kind: 'none' };

/** The format to use: the flag, else table on a terminal and json otherwise. */
export function resolveFormat(flag: string | undefined, isTTY: boolean): Format {
  if (flag === undefined) return isTTY ? 'table' : 'json';
  if (!(FORMATS as readonly string[]).includes(flag)) throw new UsageError(`--output must be one of ${FORMATS.join(', ')}, got '${flag}'`);
  return flag as Format;
}

/** Writes, waiting for the stream to drain; rejects once the reader has gone (`mkt … | head`). */
const write = writeOut;

/** A cell for table and csv output. */
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

async function table(out: Writable, rows: Record<string, unknown>[], columns: string[], color: boolean): Promise<void> {
  const { default: Table } = await import('cli-table3');
  const t = new Table({ head: columns, style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [], compact: true } });
  for (const r of rows) t.push(columns.map((c) => cell(r[c])));
  await write(out, `${t.toString()}\n`);
}

/** Prints `output` to `out` in `format`. */
export async function render(out: Writable, output: Output, format: Format, color = false): Promise<void> {
  switch (output.kind) {
    case 'none':
      return;
    case 'item': {
      if (format === 'json') return write(out, `${JSON.stringify(output.item, null, 2)}\n`);
      if (format === 'ndjson') return write(out, `${JSON.stringify(output.item)}\n`);
      if (output.table) return render(out, { kind: 'rows', ...output.table }, format, color);
      const cols = output.columns ?? Object.keys(output.item);
      if (format === 'csv') return write(out, `${cols.map(csvField).join(',')}\n${cols.map((c) => csvField(output.item[c])).join(',')}\n`);
      return table(out, cols.map((c) => ({ field: c, value: output.item[c] })), ['field', 'value'], color);
    }
    case 'page':
    case 'rows': {
      const rows = output.kind === 'page' ? output.envelope.result : output.rows;
      if (format === 'json') return write(out, `${JSON.stringify(output.kind === 'page' ? output.envelope : rows, null, 2)}\n`);
      if (format === 'ndjson') return write(out, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
      if (format === 'csv') {
        return write(out, [output.columns.map(csvField).join(','), ...rows.map((r) => output.columns.map((c) => csvField(r[c])).join(','))].join('\n') + '\n');
      }
      return table(out, rows, output.columns, color);
    }
    case 'stream':
      return renderStream(out, output.items, output.columns, format, color);
  }
}

async function renderStream(
  out: Writable, items: AsyncIterable<Record<string, unknown>>, columns: string[], format: Format, color: boolean,
): Promise<void> {
  if (format === 'json') {
    let first = true;
    await write(out, '[');
    for await (const item of items) {
      await write(out, `${first ? '\n' : ',\n'}${JSON.stringify(item)}`);
      first = false;
    }
    return write(out, first ? ']\n' : '\n]\n');
  }
  if (format === 'ndjson') {
    for await (const item of items) await write(out, `${JSON.stringify(item)}\n`);
    return;
  }
  if (format === 'csv') {
    await write(out, `${columns.map(csvField).join(',')}\n`);
    for await (const item of items) await write(out, `${columns.map((c) => csvField(item[c])).join(',')}\n`);
    return;
  }
  // A table needs its column widths: print it in chunks so memory stays bounded.
  let chunk: Record<string, unknown>[] = [];
  for await (const item of items) {
    chunk.push(item);
    if (chunk.length === 500) {
      await table(out, chunk, columns, color);
      chunk = [];
    }
  }
  if (chunk.length > 0) await table(out, chunk, columns, color);
}
