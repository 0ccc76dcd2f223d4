/**
 * The journal's lines on disk. Each entry is one line of JSON whose last field, `sum`, is a digest
 * of the line without it, so that damage (a byte flipped to NUL, random bytes, bytes that are not
 * UTF-8) is told from an entry rather than read as "no entry". Lines of older versions carry no sum
 * and are read as before, up to the first line that has one. The last line without its newline is
 * a write torn by a crash: the process died before acting on it, so it is skipped, not fatal.
 */
import { createHash } from 'node:crypto';
import { UsageError } from '../errors.js';
import type { BidRequest } from '../api/orders.js';

/** One journal line. */
export type JournalEntry =
  /**
   * `market` is the marketplace key; entries written before it existed have only `base_url`. `settle_ms`
   * and `timeout_ms`: the settle window and answer timeout in force when it was sent (older entries lack
   * them: a rerun reads its own), so that a rerun under other settings keeps it in doubt as long.
   */
  | {
      t: 'intent';
      batch: string;
      at: string;
      base_url: string;
      market?: string;
      bids: BidRequest[];
      settle_ms?: number;
      timeout_ms?: number;
    }
  | { t: 'accepted'; batch: string; at: string; order_id: string }
  | { t: 'rejected'; batch: string; at: string; status: number; code?: string; message?: string }
  | { t: 'lost'; batch: string; at: string; error: string }
  /** The order never reached the marketplace, or was refused before it was acted on: nothing placed. */
  | { t: 'unsent'; batch: string; at: string; error: string }
  | { t: 'reconciled'; batch: string; at: string; order_id: string | null }
  | { t: 'outcome'; at: string; order_id: string; bids: Array<{ listing_id: number; bid_status: string; bid_result?: string }> };

/** The checksum field, always last on a line: `,"sum":"<16 hex>"}`. */
const SUM = /,"sum":"([0-9a-f]{16})"\}$/;
const digest = (body: string): string => createHash('sha256').update(body).digest('hex').slice(0, 16);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** One entry as a journal line (without its newline). */
export function encodeLine(entry: JournalEntry): string {
  const body = JSON.stringify(entry);
  return `${body.slice(0, -1)},"sum":"${digest(body)}"}`;
}

/** A line that cannot be read, 1-based, with what is wrong and the byte offset where it starts. */
export interface BadLine {
  line: number;
  offset: number;
  what: string;
}

/** A journal file read whole: its entries, its bad lines, and a torn last line if any. */
export interface JournalRead {
  entries: JournalEntry[];
  bad: BadLine[];
  /** The last line, cut short by a crash mid-write (no newline after it): skipped. */
  torn: BadLine | null;
}

const isStr = (v: unknown): v is string => typeof v === 'string';
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const bidOk = (b: unknown): boolean => isObj(b) && isId(b.listing_id) && typeof b.bid_amount === 'number' && Number.isFinite(b.bid_amount);
const msOk = (v: unknown): boolean => v === undefined || (typeof v === 'number' && Number.isFinite(v) && v >= 0);
const outcomeOk = (b: unknown): boolean => isObj(b) && isId(b.listing_id) && isStr(b.bid_status);

/** The fields each entry type has: a line without a checksum (an older version's) may have no other. */
const FIELDS: Record<string, readonly string[]> = {
  intent: ['t', 'batch', 'at', 'base_url', 'market', 'bids', 'settle_ms', 'timeout_ms'],
  accepted: ['t', 'batch', 'at', 'order_id'],
  rejected: ['t', 'batch', 'at', 'status', 'code', 'message'],
  lost: ['t', 'batch', 'at', 'error'],
  unsent: ['t', 'batch', 'at', 'error'],
  reconciled: ['t', 'batch', 'at', 'order_id'],
  outcome: ['t', 'at', 'order_id', 'bids'],
};

