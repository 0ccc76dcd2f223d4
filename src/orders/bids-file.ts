/**
 * Reading a bids file: CSV with a header naming `listing_id` (or `listing_number`) and `bid_amount`.
 * Every row is checked before anything is sent, and every problem is reported with its file line
 * (the header is line 1).
 */
import type * as CsvParseSync from 'csv-parse/sync';
import { isAmountText, MIN_BID } from '../contract/bid-rules.js';
import { UsageError } from '../errors.js';
import { requireCommonJs } from '../os/require-common-js.js';

/** One bid to place. */
export interface PlannedBid {
  listing_id: number;
  bid_amount: number;
  /** File line it came from. */
  line: number;
}

/** A negative number in plain decimal text: read as one, so that it is called negative, not "not an amount". */
const NEGATIVE_TEXT = /^-\d*\.?\d+$/;

/** Checks an amount: a decimal with at most 2 places, at least the minimum bid. Returns the problem or null. */
export function amountProblem(text: string): string | null {
  const t = text.trim();
  if (NEGATIVE_TEXT.test(t) && Number(t) < 0) {
    return `bid_amount ${t} is negative: amounts are positive, at least the minimum bid of ${MIN_BID.toFixed(2)}`;
  }
  if (!isAmountText(t)) return `bid_amount '${text}' is not an amount with at most 2 decimals`;
  if (Number(t) < MIN_BID) return `bid_amount ${t} is below the minimum bid of ${MIN_BID.toFixed(2)}`;
  return null;
}

/** The largest listing id the API takes: ids are JSON integers, exact only up to 2^53 - 1. */
export const MAX_LISTING_ID = Number.MAX_SAFE_INTEGER;

/**
 * A listing id read from its text, digit by digit: the id when the text is the plain decimal of a
 * positive integer no larger than 2^53 - 1, else the problem. Checked as text, before any conversion,
 * because Number() rounds past 2^53 (…993 became …992) and gives Infinity (sent as null) for 400
 * digits. Leading zeros are refused: the number sent would not read as the text the file holds.
 */
export function listingId(text: string): number | string {
  const shown = text.length > 40 ? `${text.slice(0, 20)}…(${text.length} characters)` : text;
  if (!/^\d+$/.test(text) || /^0+$/.test(text)) return `listing id '${shown}' is not a positive whole number`;
  if (text.startsWith('0')) return `listing id '${shown}' has leading zeros; write it as ${text.replace(/^0+/, '')}`;
  const max = String(MAX_LISTING_ID);
  if (text.length > max.length || (text.length === max.length && text > max)) {
    return `listing id '${shown}' is larger than ${max}, the largest id the marketplace takes (2^53 - 1)`;
  }
  return Number(text);
}

/**
 * Parses and checks a bids file. `fillAmount` (from --amount) fills a missing or empty amount.
 * Throws a UsageError listing every problem found, each with its line number.
 */
