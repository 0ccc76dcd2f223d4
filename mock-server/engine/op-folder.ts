/**
 * Reading a `--state DIR` folder (engine/op-journal.ts keeps it): the newest usable base (a seed
 * recipe or a snapshot) and every record after it, across the logs a base snapshot under way leaves
 * (a log whose base snapshot is not yet whole goes on from the log before).
 */
import { copyFileSync, existsSync, readFileSync, truncateSync, unlinkSync } from 'node:fs';
import { LogCorruptError, readLog, type LogRead } from '../world/op-log.js';
import { parseState, StateFileError } from '../world/persistence.js';
import { inDir, listGenerations, logName, snapshotName } from '../world/state-dir.js';
import type { Store } from '../world/store.js';
import { seedStore, type SeedHistory } from './seed.js';

/** One record: its virtual time, its kind, the operation's input, and the secrets it drew (kit/entropy.ts). */
export interface OpRecord {
  t: number;
  k: string;
  s?: string[];
  [field: string]: unknown;
}

/** What a seeded world is made from (a fresh folder's base, a reset's). */
export interface SeedRecipe {
  seed: number;
  listings: number;
  /** 'none': no seeded history (`mock serve --history none`); absent: the seeded history. */
  history?: SeedHistory;
  investor?: { id: string; cash: number };
}

/**
 * The first record of every log: where its world begins (a snapshot beside it may be missing only
 * when `cont`: then the log before it is the base), and `orders`, the order numbers drawn before that
 * world (engine/orders.ts OrderNumbering; absent for 0, as in a folder of an earlier mock).
 */
export type BaseRecord = OpRecord & { orders?: number } & ({ k: 'base'; from: 'seed'; recipe: SeedRecipe } | { k: 'base'; from: 'snapshot'; cont: boolean });

/** The world as a folder holds it: base, records to replay, the newest log and where its whole records end, and its base's order numbers drawn before. */
export interface Loaded {
  store: Store;
  now: number;
  records: OpRecord[];
  gen: number;
  end: number;
  ordersBefore: number;
}

/** Reads folder `dir`: the newest usable base and every record after it; null when it holds no log. `repair`: --state-repair's cut of a bad record. */
export function loadFolder(dir: string, repair: boolean): Loaded | null {
  const logs = listGenerations(dir).filter((g) => g.log).map((g) => g.n);
  const chain: { n: number; read: LogRead; records: OpRecord[] }[] = [];
  for (let i = logs.length - 1; i >= 0; i--) {
    const n = logs[i]!;
    const read = readLogFile(dir, n, repair);
    const records = read.payloads.map((p) => JSON.parse(p.toString('utf8')) as OpRecord);
    if (records.length === 0) {
      // Made and killed before its base record: it never held anything (a newer log would have a base).
      if (chain.length === 0) unlinkSync(inDir(dir, logName(n)));
      continue;
    }
    chain.unshift({ n, read, records });
    const base = records[0] as BaseRecord;
    if (base.k !== 'base') throw new StateFileError(inDir(dir, logName(n)), 'does not begin with its base record');
    const world = baseWorld(dir, n, base);
    if (world) {
      const newest = chain[chain.length - 1]!;
      return { ...world, records: chain.flatMap((c) => c.records.slice(1)), gen: newest.n, end: newest.read.end, ordersBefore: base.orders ?? 0 };
    }
  }
  if (chain.length === 0) return null;
  throw new StateFileError(dir, 'holds logs whose base snapshot is missing');
}

/** The world a base record names, or null for a snapshot not (yet) written after a log that goes on from the one before. */
function baseWorld(dir: string, n: number, base: BaseRecord): { store: Store; now: number } | null {
  if (base.from === 'seed') return { store: seedStore({ ...base.recipe, now: base.t }), now: base.t };
  const path = inDir(dir, snapshotName(n));
  if (existsSync(path)) return parseState(readFileSync(path, 'utf8'), path);
  if (base.cont) return null;
  throw new StateFileError(path, 'is missing, and the log beside it starts from it');
}

/** A log's records; a bad one before the end refuses (or, with `repair`, cuts the log there, keeping a copy). */
function readLogFile(dir: string, n: number, repair: boolean): LogRead {
  const path = inDir(dir, logName(n));
  try {
    return readLog(path);
  } catch (err) {
    if (!(err instanceof LogCorruptError) || !repair) throw err;
    const copy = `${path}.damaged-${Date.now()}`;
    copyFileSync(path, copy);
    truncateSync(path, err.offset);
    console.error(`mock: --state-repair cut ${path} at byte ${err.offset} (a bad record); the whole log is kept as ${copy}`);
    return readLog(path);
  }
}
