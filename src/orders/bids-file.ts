/**
 * Reading a bids file: CSV with a header naming `listing_id` (or `listing_number`) and `bid_amount`.
 * Every row is checked before anything is sent, and every problem is reported with its file line
 * (the header is line 1).
 */
import { MIN_BID } from '../contract/enums.js';
import { UsageError } from '../errors.js';

/** One bid to place. */
export interface PlannedBid {
  listing_id: number;
  bid_amount: number;
  /** File line it came from. */
  line: number;
}

const AMOUNT_RE = /^\d+(\.\d{1,2})?$/;

/** Checks an amount: a decimal with at most 2 places, at least the minimum bid. Returns the problem or null. */
export function amountProblem(text: string): string | null {
  const t = text.trim();
  if (!AMOUNT_RE.test(t)) return `bid_amount '${text}' is not an amount with at most 2 decimals`;
  if (Number(t) < MIN_BID) return `bid_amount ${t} is below the minimum bid of ${MIN_BID.toFixed(2)}`;
  return null;
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
  const { parse } = await import('csv-parse/sync');
  let records: string[][];
  try {
    records = parse(text, { relax_column_count: true, skip_empty_lines: false, trim: true, bom: true }) as string[][];
  } catch (err) {
    const e = err as Error & { lines?: number };
    throw new UsageError(`${source}: not valid CSV${e.lines ? ` near line ${e.lines}` : ''}: ${e.message}`);
  }
  const nonEmpty = records.map((r, i) => ({ cells: r, line: i + 1 })).filter((r) => r.cells.some((c) => c !== ''));
  if (nonEmpty.length === 0) throw new UsageError(`${source} is empty: expected a header with listing_id and bid_amount`);
  const header = nonEmpty[0]!;
  const names = header.cells.map((c) => c.toLowerCase());
  const idCol = names.findIndex((n) => n === 'listing_id' || n === 'listing_number');
  const amountCol = names.indexOf('bid_amount');
  if (idCol < 0) {
    throw new UsageError(`${source} line ${header.line}: the header needs a listing_id or listing_number column (found: ${header.cells.join(', ')})`);
  }
  if (amountCol < 0 && fillAmount === undefined) {
    throw new UsageError(`${source} line ${header.line}: the header has no bid_amount column`, 'add one, or give every bid the same amount with --amount');
  }
  const problems: string[] = [];
  const bids: PlannedBid[] = [];
  const seen = new Map<number, number>();
  for (const row of nonEmpty.slice(1)) {
    const where = `${source} line ${row.line}`;
    const idText = row.cells[idCol] ?? '';
    const amountText = (amountCol >= 0 ? row.cells[amountCol] : undefined) ?? '';
    let ok = true;
    if (!/^\d+$/.test(idText) || Number(idText) <= 0) {
      problems.push(`${where}: listing id '${idText}' is not a positive whole number`);
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
    if (!ok) continue;
    const id = Number(idText);
    const first = seen.get(id);
    if (first !== undefined) {
      problems.push(`${where}: listing ${id} is already bid on at line ${first} (a listing may appear once)`);
      continue;
    }
    seen.set(id, row.line);
    bids.push({ listing_id: id, bid_amount: Number(amount!.trim()), line: row.line });
  }
  if (problems.length > 0) {
    throw new UsageError(`${source} has ${problems.length} problem${problems.length > 1 ? 's' : ''}; nothing was sent:\n  ${problems.join('\n  ')}`);
  }
  if (bids.length === 0) throw new UsageError(`${source} has a header but no bids; nothing was sent`);
  return bids;
}

/** Splits items into groups of at most `size`. */
export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
