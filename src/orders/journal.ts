/**
 * The order journal: an append-only, fsync'd JSON-lines file per marketplace account that records
 * every order before it is sent and its result after, so that money is never bid twice — not after
 * a crash, not after a lost answer, not when the same file is submitted again, not under another
 * spelling of the marketplace's address or from another profile acting for the same account. Each
 * line carries a checksum (journal-file.ts): a journal that cannot be read whole stops the desk
 * rather than being read as one that holds less.
 */
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  closeSync,
  copyFileSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  writeSync,
} from 'node:fs';
import { checkRegularFile, readRegularFile } from '../state-files.js';
import { basename, dirname, join } from 'node:path';
import type { BidRequest } from '../api/orders.js';
import { UsageError } from '../errors.js';
import { encodeLine, JournalDamageError, parseJournal, type BadLine, type JournalEntry, type JournalRead } from './journal-file.js';
import { legacyKey, type Marketplace } from './marketplace.js';

export type { JournalEntry };

/** What the journal knows of one sent (or attempted) order. */
export interface BatchState {
  batch: string;
  at: string;
  /** The marketplace key the batch was sent under. */
  key: string | null;
  bids: BidRequest[];
  /** unknown: sent, answer not seen; accepted: the marketplace has it; rejected / not-placed: nothing placed. */
  status: 'unknown' | 'accepted' | 'rejected' | 'not-placed';
  orderId: string | null;
  /** When the run that sent it gave up waiting for its answer (its `lost` entry): a server may act on it after that too. */
  lostAt?: string;
  /** The settle window and answer timeout in force when it was sent; absent in entries of older versions. */
  settleMs?: number;
  timeoutMs?: number;
}

/** Why a listing may not be bid on again. */
export interface ListingHold {
  listingId: number;
  state: 'unknown' | 'PENDING' | 'INVESTED';
  orderId: string | null;
  batch: string;
}

/** Which account a lookup is about: its key, and its id to key entries that predate keys. */
export type MarketplaceRef = Pick<Marketplace, 'key' | 'account'>;

/** One journal file read whole; a file that does not exist reads as empty. */
export function readJournalFile(path: string): JournalRead {
  let buf: Buffer;
  try {
    // A FIFO, device or directory in its place would hang or mislead a read: refused, naming it.
    if (!checkRegularFile(path, 'the journal')) return { entries: [], bad: [], torn: null };
    buf = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], bad: [], torn: null };
    throw new UsageError(`cannot read the order journal ${path}: ${(err as Error).message}; nothing was sent`);
  }
  return parseJournal(buf);
}

/** Every entry of one journal file; a damaged line stops everything (JournalDamageError), a torn last line is skipped. */
function readEntries(path: string): JournalEntry[] {
  const read = readJournalFile(path);
  if (read.bad[0]) throw new JournalDamageError(path, read.bad[0]);
  return read.entries;
}

/**
 * Folds one entry into the batches by id, as `allBatches` reads them. A batch an entry changes is replaced by a
 * new object, never changed in place: a fold kept and caught up (memory-journal.ts) leaves the states it handed out as they were.
 */
export function foldBatch(map: Map<string, BatchState>, e: JournalEntry, account: string): void {
  if (e.t === 'intent') {
    // An entry without a key was written by an older version in this profile's own journal: it
    // is taken as this account's, its URL read through the same normaliser.
    const key = typeof e.market === 'string' ? e.market : legacyKey(e.base_url, account);
    map.set(e.batch, {
      batch: e.batch,
      at: e.at,
      key,
      bids: e.bids,
      status: 'unknown',
      orderId: null,
      ...(e.settle_ms === undefined ? {} : { settleMs: e.settle_ms }),
      ...(e.timeout_ms === undefined ? {} : { timeoutMs: e.timeout_ms }),
    });
    return;
  }
  if (e.t === 'outcome') return;
  const b = map.get(e.batch);
  if (!b) return;
  if (e.t === 'accepted') map.set(e.batch, { ...b, status: 'accepted', orderId: e.order_id });
  else if (e.t === 'rejected') map.set(e.batch, { ...b, status: 'rejected' });
  else if (e.t === 'lost') map.set(e.batch, { ...b, status: 'unknown', lostAt: e.at });
  else if (e.t === 'unsent') map.set(e.batch, { ...b, status: 'not-placed' });
  else if (e.t === 'reconciled')
    map.set(e.batch, e.order_id ? { ...b, status: 'accepted', orderId: e.order_id } : { ...b, status: 'not-placed' });
}

/** Folds one entry into the last bid statuses seen per order, as `outcomes` reads them. */
export function foldOutcome(out: Map<string, Map<number, string>>, e: JournalEntry): void {
  if (e.t === 'outcome') out.set(e.order_id, new Map(e.bids.map((b) => [Number(b.listing_id), b.bid_status])));
}

/**
 * What a journal knows, whatever holds its entries: the file below, or a list in memory in tests of
 * the order desk.
 */
export abstract class JournalBase {
  /** Appends one entry; durable when this returns. */
  abstract append(entry: JournalEntry): void;

  /** Every entry, oldest first. */
  abstract entries(): JournalEntry[];

  /** The state of every batch sent for `market`, oldest first. */
  batches(market: MarketplaceRef): BatchState[] {
    return this.allBatches(market.account).filter((b) => b.key === market.key);
  }

  /** The state of every batch the journal holds, oldest first; `account` keys the entries that predate keys. */
  allBatches(account: string): BatchState[] {
    const map = new Map<string, BatchState>();
    for (const e of this.entries()) foldBatch(map, e, account);
    return [...map.values()];
  }

