/** A journal kept in memory, for unit tests of the order desk and of what uses it (the one `invest simulate` uses). */
export { MemoryJournal } from '../../src/orders/memory-journal.js';
