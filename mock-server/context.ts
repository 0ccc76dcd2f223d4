/** What every handler and engine of the mock shares: the store, the clock and the options it was started with. */
import type { VirtualClock } from './clock.js';
import type { Store } from './store.js';

/** How the mock was started. */
export interface MockOptions {
  seed: number;
  /** Active listings to seed. */
  listings: number;
  /** Virtual start time (epoch ms). */
  start: number;
  /** Clock stands still unless moved. */
  frozen: boolean;
  /** Admin routes (/__mock/*) enabled. */
  admin: boolean;
  /** Virtual milliseconds between accepting an order and processing it (default 1500). */
  processDelayMs?: number;
  /** File that keeps the world across restarts (--state), if any. */
  stateFile?: string;
  /** Users whose grant is approved at once, without the consent page (--auto-approve). */
  autoApprove?: string[];
  /** Extra OAuth clients as ID:SECRET:REDIRECT (--client). */
  clients?: string[];
}

/** The live mock: options, clock and the current store (replaced on reset). */
export interface MockContext {
  options: MockOptions;
  clock: VirtualClock;
  store: Store;
  /** Rebuilds the world from the seed at the clock's current time. */
  reset(): void;
}
