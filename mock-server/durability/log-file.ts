/**
 * The operation log's file format and its reader. A log file is a header line, then records: each
 * a 4-byte length, a 4-byte CRC-32 of the payload (both little-endian) and the payload (JSON text of
 * one operation, operation-log.ts). log-appender.ts appends them.
 *
 * A torn tail only at the tail. A kill mid-append leaves a prefix of one write: whole records, then
 * one record cut short, and nothing after it. So a bad record is read as a torn last write (cut, the
 * records before it kept) only when nothing whole can follow it: fewer than 8 bytes are left, or only
 * zeros (a crash after the file grew), or no whole record starts anywhere after it. Anything else is
 * damage in the middle, refused naming the file and the bad record's offset: a length of 0 or above
 * MAX_RECORD (no write makes one), or a bad record with a whole record after it. "Whole" is a length
 * that fits in the file and a CRC-32 that matches its payload, looked for at every byte after the bad
 * record (wholeRecordAfter), not only where its length points: a flipped length bit points anywhere,
 * past the end included, while the record after it is still where it was. Chosen over a bound on the
 * length alone, which would miss any flip that stays under the bound (bit 12 of a length is 4 KiB).
 * A length of at most MAX_RECORD has a 0 as its top byte and JSON text holds no 0 byte, so the search
 * checksums almost nothing inside payloads; a match by chance is 1 in 2^32 per candidate; and the
 * checksum work is bounded (SCAN_BUDGET: past it the record is refused, the safe side). A machine that
 * lost power may write a torn write's pages out of order, leaving a whole record after a hole: that is
 * refused too (--state-repair cuts it); such records were never acknowledged. One file is read here;
 * that a torn tail is also the last of a folder's chain of logs is log-folder.ts's check.
 */
import { readFileSync } from 'node:fs';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { MockSetupError } from '../kit/setup-error.js';

/** The first line of every log file. */
export const LOG_HEADER = Buffer.from('MKT-MOCK-LOG v1\n');
/** A record longer than this is damage, not data (the largest operation is an order of 100 bids, its body at most 1 MiB). */
const MAX_RECORD = 16 * 1024 * 1024;
/** Bytes the search for a whole record after a bad one may checksum; past it the bad record is refused, not cut. */
const SCAN_BUDGET = 4 * MAX_RECORD;

/**
 * A log with a damaged record before its end, or before a later log's records: the mock refuses to
 * start on it (exit 2). `later`: the logs after it, which --state-repair sets aside with the cut.
 */
export class LogCorruptError extends MockSetupError {
  constructor(
    readonly path: string,
    readonly offset: number,
    readonly problem: string,
    readonly why = 'with records after it',
    readonly later: readonly string[] = [],
  ) {
    super(
      `mock operation log ${path} has a bad record at byte offset ${offset} (${problem}), ${why}; `
        + (later.length === 0
          ? 'start with --state-repair to cut the log there (a copy of the whole log is kept beside it), or move the folder away'
          : `start with --state-repair to cut the log there and set the logs after it aside (${later.join(', ')}; a copy of each is kept beside it), or move the folder away`),
    );
  }
}

/** The CRC-32 (IEEE, zlib's) of `bytes[start, end)`: zlib's own, in C (a JS table loop was ~2 µs a record warm, ~15 cold). */
function crc32(bytes: Buffer, start = 0, end = bytes.length): number {
  return zlibCrc32(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
}

/** One record as framed on disk. */
export function frameRecord(payload: Buffer): Buffer {
  const out = Buffer.allocUnsafe(8 + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(crc32(payload), 4);
  payload.copy(out, 8);
  return out;
}

/** What reading a log found: the payloads of its whole records, where they end, and whether a torn tail follows. */
export interface LogRead {
  payloads: Buffer[];
  /** Byte offset just after the last whole record (the header counted). */
  end: number;
  /** The file's length: more than `end` when the last record is torn (a write cut by a crash). */
  size: number;
  /** What is wrong with the bytes after `end`, when there are any. */
  problem?: string;
}

function allZero(bytes: Buffer, from: number): boolean {
  for (let i = from; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

/**
 * Reads a log's bytes. A bad last record that nothing whole can follow (a write cut short, a tail of
 * zeros) is a torn tail: not returned, `end` stops before it. Any other bad record (an impossible
 * length, or a whole record after it) throws LogCorruptError naming `path` and the record's offset.
 */
export function parseLog(bytes: Buffer, path: string): LogRead {
  const size = bytes.length;
  if (size < LOG_HEADER.length) {
    // Killed while the header was written: an empty log.
    if (LOG_HEADER.subarray(0, size).equals(bytes))
      return { payloads: [], end: 0, size, problem: size > 0 ? 'a header cut short' : undefined };
    throw new LogCorruptError(path, 0, 'not a mkt mock operation log', 'in its header');
  }
  if (!bytes.subarray(0, LOG_HEADER.length).equals(LOG_HEADER))
    throw new LogCorruptError(path, 0, 'not a mkt mock operation log', 'in its header');
  const payloads: Buffer[] = [];
  let off = LOG_HEADER.length;
  while (off < size) {
    const problem = recordProblem(bytes, off);
    if (problem) {
      // Too short for any record after it, or the zeros of a file that grew before its write came.
      if (size - off < 8) return { payloads, end: off, size, problem };
      if (allZero(bytes, off)) return { payloads, end: off, size, problem: 'zeros where a record should be' };
      const len = bytes.readUInt32LE(off);
      if (len === 0 || len > MAX_RECORD) throw new LogCorruptError(path, off, problem, 'a length no write of this mock makes');
      const next = wholeRecordAfter(bytes, off);
      if (next === -1) return { payloads, end: off, size, problem };
      throw new LogCorruptError(
        path,
        off,
        problem,
        next >= 0
          ? `with a whole record after it at byte offset ${next}`
          : `with more bytes after it than can be checked for whole records (${size - off - 8})`,
      );
    }
    const len = bytes.readUInt32LE(off);
    payloads.push(bytes.subarray(off + 8, off + 8 + len));
    off += 8 + len;
  }
  return { payloads, end: off, size };
}

function recordProblem(bytes: Buffer, off: number): string | null {
  if (bytes.length - off < 8) return 'cut short in its header';
  const len = bytes.readUInt32LE(off);
  if (len === 0 || len > MAX_RECORD) return `impossible length ${len}`;
  if (off + 8 + len > bytes.length) return `length ${len} reaches past the end of the file`;
  if (crc32(bytes, off + 8, off + 8 + len) !== bytes.readUInt32LE(off + 4)) return 'checksum mismatch';
  return null;
}

/**
 * The offset of the first whole record (a length that fits, a checksum that matches) starting after
 * byte `bad`, at any byte; -1 when there is none, -2 when SCAN_BUDGET ran out first.
 */
function wholeRecordAfter(bytes: Buffer, bad: number): number {
  let budget = SCAN_BUDGET;
  for (let p = bad + 1; p + 9 <= bytes.length; p++) {
    // A length up to MAX_RECORD (2^24) has a top byte of 0, or 1 for 2^24 itself: skipped without a read.
    if (bytes[p + 3]! > 1) continue;
    const len = bytes.readUInt32LE(p);
    if (len === 0 || len > MAX_RECORD || p + 8 + len > bytes.length) continue;
    budget -= len;
    if (budget < 0) return -2;
    if (crc32(bytes, p + 8, p + 8 + len) === bytes.readUInt32LE(p + 4)) return p;
  }
  return -1;
}

/** Reads the log file at `path` (LogRead of parseLog). */
export function readLog(path: string): LogRead {
  return parseLog(readFileSync(path), path);
}
