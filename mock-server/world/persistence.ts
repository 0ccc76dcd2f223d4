/**
 * The state file (--state): the whole world and the clock's time, written atomically (a temporary
 * file, fsync, rename, fsync of the folder) so a crash never leaves a torn file, and checked on load
 * (a header with the body's length and SHA-256) so a torn or edited file is refused with a clear error.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { addMonths } from '../../src/contract/amortisation.js';
import { MockSetupError } from '../kit/setup-error.js';
import { emptyListingTable, reserveListingRows } from './listing-table.js';
import { emptyLoanTable, reserveLoanRows } from './loan-table.js';
import { addListing, addLoan, ByNumber, ListingsByNumber, LoansByNumber, type Listing, type World } from './world.js';
import { buildIndex } from './world-index.js';

const MAGIC = 'MKT-MOCK-STATE';
const VERSION = 1;

/** What a state file holds. */
export interface SavedState {
  world: World;
  /** The virtual time when it was written. */
  now: number;
}

/** A state file that cannot be used. */
export class StateFileError extends MockSetupError {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`mock state file ${path} ${problem}; move it away or delete it to start a fresh world`);
  }
}

/** A state file that cannot be written where --state puts it (a missing or read-only folder, a full disk). */
export class StateWriteError extends MockSetupError {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`mock state ${path} ${problem}; give --state a path in a folder that exists and can be written`);
  }
}

/**
 * A failed write of the state file at start as what it is: the setup's to fix (StateWriteError, naming
 * the path and why), when the file system refused it; anything else (a bug) as it was.
 */
export function stateWriteError(path: string, err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return err;
  const folder = dirname(path);
  const problem =
    code === 'ENOENT'
      ? `cannot be created: the folder ${folder} does not exist`
      : code === 'ENOTDIR'
        ? `cannot be created: ${folder} is not a folder`
        : code === 'EISDIR'
          ? 'is a folder, not a file'
          : code === 'EACCES' || code === 'EPERM'
            ? `cannot be written: no permission to write in ${folder}`
            : code === 'EROFS'
              ? `cannot be written: ${folder} is on a read-only file system`
              : code === 'ENOSPC' || code === 'EDQUOT'
                ? `cannot be written: no space left on the disk that holds ${folder}`
                : `cannot be written (${code}: ${(err as Error).message})`;
  return new StateWriteError(path, problem);
}

/** World fields derived from the others: not saved, rebuilt on load. */
const DERIVED = new Set(['listingByNumber', 'listingTable', 'loanTable', 'index']);

/**
 * The world with its Maps as `{ $map: entries }` and without its indexes. Maps sit only
 * at the top level of the world, so this shallow copy lets JSON.stringify run without a replacer
 * function, which is what made a save slow (the text is the same).
 */
function plainWorld(world: World): Record<string, unknown> {
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(world)) {
    if (DERIVED.has(key)) plain[key] = undefined;
    else if (value instanceof Map || value instanceof ByNumber) plain[key] = { $map: [...value.entries()] };
    else if (value instanceof Set) plain[key] = { $set: [...value.values()] };
    else plain[key] = value;
  }
  return plain;
}

function reviver(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && keys[0] === '$map' && Array.isArray(o.$map)) return new Map(o.$map as [unknown, unknown][]);
    if (keys.length === 1 && keys[0] === '$set' && Array.isArray(o.$set)) return new Set(o.$set);
  }
  return value;
}

/** The file's text for `world` at virtual time `now`. */
export function serializeState(world: World, now: number): string {
  const body = JSON.stringify({ now, store: plainWorld(world) }); // `store`: the format's key for the world (parseState)
  const sha = createHash('sha256').update(body).digest('hex');
  return `${MAGIC} v${VERSION} bytes=${Buffer.byteLength(body)} sha256=${sha}\n${body}`;
}

