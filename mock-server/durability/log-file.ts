/**
 * The operation log's file format and its appender. A log file is a header line, then records: each
 * a 4-byte length, a 4-byte CRC-32 of the payload (both little-endian) and the payload (JSON text of
 * one operation, operation-log.ts). Records are appended by group commit: one durable write carries
 * every record appended while the previous write ran, and each record's promise settles when that
 * write is on disk (or failed: then every record not on disk is dropped).
 *
 * Which sync, where. The log is opened O_DSYNC where the platform has it (Linux, macOS): each write
 * returns only once its bytes, and the file's new length (the metadata needed to read them back), are
 * on disk: what a write then an fdatasync give, in one call to the thread pool instead of two. Each
 * call there costs the event loop a hand-off and a wake-up (30-130 µs of its CPU a call on a shared
 * 2-core VM, more than the write itself). Data sync, not fsync: a log's modification time is not
 * needed to read it back. Without O_DSYNC (Windows) a write is followed by an fdatasync. Records
 * queued in one turn of the event loop are written at its end, in one write on the loop itself: the
 * pool's hand-off and wake-up cost the loop more CPU than the write, for one record or several (requests
 * that come meanwhile wait in their sockets and make the next turn's group; eight clients' orders ran
 * 5-19 points of the in-memory rate faster so than with groups through the pool, bench/run.js, 4 paired
 * runs). The pool writes for a log waiting on an older one, where there is no O_DSYNC, and for a disk whose writes
 * average over 1 ms (SLOW_WRITE_MS: a write on the loop holds every request that long; one group in 16 still goes on
 * the loop, to time the disk again). Not
 * preallocated: a file of zeros ahead of its records would let a sync skip the journal (no new length
 * to keep), but a reader could no longer tell zeros a crash left from space never written, and a
 * log's length is where its last write ends (the crash and bit-flip tests read it so). A new log's
 * header, and the probe of a disk that failed, are written the same way, on the event loop. Base
 * snapshots (world/persistence.ts) are new files: written, fsync'd, renamed, the folder fsync'd, so
 * the name and the whole file are there or neither.
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
import { closeSync, constants, fdatasyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { write as writeCb, fdatasync as fdatasyncCb } from 'node:fs';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { MockSetupError } from '../kit/setup-error.js';

/** The first line of every log file. */
export const LOG_HEADER = Buffer.from('MKT-MOCK-LOG v1\n');
/** O_DSYNC where the platform has it (not Windows): a write to the log returns once it is on disk (see above). */
const DSYNC = constants.O_DSYNC ?? 0;
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

/** The writes the appender makes; tests put a failing disk in its place. */
export interface LogIo {
  write(fd: number, data: Buffer, position: number): Promise<void>;
  datasync(fd: number): Promise<void>;
  /** Where the disk has it: a write on the calling thread that returns once the bytes are on disk (a turn's records', LogAppender). */
  writeNow?(fd: number, data: Buffer, position: number): void;
  /** The clock writes are timed by (ms; the real disk's: performance.now), to tell a slow disk (LogAppender SLOW_WRITE_MS). */
  now(): number;
}

/**
 * The real disk, off the event loop. On a log opened O_DSYNC the appender calls only `write` (it
 * returns once the bytes are on disk); otherwise `write` then `datasync`.
 */
export const diskIo: LogIo = {
  write: (fd, data, position) =>
    new Promise((resolve, reject) => {
      const next = (done: number): void => {
        if (done >= data.length) return resolve();
        writeCb(fd, data, done, data.length - done, position + done, (err, n) => (err ? reject(err) : next(done + n)));
      };
      next(0);
    }),
  datasync: (fd) => new Promise((resolve, reject) => fdatasyncCb(fd, (err) => (err ? reject(err) : resolve()))),
  writeNow: DSYNC ? writeAllSync : undefined,
  now: () => performance.now(),
};

/**
 * A write on the event loop holds every request for its length. Past this many ms a write on average (a networked or
 * spinning disk: a sync there takes 2-10 ms, against 0.1-0.3 ms on an SSD), the thread pool writes instead, as it did
 * before the loop took a turn's records. Only the loop's writes are timed (a pool write's time is mostly the loop's own
 * wait to hear of it): one group in PROBE_EVERY goes on the loop to time the disk again, and a quick one brings the
 * writes back.
 */
