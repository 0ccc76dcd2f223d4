/**
 * What every handler and engine of the mock shares, passed to them explicitly: the options it was
 * started with, the virtual clock, the store, the engine that keeps the store in step with the clock
 * (and the state file up to date), and the injected faults.
 */
import { VirtualClock } from './kit/clock.js';
import { DEFAULT_PROCESS_DELAY_MS, Engine } from './engine/engine.js';
import { Faults } from './http/faults.js';
import { seedStore } from './engine/seed.js';
import type { Store } from './world/store.js';

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
  /** Folder (or an earlier mock's single file) that keeps the world across restarts (--state), if any. */
  stateFile?: string;
  /** --state-repair: a bad record in the middle of the log is cut there (a copy kept) instead of refusing to start. */
  stateRepair?: boolean;
  /** A --state log past this many bytes is followed by a new base snapshot (default 64 MiB; `MKT_MOCK_SNAPSHOT_BYTES`, for tests). */
  snapshotLogBytes?: number;
  /** Users whose grant is approved at once, without the consent page (--auto-approve). */
  autoApprove?: string[];
  /** Extra OAuth clients as ID:SECRET:REDIRECT (--client). */
  clients?: string[];
  /** Check every answer against the OpenAPI document and append mismatches to this file (answer-check.ts). */
  checkAnswers?: string;
  /** The token endpoint takes grant_type=password with a seeded user's id and password (--allow-password-grant; outside the spec). */
  allowPasswordGrant?: boolean;
  /** Requests the journal keeps (--journal-size; default 1000, 0: none). */
  journalSize?: number;
  /** The path prefix every route is served under (`--base-path`, normalised by http/request-target.ts parseBasePath; '' or absent: none). */
  basePath?: string;
  /** A fresh investor with one funded account (`mkt invest simulate`). */
  investor?: { id: string; cash: number };
}

/** The live mock: options, clock, the current store (replaced on reset), its engine and faults. */
export class MockContext {
  readonly clock: VirtualClock;
  store: Store;
  readonly engine: Engine;
  readonly faults: Faults;

  /**
   * Seeds the world (or loads it from the state file, throwing a clear error when that is corrupt).
   * `realNow` is the real-time source the virtual clock runs on.
   */
  constructor(readonly options: MockOptions, realNow: () => number = Date.now) {
    this.clock = new VirtualClock(options.start, options.frozen, realNow);
    this.engine = new Engine(this, options.processDelayMs ?? DEFAULT_PROCESS_DELAY_MS);
    // Seeded only when nothing is kept: a --state world is loaded instead.
    this.store = undefined as unknown as Store;
    this.engine.open(() => seedStore({ seed: options.seed, listings: options.listings, now: options.start, ...(options.investor ? { investor: options.investor } : {}) }));
    // Seeded from the world actually running (a state file's may differ from --seed).
    this.faults = new Faults(this.store.seed);
  }

  /** Rebuilds the world from the seed at the clock's current time. */
  reset(): void {
    const { seed, listings, investor } = this.options;
    this.store = seedStore({ seed, listings, now: this.clock.now(), ...(investor ? { investor } : {}) });
    // A --state folder begins a new log from this world (engine/op-journal.ts).
    this.engine.worldReplaced({ seed, listings, ...(investor ? { investor } : {}) });
  }
}