/** Reads a state file's text; throws StateFileError naming what is wrong. */
export function parseState(text: string, path = '(state)'): SavedState {
  const nl = text.indexOf('\n');
  const header = nl < 0 ? text : text.slice(0, nl);
  const m = new RegExp(`^${MAGIC} v(\\d+) bytes=(\\d+) sha256=([0-9a-f]{64})$`).exec(header);
  if (!m) throw new StateFileError(path, 'is not a mkt mock state file (bad header)');
  if (Number(m[1]) !== VERSION) throw new StateFileError(path, `has format version ${m[1]}, this mock reads version ${VERSION}`);
  const body = text.slice(nl + 1);
  const bytes = Buffer.byteLength(body);
  if (bytes !== Number(m[2])) throw new StateFileError(path, `is torn: ${bytes} bytes of body where the header promises ${m[2]}`);
  if (createHash('sha256').update(body).digest('hex') !== m[3]) throw new StateFileError(path, 'is corrupt: its checksum does not match');
  // The file's key for the world is `store`, the world's name when the format was made: kept, so every file written since loads.
  let parsed: { now: number; store: World };
  try {
    parsed = JSON.parse(body, reviver) as { now: number; store: World };
  } catch (err) {
    throw new StateFileError(path, `is not valid JSON (${(err as Error).message})`);
  }
  const world = parsed.store;
  if (
    !world
    || !Array.isArray(world.listings)
    || !(world.accounts instanceof Map)
    || !(world.orders instanceof Map)
    || !Array.isArray(world.notes)
    || typeof parsed.now !== 'number'
  ) {
    throw new StateFileError(path, 'does not hold a mock world');
  }
  // A world saved when an ended loan's next_payment_due_date was null: the last due date its payments reached.
  for (const loan of world.loans.values()) loan.next_payment_due_date ??= addMonths(loan.origination_date, Math.max(1, loan.paymentsMade));
  // A file from before the outbox existed: nothing was sent yet.
  world.outbox ??= { next: 1, messages: [] };
  // A world saved when old loans were rated `NA`: the rating is spelt `N/A`, as the real answers spell it.
  for (const loan of world.loans.values()) loan.platform_rating = oldRating(loan.platform_rating);
  // The loaded listings become rows of the world's columns, as seeded ones are (listing-table.ts).
  const loaded: Listing[] = world.listings;
  world.listings = [];
  world.listingByNumber = new ListingsByNumber();
  world.listingTable = emptyListingTable();
  reserveListingRows(world.listingTable, loaded.length);
  for (const l of loaded) {
    l.platform_rating = oldRating(l.platform_rating);
    // A world saved when an ended listing kept `originateAt: null`: cleared, as the engine now clears it.
    if (l.originateAt === null) delete l.originateAt;
    addListing(world, l);
  }
  // The loaded loans become rows of the world's loan columns, in the order they were saved.
  const loans = [...world.loans.values()];
  world.loans = new LoansByNumber();
  world.loanTable = emptyLoanTable();
  reserveLoanRows(world.loanTable, loans.length + loaded.length);
  for (const loan of loans) {
    // A world saved when every loan carried `missedPayments: 0` and nulls for no arrears or charge-off: cleared, as servicing now clears them.
    if (loan.missedPayments === 0) delete loan.missedPayments;
    if (loan.oldestMissedDue === null) delete loan.oldestMissedDue;
    if (loan.chargeOffAt === null) delete loan.chargeOffAt;
    addLoan(world, loan);
  }
  world.index = buildIndex(world);
  return { world, now: parsed.now };
}

/** A rating as this mock spells it: `NA`, which earlier mocks wrote, is `N/A`. */
const oldRating = (rating: string): string => (rating === 'NA' ? 'N/A' : rating);

/** Loads `path`; null when there is no such file yet. */
export function loadStateFile(path: string): SavedState | null {
  if (!existsSync(path)) return null;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new StateFileError(path, `cannot be read (${(err as Error).message})`);
  }
  return parseState(text, path);
}

/** The temporary file a save of `path` by process `pid` writes before renaming it over `path`. */
function tempPath(path: string, pid = process.pid): string {
  return join(dirname(path), `.${basename(path)}.${pid}.tmp`);
}

/** Makes the rename durable: fsync of the folder. */
function fsyncFolder(path: string): void {
  try {
    const dir = openSync(dirname(path), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    // Some platforms cannot fsync a folder; the rename itself is still atomic.
  }
}

/**
 * Deletes temporary files that saves of `path` by any process left behind when it was killed
 * mid-save (they are never read: the state file is only replaced by a complete, fsynced one).
 */
export function removeLeftoverTemps(path: string): void {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return; // no folder yet: nothing left over
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !/^\d+\.tmp$/.test(name.slice(prefix.length))) continue;
    try {
      unlinkSync(join(dirname(path), name));
    } catch {
      /* gone already */
    }
  }
}

/** Writes `world` to `path` atomically: temporary file, fsync, rename over the old one, fsync of the folder. */
export function saveStateFile(path: string, world: World, now: number): void {
  const data = Buffer.from(serializeState(world, now));
  const tmp = tempPath(path);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    for (let off = 0; off < data.length;) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, path);
  fsyncFolder(path);
}

/**
 * Like saveStateFile for text already serialised, but the write and fsyncs run off the event loop,
 * so requests keep arriving (and join the next save) while the disk works. One at a time per path;
 * `tmp`: the temporary file beside it (a caller that sweeps its own leftovers names it).
 */
export async function writeStateFile(path: string, text: string, tmp = tempPath(path)): Promise<void> {
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(text);
    await fh.sync();
  } catch (err) {
    await fh.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fh.close();
  await rename(tmp, path);
  try {
    const dir = await open(dirname(path), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // As in fsyncFolder: not every platform can fsync a folder.
  }
}