const SLOW_WRITE_MS = 1;
/** The newest write's weight in that average. */
const WRITE_WEIGHT = 0.2;
/** Groups written through the pool, for a slow disk, between two written on the loop to time it. */
const PROBE_EVERY = 16;

/** Writes all of `data` at `position` on the calling thread (on a file opened O_DSYNC: on disk when it returns). */
function writeAllSync(fd: number, data: Buffer, position: number): void {
  for (let off = 0; off < data.length;) off += writeSync(fd, data, off, data.length - off, position + off);
}

interface Group {
  parts: Buffer[];
  bytes: number;
  records: number;
  done: Promise<void>;
  settle: (err?: unknown) => void;
}

function newGroup(): Group {
  let settle!: (err?: unknown) => void;
  const done = new Promise<void>((resolve, reject) => {
    settle = (err) => (err === undefined ? resolve() : reject(err));
  });
  // A group no request waits on (time marks only) must not be an unhandled rejection.
  done.catch(() => undefined);
  return { parts: [], bytes: 0, records: 0, done, settle };
}

/** Appends records to one open log file by group commit. */
export class LogAppender {
  /** Bytes of the file that are on disk (records are written from here). */
  size: number;
  /** Records on disk in this file, and bytes of records written since it was opened. */
  records = 0;
  written = 0;
  private disk: LogIo = diskIo;
  /** Records of this file are written only after this settles: the log before it, still writing its last records (waitFor). */
  after: Promise<void> | null = null;
  private open = newGroup();
  private inflight: Group | null = null;
  /** The ms a write on the loop takes, on average; NaN before the first. */
  private writeMs = NaN;
  /** Groups written through the pool since the last on the loop. */
  private pooled = 0;

  /** The disk written to (tests put a failing or counting one in its place). */
  get io(): LogIo {
    return this.disk;
  }

  /** Another disk: its writes are timed afresh. */
  set io(io: LogIo) {
    this.disk = io;
    this.writeMs = NaN;
  }

  /**
   * Opens `path` for appending after `end` (a torn tail beyond it is cut first), writing the header
   * to a new file; `onFailure` hears a failed write before the records it dropped are told.
   */
  constructor(
    readonly path: string,
    end: number,
    private readonly onFailure: (err: unknown) => unknown,
  ) {
    // Read-write without O_APPEND, so each write lands at the position given (on Linux 'a' ignores it).
    this.fd = openSync(path, constants.O_RDWR | constants.O_CREAT | DSYNC, 0o600);
    ftruncateSync(this.fd, end);
    if (end === 0) {
      writeSync(this.fd, LOG_HEADER, 0, LOG_HEADER.length, 0);
      if (!DSYNC) fdatasyncSync(this.fd);
      end = LOG_HEADER.length;
    }
    this.size = end;
  }

  private fd: number;

  /** Whether a write with `this.io` is on disk when it returns: the real disk's on a file opened O_DSYNC. */
  private get writeIsDurable(): boolean {
    return DSYNC !== 0 && this.io === diskIo;
  }

  /** Queues a record; the promise settles when it is on disk (rejects with what onFailure returned). */
  append(payload: Buffer): Promise<void> {
    const framed = frameRecord(payload);
    const g = this.open;
    g.parts.push(framed);
    g.bytes += framed.length;
    g.records++;
    if (!this.inflight && !this.turnEnd) {
      // Gathered until the end of this turn of the event loop: every request read in it shares the write.
      this.turnEnd = setImmediate(this.writeGathered);
    }
    return g.done;
  }

  /** The end of the turn in which records were first queued, while nothing was being written. */
  private turnEnd: NodeJS.Immediate | null = null;

  /**
   * At the end of a turn, on a disk with `writeNow`: the turn's records are written here, on the event loop, in one
   * write (the thread pool's hand-off and wake-up cost the loop more than the write: see above). A log waiting on an
   * older one goes to the thread pool (flush), after it; so do a slow disk's writes (SLOW_WRITE_MS).
   */
  private readonly writeGathered = (): void => {
    this.turnEnd = null;
    if (this.inflight || this.open.records === 0) return;
    if (!this.onTheLoop()) return void this.flush();
    const g = this.open;
    this.open = newGroup();
    const data = g.parts.length === 1 ? g.parts[0]! : Buffer.concat(g.parts, g.bytes);
    const began = this.io.now();
    try {
      this.io.writeNow!(this.fd, data, this.size);
    } catch (err) {
      this.dropFrom(g, err);
      return;
    }
    this.took(this.io.now() - began);
    this.pooled = 0;
    this.landed(g.records, data.length);
    g.settle();
  };

