/**
 * The operation log's appender: records (log-file.ts frames them) are appended by group commit: one durable write
 * carries every record appended while the previous write ran, and each record's promise settles when that write is on
 * disk (or failed: then every record not on disk is dropped).
 *
 * Which sync, where. The log is opened O_DSYNC where the platform has it (Linux, macOS): each write returns only once
 * its bytes, and the file's new length (the metadata needed to read them back), are on disk: what a write then an
 * fdatasync give, in one call to the thread pool instead of two. Each call there costs the event loop a hand-off and a
 * wake-up (30-130 µs of its CPU a call on a shared 2-core VM, more than the write itself). Data sync, not fsync: a
 * log's modification time is not needed to read it back. Without O_DSYNC (Windows) a write is followed by an fdatasync.
 * Records queued in one turn of the event loop are written at its end, in one write on the loop itself: the pool's
 * hand-off and wake-up cost the loop more CPU than the write, for one record or several (requests that come meanwhile
 * wait in their sockets and make the next turn's group; eight clients' orders ran 5-19 points of the in-memory rate
 * faster so than with groups through the pool, bench/run.js, 4 paired runs). The pool writes for a log waiting on an
 * older one, where there is no O_DSYNC, and for a disk whose writes average over 1 ms (SLOW_WRITE_MS: a write on the
 * loop holds every request that long; one group in 16 still goes on the loop, to time the disk again). Not
 * preallocated: a file of zeros ahead of its records would let a sync skip the journal (no new length to keep), but a
 * reader could no longer tell zeros a crash left from space never written, and a log's length is where its last write
 * ends (the crash and bit-flip tests read it so). A new log's header, and the probe of a disk that failed, are written
 * the same way, on the event loop. Base snapshots (world/persistence.ts) are new files: written, fsync'd, renamed, the
 * folder fsync'd, so the name and the whole file are there or neither.
 */
import { closeSync, constants, fdatasyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { write as writeCb, fdatasync as fdatasyncCb } from 'node:fs';
import { frameRecord, LOG_HEADER } from './log-file.js';

/** O_DSYNC where the platform has it (not Windows): a write to the log returns once it is on disk (see above). */
const DSYNC = constants.O_DSYNC ?? 0;

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
  private after: Promise<void> | null = null;
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
