/**
 * The mock marketplace's whole state, explicit and serialisable: listings, users and accounts,
 * orders, loans and notes, OAuth clients and grants, partner codes. Engines and handlers change it;
 * nothing else holds state. Times are epoch milliseconds on the mock's virtual clock.
 */
import { emptyIndex, type WorldIndex } from './derived.js';
import { emptyListingTable, listingRow, type ListingTable } from './listing-table.js';
import { describedLaterRow } from './row-table.js';
import { emptyLoanTable, loanRow, type LoanTable } from './loan-table.js';
import type {
  Account,
  ExistingBorrower,
  Grant,
  LedgerEntry,
  Listing,
  Loan,
  Note,
  OAuthClient,
  OfferRecord,
  Order,
  Outbox,
  PartnerCode,
  Token,
  User,
} from './records.js';

export type * from './records.js';

/** The whole world of the mock. */
export interface World {
  seed: number;
  listings: Listing[];
  listingByNumber: ListingsByNumber;
  /** The columns the listings are rows of (listing-table.ts; not saved: the listings are). */
  listingTable: ListingTable;
  users: Map<string, User>;
  accounts: Map<string, Account>;
  ledger: LedgerEntry[];
  orders: Map<string, Order>;
  notes: Note[];
  loans: LoansByNumber;
  /** The columns the loans are rows of (loan-table.ts): derived, rebuilt on load. */
  loanTable: LoanTable;
  clients: Map<string, OAuthClient>;
  grants: Grant[];
  tokens: Map<string, Token>;
  partnerCodes: Map<string, PartnerCode>;
  /** Applicants who already borrowed (offers answer MKTPL-100). */
  existingBorrowers: ExistingBorrower[];
  /** Offers responses by referral code, for their pages; and the next response and offer numbers. */
  offerRecords: Map<string, OfferRecord>;
  offerCounters: { response: number; offer: number };
  /** Next listing, loan and note numbers to hand out. */
  counters: { listing: number; loan: number; note: number };
  /** The marketplace engine's own state (mock-server/engine). */
  engine: EngineState;
  /** Emails sent to investors, oldest first: part of the world, so saved with the transition that sent each. */
  outbox: Outbox;
  /** Orders and notes by account, notes by loan, bids by listing, and every layer's caches of this world (derived.ts; never saved). */
  index: WorldIndex;
}

/** What the engine keeps between runs: where the hourly market ticks stand and how fast listings arrive. */
export interface EngineState {
  /** The last hourly tick run (epoch ms, a whole hour). */
  lastTick: number;
  /** New active listings per hour, on average. */
  arrivalsPerHour: number;
  /** Orders accepted and not yet processed, oldest first. */
  queue: string[];
  /** The release times new listings arrive at (minutes after midnight, America/New_York); absent: every hour (a world saved before them too). */
  releases?: number[];
}

/**
 * Records by number (the listings, the loans). Numbers are handed out in order, so they sit in an array
 * from the first one added (a Map of a million listings cost 40 MB and a tenth of seeding them; the loans
 * a 15-day move originates at 1M listings grew and rehashed a Map of 800,000); any other number is in a
 * Map. Read as the Map it replaces: `values()`, `keys()` and `entries()` give the array's numbers in order,
 * then the others in the order added.
 */
export class ByNumber<T> {
  private base = NaN;
  private readonly dense: T[] = [];
  private readonly rest = new Map<number, T>();

  get size(): number {
    return this.dense.length + this.rest.size;
  }

  get(n: number): T | undefined {
    const k = n - this.base;
    return (k >= 0 && k < this.dense.length ? this.dense[k] : undefined) ?? this.rest.get(n);
  }

  has(n: number): boolean {
    return this.get(n) !== undefined;
  }

  set(n: number, v: T): this {
    const k = n - this.base;
    // The next number in order (every listing and loan the market adds): appended, with nothing to look up.
    if (k === this.dense.length && this.rest.size === 0) {
      this.dense.push(v);
      return this;
    }
    return this.setAny(n, v);
  }

  private setAny(n: number, v: T): this {
    if (Number.isNaN(this.base) && Number.isSafeInteger(n)) this.base = n;
    const k = n - this.base;
    // Each number lives in one place: the array while it extends it or is in it, else the Map.
    if (this.rest.has(n) || !(Number.isInteger(k) && k >= 0 && k <= this.dense.length)) this.rest.set(n, v);
    else if (k === this.dense.length) this.dense.push(v);
    else this.dense[k] = v;
    return this;
  }

  values(): IterableIterator<T> {
    return this.rest.size === 0 ? this.dense.values() : this.allValues();
  }

  private *allValues(): IterableIterator<T> {
    yield* this.dense;
    yield* this.rest.values();
  }

