/** A journal kept in memory, for unit tests of the order desk and of what uses it. */
import { JournalBase, type JournalEntry } from '../../src/orders/journal.js';

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