export async function readBids(text: string, source: string, fillAmount?: string): Promise<PlannedBid[]> {
  if (fillAmount !== undefined) {
    const p = amountProblem(fillAmount);
    if (p) throw new UsageError(`--amount: ${p.replace(/^bid_amount /, '')}`);
  }
  const { header, rows } = await parseRecords(text, source);
  const names = header.cells.map((c) => c.toLowerCase());
  const idCol = uniqueColumn(names, ['listing_id', 'listing_number'], `${source} line ${header.line}`);
  const amountCol = uniqueColumn(names, ['bid_amount'], `${source} line ${header.line}`);
  if (idCol < 0) {
    throw new UsageError(
      `${source} line ${header.line}: the header needs a listing_id or listing_number column (found: ${header.cells.join(', ')})`,
    );
  }
  if (amountCol < 0 && fillAmount === undefined) {
    throw new UsageError(
      `${source} line ${header.line}: the header has no bid_amount column`,
      'add one, or give every bid the same amount with --amount',
    );
  }
  const problems: string[] = [];
  const bids: PlannedBid[] = [];
  const seen = new Map<number, number>();
  for (const row of rows) {
    const where = `${source} line ${row.line}`;
    const idText = row.cells[idCol] ?? '';
    const amountText = (amountCol >= 0 ? row.cells[amountCol] : undefined) ?? '';
    let ok = true;
    const id = listingId(idText);
    if (typeof id === 'string') {
      problems.push(`${where}: ${id}`);
      ok = false;
    }
    const amount = amountText === '' ? fillAmount : amountText;
    if (amount === undefined) {
      problems.push(`${where}: bid_amount is empty (give one, or use --amount)`);
      ok = false;
    } else {
      const p = amountProblem(amount);
      if (p) {
        problems.push(`${where}: ${p}`);
        ok = false;
      }
    }
    if (!ok || typeof id !== 'number') continue;
    const first = seen.get(id);
    if (first !== undefined) {
      problems.push(`${where}: listing ${id} is already bid on at line ${first} (a listing may appear once)`);
      continue;
    }
    seen.set(id, row.line);
    bids.push({ listing_id: id, bid_amount: Number(amount!.trim()), line: row.line });
  }
  if (problems.length > 0) {
    throw new UsageError(
      `${source} has ${problems.length} problem${problems.length > 1 ? 's' : ''}; nothing was sent:\n  ${problems.join('\n  ')}`,
    );
  }
  if (bids.length === 0) throw new UsageError(`${source} has a header but no bids; nothing was sent`);
  return bids;
}

/** A CSV record and the file line it starts on. */
interface CsvRecord {
  cells: string[];
  line: number;
}

/**
 * Splits the text into records, each with the line it starts on, and returns the first non-empty one
 * (the header) and the non-empty ones after it. Lines are counted by their LF (CRLF is one line end;
 * csv-parse's own count takes CR and LF apart inside quoted fields and gives where a record ends).
 */
async function parseRecords(text: string, source: string): Promise<{ header: CsvRecord; rows: CsvRecord[] }> {
  const { parse } = requireCommonJs<typeof CsvParseSync>('csv-parse/sync'); // its CommonJS build
  const bytes = Buffer.from(text, 'utf8');
  const records: CsvRecord[] = [];
  let start = 1;
  let scanned = 0;
  let line = 1;
  try {
    parse(bytes, {
      relax_column_count: true,
      skip_empty_lines: false,
      trim: true,
      bom: true,
      record_delimiter: ['\r\n', '\n'],
      on_record: (cells: string[], context) => {
        records.push({ cells, line: start });
        // The context carries the parser's info (its typings leave bytes out): bytes is where this record
        // ends, its line end included, so the next record starts on the line after.
        const end = (context as unknown as { bytes: number }).bytes;
        for (; scanned < end; scanned++) if (bytes[scanned] === 0x0a) line++;
        start = line;
        return null;
      },
    });
  } catch (err) {
    const message = (err as Error).message.replace(/ at line \d+/, '');
    throw new UsageError(`${source} line ${start}: not valid CSV: ${message}`);
  }
  const nonEmpty = records.filter((r) => r.cells.some((c) => c !== ''));
  const [header, ...rows] = nonEmpty;
  if (!header) throw new UsageError(`${source} is empty: expected a header with listing_id and bid_amount`);
  return { header, rows };
}

/** Index of the one header column named by any of `aliases`, -1 when none; two such columns are ambiguous, so refused. */
function uniqueColumn(names: string[], aliases: string[], where: string): number {
  const found = names.flatMap((n, i) => (aliases.includes(n) ? [i] : []));
  if (found.length > 1) {
    const cols = found.map((i) => `${names[i]} (column ${i + 1})`).join(' and ');
    throw new UsageError(
      `${where}: the header has ${aliases.length > 1 ? 'more than one listing column' : `${aliases[0]} more than once`}: ${cols}`,
      'keep one',
    );
  }
  return found[0] ?? -1;
}

/** Splits items into groups of at most `size`. */
export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