  *keys(): IterableIterator<number> {
    for (let k = 0; k < this.dense.length; k++) yield this.base + k;
    yield* this.rest.keys();
  }

  *entries(): IterableIterator<[number, T]> {
    for (let k = 0; k < this.dense.length; k++) yield [this.base + k, this.dense[k]!];
    yield* this.rest.entries();
  }

  [Symbol.iterator](): IterableIterator<[number, T]> {
    return this.entries();
  }
}

/** Listings by number (the world's `listingByNumber`). */
export class ListingsByNumber extends ByNumber<Listing> {}

/**
 * Loans by number (the world's `loans`). A loan nobody we model holds is serviced lazily (engine/servicing.ts): its
 * months on schedule are paid when it is read, so every loan this hands out is first brought up to date by `reader`
 * (set by the engine's timeline, the one that leaves loans behind; none before it).
 */
export class LoansByNumber extends ByNumber<Loan> {
  /** Brings a loan up to the last tick run before anyone reads it; null while no loan can be behind. */
  reader: ((loan: Loan) => void) | null = null;

  /** Loan `n` as kept, not brought up: for the engine's own walks (the timeline's, over loans it has yet to look at). */
  kept(n: number): Loan | undefined {
    return super.get(n);
  }

  /** Every loan as kept, not brought up (see `kept`). */
  keptValues(): IterableIterator<Loan> {
    return super.values();
  }

  override get(n: number): Loan | undefined {
    const loan = super.get(n);
    if (loan && this.reader) this.reader(loan);
    return loan;
  }

  override values(): IterableIterator<Loan> {
    return this.reader ? this.read(super.values()) : super.values();
  }

  override entries(): IterableIterator<[number, Loan]> {
    return this.reader ? this.readEntries(super.entries()) : super.entries();
  }

  private *read(loans: IterableIterator<Loan>): IterableIterator<Loan> {
    for (const loan of loans) {
      this.reader?.(loan);
      yield loan;
    }
  }

  private *readEntries(entries: IterableIterator<[number, Loan]>): IterableIterator<[number, Loan]> {
    for (const entry of entries) {
      this.reader?.(entry[1]);
      yield entry;
    }
  }
}

/** An empty world; `seedWorld` fills it. */
export function emptyWorld(seed: number): World {
  return {
    seed,
    listings: [],
    listingByNumber: new ListingsByNumber(),
    listingTable: emptyListingTable(),
    users: new Map(),
    accounts: new Map(),
    ledger: [],
    orders: new Map(),
    notes: [],
    loans: new LoansByNumber(),
    loanTable: emptyLoanTable(),
    clients: new Map(),
    grants: [],
    tokens: new Map(),
    partnerCodes: new Map(),
    existingBorrowers: [],
    offerRecords: new Map(),
    offerCounters: { response: 1, offer: 700_001 },
    counters: { listing: 0, loan: 0, note: 0 },
    engine: { lastTick: 0, arrivalsPerHour: 0, queue: [] },
    outbox: { next: 1, messages: [] },
    index: emptyIndex(),
  };
}

/** Adds a loan (kept as a row of the world's loan columns, loan-table.ts) under its number; returns the kept object. */
export function addLoan(world: World, loan: Loan): Loan {
  const row = loanRow(world.loanTable, loan);
  world.loans.set(row.loan_number, row);
  return row;
}

/** Adds a listing (kept as a row of the world's columns, listing-table.ts) and indexes it by number; returns the kept object. */
export function addListing(world: World, listing: Listing): Listing {
  const row = listingRow(world.listingTable, listing);
  noteNumberOrder(world, row);
  world.listings.push(row);
  world.listingByNumber.set(row.listing_number, row);
  return row;
}

/** Notes in the listing table whether `row`, about to be added last, keeps the listings in number order (RowTable `ascending`). */
function noteNumberOrder(world: World, row: Listing): void {
  const last = world.listings.at(-1);
  if (last !== undefined && !(row.listing_number > last.listing_number)) world.listingTable.ascending = false;
}

/**
 * Adds a listing made of its market fields, whose description `describer(row, key)` writes when first read
 * (row-table.ts `describedLaterRow`), and indexes it by number; returns the kept object, or null when
 * the table cannot make such a row (the caller then adds the listing whole).
 */
export function addListingDescribedLater(
  world: World,
  listing: Listing,
  describer: (row: number, key: number) => void,
  key: number,
): Listing | null {
  const row = describedLaterRow(world.listingTable, listing, describer, key);
  if (!row) return null;
  noteNumberOrder(world, row);
  world.listings.push(row);
  world.listingByNumber.set(row.listing_number, row);
  return row;
}
