/** A journal kept in memory: the desk's bookkeeping for a world that ends with the process (`invest simulate`, unit tests). */
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