/** What is wrong with a parsed line as a journal entry, or null; 'unknown' for a type of a later version. */
function shapeProblem(v: Record<string, unknown>): string | null {
  if (!isStr(v.at)) return 'no time (at)';
  const batch = isStr(v.batch);
  switch (v.t) {
    case 'intent':
      return batch
        && isStr(v.base_url)
        && (v.market === undefined || isStr(v.market))
        && Array.isArray(v.bids)
        && v.bids.every(bidOk)
        && msOk(v.settle_ms)
        && msOk(v.timeout_ms)
        ? null
        : 'not a whole intent entry';
    case 'accepted':
      return batch && isStr(v.order_id) ? null : 'not a whole accepted entry';
    case 'rejected':
      return batch && typeof v.status === 'number' ? null : 'not a whole rejected entry';
    case 'lost':
    case 'unsent':
      return batch && isStr(v.error) ? null : `not a whole ${v.t} entry`;
    case 'reconciled':
      return batch && (v.order_id === null || isStr(v.order_id)) ? null : 'not a whole reconciled entry';
    case 'outcome':
      return isStr(v.order_id) && Array.isArray(v.bids) && v.bids.every(outcomeOk) ? null : 'not a whole outcome entry';
    default:
      return 'unknown';
  }
}

/**
 * One complete line as an entry, null for an intact entry of a type this version does not know,
 * or what is wrong. `sums` says whether an earlier line of the file carried a checksum.
 */
function decodeLine(bytes: Uint8Array, sums: boolean): { entry: JournalEntry | null; summed: boolean } | string {
  let line: string;
  try {
    line = utf8.decode(bytes);
  } catch {
    return 'bytes that are not UTF-8';
  }
  const m = SUM.exec(line);
  const body = m ? `${line.slice(0, m.index)}}` : line;
  if (m && digest(body) !== m[1]) return 'checksum does not match: the line was changed after it was written';
  if (!m && sums) return 'no checksum after lines that have one';
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return 'not JSON';
  }
  if (!isObj(v)) return 'not a journal entry';
  if (!m && 'sum' in v) return 'checksum is malformed';
  // A damaged checksum's name (`"sUm"`) would otherwise pass the line off as an older version's.
  const fields = typeof v.t === 'string' ? FIELDS[v.t] : undefined;
  const extra = !m && fields ? Object.keys(v).find((k) => !fields.includes(k)) : undefined;
  if (extra !== undefined) return `unknown field ${JSON.stringify(extra)} (a damaged checksum?)`;
  const problem = shapeProblem(v);
  // A checksummed entry of a type a later version writes is intact: kept out, not damage.
  if (problem === 'unknown') return m ? { entry: null, summed: true } : 'not a journal entry';
  if (problem) return problem;
  return { entry: v as JournalEntry, summed: m !== null };
}

/** Reads a journal file's bytes line by line; every bad line is listed, the entries before and after kept. */
export function parseJournal(buf: Uint8Array): JournalRead {
  const out: JournalRead = { entries: [], bad: [], torn: null };
  let sums = false;
  let start = 0;
  for (let n = 1; start < buf.length; n++) {
    const nl = buf.indexOf(0x0a, start);
    const end = nl === -1 ? buf.length : nl;
    const bytes = buf.subarray(start, end);
    const at = start;
    start = end + 1;
    // Blank lines were never written, but older versions skipped them: so does this one.
    if (bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0d)) continue;
    const got = decodeLine(bytes, sums);
    if (nl === -1 && typeof got === 'string') {
      out.torn = { line: n, offset: at, what: 'last line cut short (a crash while writing it)' };
      break;
    }
    if (typeof got === 'string') {
      out.bad.push({ line: n, offset: at, what: got });
      continue;
    }
    sums ||= got.summed;
    if (got.entry && nl !== -1) out.entries.push(got.entry);
    // A last line that reads whole but lacks its newline was still being written: nothing acted on it.
    else if (got.entry) out.torn = { line: n, offset: at, what: 'last line without its newline (a crash while writing it)' };
  }
  return out;
}

/** The error that stops the desk on a damaged journal: exit 2, naming the file and the line. */
export class JournalDamageError extends UsageError {
  constructor(
    readonly path: string,
    readonly bad: BadLine,
  ) {
    super(
      `the order journal ${path} is damaged at line ${bad.line}: ${bad.what}; it cannot tell what was already bid, so nothing was sent`,
      'run `mkt order journal --check` to see every damaged line, and `mkt order journal --repair` to keep a copy, cut the journal at the first damaged line and record what the marketplace holds',
    );
  }
}