  /**
   * Whether the next group is written on the event loop: the disk has `writeNow`, no older log waits, and its writes are
   * quick, or it is time to time them again.
   */
  private onTheLoop(): boolean {
    return this.after === null && this.io.writeNow !== undefined && (!(this.writeMs > SLOW_WRITE_MS) || this.pooled >= PROBE_EVERY);
  }

  /** A write on the loop took `ms`: into the average; a quick one after slow ones (a probe's) starts it again. */
  private took(ms: number): void {
    const fresh = Number.isNaN(this.writeMs) || (this.writeMs > SLOW_WRITE_MS && ms <= SLOW_WRITE_MS);
    this.writeMs = fresh ? ms : this.writeMs + WRITE_WEIGHT * (ms - this.writeMs);
  }

  /**
   * Writes this file's records only once `older` settles (the log before it, still writing its last records). Let go as
   * it settles, either way: the records queued meanwhile fail with it when it fails (they came after the records
   * dropped, and the world was rolled back without them), but not the ones queued later, after the rollback.
   */
  waitFor(older: Promise<void>): void {
    this.after = older;
    const letGo = (): void => {
      if (this.after === older) this.after = null;
    };
    older.then(letGo, letGo);
  }

  /** Settles when every record appended so far is on disk. */
  synced(): Promise<void> {
    if (this.open.records > 0) return this.open.done;
    return this.inflight?.done ?? Promise.resolve();
  }

  /** Nothing waiting to be written, nothing being written. */
  get idle(): boolean {
    return this.inflight === null && this.open.records === 0;
  }

  private async flush(): Promise<void> {
    while (this.open.records > 0) {
      const g = this.open;
      this.open = newGroup();
      this.inflight = g;
      try {
        // Its records on disk (`after` then let go: waitFor), this log's next turns are written on the loop again (writeGathered).
        if (this.after) await this.after;
        const data = g.parts.length === 1 ? g.parts[0]! : Buffer.concat(g.parts, g.bytes);
        await this.io.write(this.fd, data, this.size);
        if (!this.writeIsDurable) await this.io.datasync(this.fd);
        this.pooled++;
        this.landed(g.records, data.length);
        g.settle();
      } catch (err) {
        this.dropFrom(g, err);
        return;
      }
      if (this.open.records > 0 && this.onTheLoop()) {
        // The older log done, or time to time the disk: the records queued meanwhile are written at this turn's end, on the loop.
        this.inflight = null;
        this.turnEnd ??= setImmediate(this.writeGathered);
        return;
      }
    }
    this.inflight = null;
  }

  /** A failed write of group `g`: every record not on disk is dropped, the file cut back to what is, and the world rolled back (onFailure). */
  private dropFrom(g: Group, err: unknown): void {
    const later = this.open;
    this.open = newGroup();
    this.inflight = null;
    try {
      ftruncateSync(this.fd, this.size);
    } catch {
      /* the next probe cuts it */
    }
    const told = this.onFailure(err);
    g.settle(told);
    later.settle(told);
  }

  /**
   * Writes `payload` at once, on the event loop (the probe of a disk that failed): cuts any partial
   * write first; throws when the disk still refuses.
   */
  appendNow(payload: Buffer): void {
    const framed = frameRecord(payload);
    ftruncateSync(this.fd, this.size);
    writeAllSync(this.fd, framed, this.size);
    if (!DSYNC) fdatasyncSync(this.fd);
    this.landed(1, framed.length);
  }

  /** `records` records of `bytes` in all are on disk at the end of the file. */
  private landed(records: number, bytes: number): void {
    this.size += bytes;
    this.records += records;
    this.written += bytes;
  }

  /** Closes the file (after `synced()`, or records queued are lost). */
  close(): void {
    if (this.turnEnd) clearImmediate(this.turnEnd);
    this.turnEnd = null;
    try {
      closeSync(this.fd);
    } catch {
      /* closed already */
    }
  }
}
