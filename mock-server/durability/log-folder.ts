/**
 * Reading a `--state DIR` folder (operation-log.ts keeps it): the newest usable base (a seed
 * recipe or a snapshot) and every record after it, across the logs a base snapshot under way leaves
 * (a log whose base snapshot is not yet whole goes on from the log before).
 */
import { closeSync, copyFileSync, existsSync, fdatasyncSync, ftruncateSync, openSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { LogCorruptError, readLog, type LogRead } from './log-file.js';
import { parseState, StateFileError } from '../world/persistence.js';
import { fsyncDir, inDir, listGenerations, logName, snapshotName } from '../world/state-dir.js';
import type { World } from '../world/world.js';
import { seedWorld } from '../seed/seed.js';
import type { SeedRecipe } from '../world/recipe.js';

/** One record: its virtual time, its kind, the operation's input, and the secrets it drew (kit/entropy.ts). */
export interface OpRecord {
  t: number;
  k: string;
  s?: string[];
  [field: string]: unknown;
}

/**
 * The first record of every log: where its world begins (a snapshot beside it may be missing only
 * when `cont`: then the log before it is the base), and `orders`, the order numbers drawn before that
 * world (engine/orders.ts OrderNumbering; absent for 0, as in a folder of an earlier mock).
 */
export type BaseRecord = OpRecord & { orders?: number } & (
    { k: 'base'; from: 'seed'; recipe: SeedRecipe } | { k: 'base'; from: 'snapshot'; cont: boolean }
  );

/** The world as a folder holds it: base, records to replay, the newest log and where its whole records end, and its base's order numbers drawn before. */
export interface Loaded {
  world: World;
  now: number;
  records: OpRecord[];
  gen: number;
  end: number;
  ordersBefore: number;
}

/** A log of the chain being read: its number, what reading it found, its records. */
interface Link {
  n: number;
  read: LogRead;
  records: OpRecord[];
}

/**
 * Reads folder `dir`: the newest usable base and every record after it; null when it holds no log.
 * `repair`: --state-repair's cut of a bad record. A torn tail is cut only when it is the chain's last
 * write (see readLink); an older log's is cut here (the newest log's by its appender), once the whole
 * chain has read well, so a refusal leaves the folder as it was and later appends never follow it.
 */
export function loadFolder(dir: string, repair: boolean): Loaded | null {
  const logs = listGenerations(dir)
    .filter((g) => g.log)
    .map((g) => g.n);
  const chain: Link[] = [];
  const tornTails: Link[] = [];
  for (let i = logs.length - 1; i >= 0; i--) {
    const n = logs[i]!;
    const { read, cut } = readLink(dir, n, logs.slice(i + 1), chain, repair);
    if (cut) {
      // The logs after the cut were set aside: the chain begins again from this one.
      chain.length = 0;
      tornTails.length = 0;
    }
    const records = read.payloads.map((p) => JSON.parse(p.toString('utf8')) as OpRecord);
    if (records.length === 0) {
      // Made and killed before its base record: it never held anything (a newer log would have a base).
      if (chain.length === 0) unlinkSync(inDir(dir, logName(n)));
      continue;
    }
    const link = { n, read, records };
    if (chain.length > 0 && read.end < read.size) tornTails.push(link);
    chain.unshift(link);
    const base = records[0] as BaseRecord;
    if (base.k !== 'base') throw new StateFileError(inDir(dir, logName(n)), 'does not begin with its base record');
    const start = baseWorld(dir, n, base);
    if (start) {
      for (const t of tornTails) cutLog(inDir(dir, logName(t.n)), t.read.end);
      const newest = chain[chain.length - 1]!;
      return {
        ...start,
        records: chain.flatMap((c) => c.records.slice(1)),
        gen: newest.n,
        end: newest.read.end,
        ordersBefore: base.orders ?? 0,
      };
    }
  }
  if (chain.length === 0) return null;
  throw new StateFileError(dir, 'holds logs whose base snapshot is missing');
}

/** The world a base record names, or null for a snapshot not (yet) written after a log that goes on from the one before. */
function baseWorld(dir: string, n: number, base: BaseRecord): { world: World; now: number } | null {
  if (base.from === 'seed') return { world: seedWorld({ ...base.recipe, now: base.t }), now: base.t };
  const path = inDir(dir, snapshotName(n));
  if (existsSync(path)) return parseState(readFileSync(path, 'utf8'), path);
  if (base.cont) return null;
  throw new StateFileError(path, 'is missing, and the log beside it starts from it');
}

/**
 * Log `n`'s records; `later`: the logs after it, `chain`: those of them read (each holds a base
 * record at least). A bad record before its end refuses (log-file.ts). So does a torn tail when a
 * later log holds a record past its base: that log's records are written only after this log's last
 * write is on disk (LogAppender.waitFor), so its bad last record was acknowledged, and damaged since.
 * A base record may follow a torn write (a new log's base is written at once): base records alone
 * after it leave it a torn tail, unless the torn record is its own base (written whole before a later
 * log is begun). With `repair`, the log is cut at the bad record and the later logs
 * set aside, each kept as a copy: the world as it was up to the bad record, as a cut within one log
 * gives (records replayed after a gap would build a world nobody was shown).
 */
function readLink(dir: string, n: number, later: number[], chain: readonly Link[], repair: boolean): { read: LogRead; cut: boolean } {
  const path = inDir(dir, logName(n));
  const laterNames = later.map(logName);
  try {
    const read = readLog(path);
    const acked = chain.find((c) => c.records.length > 1);
    if (read.end < read.size && acked) {
      throw new LogCorruptError(
        path,
        read.end,
        read.problem ?? 'cut short',
        `the last of its log, with records after it in ${logName(acked.n)} `
          + '(a write a crash cut short is only ever the last of the newest log)',
        laterNames,
      );
    }
    if (read.end < read.size && chain.length > 0 && read.payloads.length === 0) {
      // Its base record is on disk before a later log is begun (OperationLog.startLog): never torn by a crash.
      throw new LogCorruptError(
        path,
        read.end,
        read.problem ?? 'cut short',
        `its base record, which ${logName(chain[0]!.n)} after it goes on from`,
        laterNames,
      );
    }
    return { read, cut: false };
  } catch (err) {
    if (!(err instanceof LogCorruptError)) throw err;
    const told = err.later.length === 0 && later.length > 0 ? new LogCorruptError(path, err.offset, err.problem, err.why, laterNames) : err;
    if (!repair) throw told;
    const stamp = Date.now();
    const copy = `${path}.damaged-${stamp}`;
    copyFileSync(path, copy);
    // The later logs go first: a kill before the cut then leaves nothing to replay after the bad record.
    for (const name of laterNames) {
      const p = inDir(dir, name);
      renameSync(p, `${p}.damaged-${stamp}`);
      console.error(`mock: --state-repair set ${p} aside (it follows a bad record) as ${p}.damaged-${stamp}`);
    }
    fsyncDir(dir);
    cutLog(path, told.offset);
    console.error(`mock: --state-repair cut ${path} at byte ${told.offset} (a bad record); the whole log is kept as ${copy}`);
    return { read: readLog(path), cut: true };
  }
}

/** Cuts log `path` to `end` bytes, on disk before a record is appended after it (in this log or a later one). */
function cutLog(path: string, end: number): void {
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, end);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