  /** The last bid statuses seen per order. */
  outcomes(): Map<string, Map<number, string>> {
    const out = new Map<string, Map<number, string>>();
    for (const e of this.entries()) foldOutcome(out, e);
    return out;
  }

  /** Listings that must not be bid on again: outcome unknown, or a bid PENDING or INVESTED. */
  holds(market: MarketplaceRef): Map<number, ListingHold> {
    const outcomes = this.outcomes();
    const holds = new Map<number, ListingHold>();
    for (const b of this.batches(market)) {
      if (b.status === 'rejected' || b.status === 'not-placed') continue;
      for (const bid of b.bids) {
        if (b.status === 'unknown') {
          holds.set(bid.listing_id, { listingId: bid.listing_id, state: 'unknown', orderId: null, batch: b.batch });
          continue;
        }
        const seen = outcomes.get(b.orderId!)?.get(bid.listing_id) ?? 'PENDING';
        if (seen === 'EXPIRED') continue;
        holds.set(bid.listing_id, {
          listingId: bid.listing_id,
          state: seen === 'INVESTED' ? 'INVESTED' : 'PENDING',
          orderId: b.orderId,
          batch: b.batch,
        });
      }
    }
    return holds;
  }
}

/** The journal of one marketplace account, in an append-only fsync'd file. */
export class Journal extends JournalBase {
  /**
   * `path` is the file appended to; `older` files are read before it and never written: journals of
   * earlier versions, so that an upgrade never forgets an order whose outcome is unknown.
   */
  constructor(
    readonly path: string,
    readonly older: readonly string[] = [],
  ) {
    super();
  }

  /**
   * Appends one entry with its checksum and forces it to disk before returning. Called under the
   * account's lock only: a torn last line left by a crash is cut first, or the entry would be glued
   * to it and lost inside one bad line.
   */
  append(entry: JournalEntry): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const fd = openSync(this.path, 'a+', 0o600);
    try {
      cutTornTail(fd);
      writeSync(fd, `${encodeLine(entry)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** Every entry, older files first; a damaged line throws JournalDamageError, a torn last line (a crash mid-write) is skipped. */
  entries(): JournalEntry[] {
    return [...this.older, this.path].flatMap(readEntries);
  }
}

/** Cuts a last line that has no newline (a write torn by a crash, never acted on) off the open file `fd`. */
function cutTornTail(fd: number): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] === 0x0a) return;
  const all = Buffer.alloc(size);
  readSync(fd, all, 0, size, 0);
  ftruncateSync(fd, all.lastIndexOf(0x0a) + 1);
  fsyncSync(fd);
}

/** The directory of a marketplace account's journal and submit lock, shared by every profile acting for it. */
export function accountDir(stateDir: string, key: string): string {
  // A digest: the key holds a URL and an id the marketplace chose, neither fit for a file name.
  return join(stateDir, 'accounts', createHash('sha256').update(key).digest('hex').slice(0, 32));
}

/** The journal a profile's submits to `market` use, and their lock; remembers the account for `order journal`. */
export function openJournal(stateDir: string, profile: string, market: Marketplace): { journal: Journal; lock: string } {
  const dir = accountDir(stateDir, market.key);
  const index = join(stateDir, profile, 'accounts');
  const name = basename(dir);
  if (!readLines(index).includes(name)) {
    mkdirSync(dirname(index), { recursive: true, mode: 0o700 });
    appendFileSync(index, `${name}\n`, { mode: 0o600 });
  }
  return { journal: readJournal(stateDir, profile, market), lock: join(dir, 'submit.lock') };
}

/** The journal a profile's submits to `market` read, for reading only: no directory or index is created. */
export function readJournal(stateDir: string, profile: string, market: Marketplace): Journal {
  return new Journal(join(accountDir(stateDir, market.key), 'journal.jsonl'), [join(stateDir, profile, 'journal.jsonl')]);
}

/** The journal files a profile has used: its own from older versions, then each account's. */
export function profileJournals(stateDir: string, profile: string): string[] {
  const names = readLines(join(stateDir, profile, 'accounts')).filter((n) => /^[0-9a-f]{32}$/.test(n));
  return [join(stateDir, profile, 'journal.jsonl'), ...[...new Set(names)].map((n) => join(stateDir, 'accounts', n, 'journal.jsonl'))];
}

/** Every readable entry of the journals a profile has used, by time (damaged lines left out: `checkJournal` names them). */
export function profileEntries(stateDir: string, profile: string): JournalEntry[] {
  // A stable sort: entries of one file keep their order when written within the same millisecond.
  return profileJournals(stateDir, profile)
    .flatMap((f) => readJournalFile(f).entries)
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** What a repair did to one file: where its copy is, and the line it was cut at. */
export interface JournalCut {
  path: string;
  copy: string;
  bad: BadLine;
  /** Complete lines dropped with the cut (the bad one included). */
  dropped: number;
}

/**
 * Repairs one damaged journal file: keeps a copy beside it (`journal.jsonl.damaged-STAMP`), then cuts
 * it at its first damaged line. Null when the file has no damaged line. Run under the account's lock.
 */
export function cutJournal(path: string, stamp: string): JournalCut | null {
  const read = readJournalFile(path);
  const bad = read.bad[0];
  if (!bad) return null;
  const copy = `${path}.damaged-${stamp.replace(/[:.]/g, '-')}`;
  copyFileSync(path, copy);
  chmodSync(copy, 0o600);
  const buf = readFileSync(path);
  const dropped = buf.subarray(bad.offset).filter((b) => b === 0x0a).length;
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, bad.offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return { path, copy, bad, dropped };
}

function readLines(path: string): string[] {
  try {
    return (readRegularFile(path, 'the journal index') ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  } catch {
    return [];
  }
}
