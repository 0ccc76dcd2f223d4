/** Journals kept in memory: the desk's bookkeeping for a world that ends with the process (`invest simulate`, unit tests, `--dry-run`). */
import { JournalBase, type JournalEntry } from './journal.js';

/** The journal's logic over a list instead of a file. */
export class MemoryJournal extends JournalBase {
  readonly list: JournalEntry[] = [];
  append(entry: JournalEntry): void {
    this.list.push(entry);
  }
  entries(): JournalEntry[] {
    return [...this.list];
  }
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
