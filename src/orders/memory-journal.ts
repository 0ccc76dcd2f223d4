/** Journals kept in memory: the desk's bookkeeping for a world that ends with the process (`invest simulate`, unit tests, `--dry-run`). */
import {
  foldBatch,
  foldOutcome,
  JournalBase,
  type BatchState,
  type JournalEntry,
  type ListingHold,
  type MarketplaceRef,
} from './journal.js';

/** What a memory journal has folded of its list: the entries in `seen`, for `account`. */
interface Folded {
  /** The entries folded, as they stood in the list. */
  seen: JournalEntry[];
  account: string;
  batches: Map<string, BatchState>;
  outcomes: Map<string, Map<number, string>>;
  /** The holds last worked out, by marketplace key, at `seen`. */
  holds: Map<string | null, Map<number, ListingHold>>;
}

/**
 * The journal's logic over a list instead of a file. Entries are appended, here or pushed onto `list`, so what the
 * journal knows is folded once and caught up with the entries added since: a simulated year asked for its holds a
 * thousand times, each a fold of every entry before. A list changed other than at its end (a test splices one) is
 * folded again from its start.
 */
export class MemoryJournal extends JournalBase {
  readonly list: JournalEntry[] = [];
  private folded: Folded | null = null;

  append(entry: JournalEntry): void {
    this.list.push(entry);
  }
  entries(): JournalEntry[] {
    return [...this.list];
  }

  /** The fold of every entry for `account`, caught up. */
  private fold(account: string): Folded {
    const list = this.list;
    let f = this.folded;
    if (f === null || f.account !== account || !startsWith(list, f.seen)) {
      f = { seen: [], account, batches: new Map(), outcomes: new Map(), holds: new Map() };
      this.folded = f;
    }
    if (f.seen.length < list.length) f.holds.clear();
    while (f.seen.length < list.length) {
      const e = list[f.seen.length]!;
      foldBatch(f.batches, e, account);
      foldOutcome(f.outcomes, e);
      f.seen.push(e);
    }
    return f;
  }

  override allBatches(account: string): BatchState[] {
    return [...this.fold(account).batches.values()];
  }

  override outcomes(): Map<string, Map<number, string>> {
    // Outcomes need no account: the last one folded for, or any.
    return new Map(this.fold(this.folded?.account ?? '').outcomes);
  }

  override holds(market: MarketplaceRef): Map<number, ListingHold> {
    const f = this.fold(market.account);
    let holds = f.holds.get(market.key);
    if (!holds) {
      holds = super.holds(market);
      f.holds.set(market.key, holds);
    }
    // The caller's own copy: a desk adds its other doubts to it.
    return new Map(holds);
  }
}

/** Whether `list` begins with `head`, entry for entry (the same objects). */
function startsWith(list: readonly JournalEntry[], head: readonly JournalEntry[]): boolean {
  if (head.length > list.length) return false;
  for (let i = 0; i < head.length; i++) if (list[i] !== head[i]) return false;
  return true;
}

/** Another journal as it is, plus entries appended in memory only: what a run would record, without writing it (`--dry-run`). */
export class OverlayJournal extends JournalBase {
  private readonly added: JournalEntry[] = [];
  constructor(private readonly base: JournalBase) {
    super();
  }
  append(entry: JournalEntry): void {
    this.added.push(entry);
  }
  entries(): JournalEntry[] {
    return [...this.base.entries(), ...this.added];
  }
}
