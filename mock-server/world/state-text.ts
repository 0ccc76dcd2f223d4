/**
 * The text of a saved world (a state file, a named snapshot, a log's base): the whole world and the clock's
 * time as JSON under a header with the body's length and SHA-256, so that a torn or edited text is refused
 * with a clear error. No file here (persistence.ts writes and reads them, Node only): the browser build
 * saves and loads snapshots in memory with the same text.
 */
import { addMonths } from '../../src/contract/amortisation.js';
import { sha256Hex } from '../kit/digest.js';
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
  const sha = sha256Hex(body);
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
  if (sha256Hex(body) !== m[3]) throw new StateFileError(path, 'is corrupt: its checksum does not match');
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
