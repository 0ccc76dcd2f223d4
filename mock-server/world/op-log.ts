/**
 * The operation log's file format and its appender. A log file is a header line, then records: each
 * a 4-byte length, a 4-byte CRC-32 of the payload (both little-endian) and the payload (JSON text of
 * one operation, engine/op-journal.ts). Records are appended by group commit: one write and one
 * fdatasync carry every record appended while the previous write ran, and each record's promise
 * settles when that write is on disk (or failed: then every record not on disk is dropped).
 */
import { closeSync, constants, fdatasyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { write as writeCb, fdatasync as fdatasyncCb } from 'node:fs';
import { crc32 } from '../kit/crc32.js';
import { MockSetupError } from '../kit/setup-error.js';

/** The first line of every log file. */
export const LOG_HEADER = Buffer.from('MKT-MOCK-LOG v1\n');
/** A record longer than this is damage, not data (the largest operation is an order of 100 bids). */
const MAX_RECORD = 16 * 1024 * 1024;

/** A log with a damaged record before its end: the mock refuses to start on it (exit 2). */
export class LogCorruptError extends MockSetupError {
  constructor(readonly path: string, readonly offset: number, problem: string) {
    super(`mock operation log ${path} has a bad record at byte offset ${offset} (${problem}), with records after it; `
      + 'start with --state-repair to cut the log there (a copy of the whole log is kept beside it), or move the folder away');
  }
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
}

function allZero(bytes: Buffer, from: number): boolean {
  for (let i = from; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

/**
 * Reads a log's bytes. A record cut short at the end (or a tail of zeros, as a crash after the file
 * grew can leave) is a torn last record: not returned, `end` stops before it. A bad record with
 * data after it throws LogCorruptError naming `path` and its offset.
 */
export function parseLog(bytes: Buffer, path: string): LogRead {
  const size = bytes.length;
  if (size < LOG_HEADER.length) {
    // Killed while the header was written: an empty log.
    if (LOG_HEADER.subarray(0, size).equals(bytes)) return { payloads: [], end: 0, size };
    throw new LogCorruptError(path, 0, 'not a mkt mock operation log');
  }
  if (!bytes.subarray(0, LOG_HEADER.length).equals(LOG_HEADER)) throw new LogCorruptError(path, 0, 'not a mkt mock operation log');
  const payloads: Buffer[] = [];
  let off = LOG_HEADER.length;
  while (off < size) {
    const problem = recordProblem(bytes, off);
    if (problem) {
      const len = size - off >= 4 ? bytes.readUInt32LE(off) : 0;
      const reachesEnd = size - off < 8 || off + 8 + len >= size;
      if (reachesEnd || allZero(bytes, off)) return { payloads, end: off, size };
      throw new LogCorruptError(path, off, problem);
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
  if (off + 8 + len > bytes.length) return 'cut short';
  if (crc32(bytes, off + 8, off + 8 + len) !== bytes.readUInt32LE(off + 4)) return 'checksum mismatch';
  return null;
}

/** Reads the log file at `path` (LogRead of parseLog). */
export function readLog(path: string): LogRead {
  return parseLog(readFileSync(path), path);
}

/** The writes the appender makes; tests put a failing disk in its place. */
export interface LogIo {
  write(fd: number, data: Buffer, position: number): Promise<void>;
  datasync(fd: number): Promise<void>;
}

/** The real disk, off the event loop. */
export const diskIo: LogIo = {
  write: (fd, data, position) => new Promise((resolve, reject) => {
    const next = (done: number): void => {
      if (done >= data.length) return resolve();
      writeCb(fd, data, done, data.length - done, position + done, (err, n) => (err ? reject(err) : next(done + n)));
    };
    next(0);
  }),
  datasync: (fd) => new Promise((resolve, reject) => fdatasyncCb(fd, (err) => (err ? reject(err) : resolve()))),
};

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
  io: LogIo = diskIo;
  /** Records of this file are written only after this settles: the log before it, still writing its last records. */
  after: Promise<void> | null = null;
  private open = newGroup();
  private inflight: Group | null = null;

  /**
   * Opens `path` for appending after `end` (a torn tail beyond it is cut first), writing the header
   * to a new file; `onFailure` hears a failed write before the records it dropped are told.
   */
  constructor(readonly path: string, end: number, private readonly onFailure: (err: unknown) => unknown) {
    // Read-write without O_APPEND, so each write lands at the position given (on Linux 'a' ignores it).
    this.fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600);
    ftruncateSync(this.fd, end);
    if (end === 0) {
      writeSync(this.fd, LOG_HEADER, 0, LOG_HEADER.length, 0);
      fdatasyncSync(this.fd);
      end = LOG_HEADER.length;
    }
    this.size = end;
  }

  private fd: number;

  /** Queues a record; the promise settles when it is on disk (rejects with what onFailure returned). */
  append(payload: Buffer): Promise<void> {
    const framed = frameRecord(payload);
    const g = this.open;
    g.parts.push(framed);
    g.bytes += framed.length;
    g.records++;
    if (!this.inflight) void this.flush();
    return g.done;
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
        if (this.after) await this.after;
        const data = g.parts.length === 1 ? g.parts[0]! : Buffer.concat(g.parts, g.bytes);
        await this.io.write(this.fd, data, this.size);
        await this.io.datasync(this.fd);
        this.size += data.length;
        this.records += g.records;
        this.written += data.length;
        g.settle();
      } catch (err) {
        // Every record not on disk is dropped: the file is cut back to what is, and the world rolled back (onFailure).
        const later = this.open;
        this.open = newGroup();
        this.inflight = null;
        try { ftruncateSync(this.fd, this.size); } catch { /* the next probe cuts it */ }
        const told = this.onFailure(err);
        g.settle(told);
        later.settle(told);
        return;
      }
    }
    this.inflight = null;
  }

  /**
   * Writes `payload` at once, on the event loop (the probe of a disk that failed): cuts any partial
   * write first; throws when the disk still refuses.
   */
  appendNow(payload: Buffer): void {
    const framed = frameRecord(payload);
    ftruncateSync(this.fd, this.size);
    for (let off = 0; off < framed.length;) off += writeSync(this.fd, framed, off, framed.length - off, this.size + off);
    fdatasyncSync(this.fd);
    this.size += framed.length;
    this.records++;
    this.written += framed.length;
  }

  /** Closes the file (after `synced()`, or records queued are lost). */
  close(): void {
    try { closeSync(this.fd); } catch { /* closed already */ }
  }
}
