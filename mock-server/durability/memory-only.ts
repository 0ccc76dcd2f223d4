/** A mock without --state: the world lives in memory only, so there is nothing to keep, wait for or roll back. */
import type { ApiError } from '../kit/api-error.js';
import type { World } from '../world/world.js';
import type { Durability, DurabilityHost } from './durability.js';

/** The durability of a mock without --state. */
export class MemoryOnly implements Durability {
  readonly refusal: ApiError | null = null;
  readonly owes = false;
  /** Nothing is kept: the world always begins from the seed. */
  readonly restored = null;

  /** `start`: the time the world is seeded at (the clock's start, which a running clock has left already). */
  constructor(
    private readonly host: DurabilityHost,
    private readonly start?: number,
  ) {}

  /** Seeds the world: nothing is kept. */
  open(fresh: (t: number) => World): void {
    this.host.world = fresh(this.start ?? this.host.clock.now());
  }

  /** Nothing was kept to replay. */
  replay(): void {}
  /** Always writable. */
  checkWritable(): void {}
  /** Nothing to record. */
  record(): void {}
  /** Nothing to keep. */
  background(): void {}
  /** Nothing to keep. */
  promised(): void {}
  /** Nothing to keep. */
  moveEnded(): void {}
  /** Nothing to keep. */
  worldReplaced(): void {}
  /** Nothing to keep. */
  keepNow(): void {}

  /** At once: nothing is ever unkept. */
  durable(): Promise<void> {
    return Promise.resolve();
  }

  /** No history: nothing is ever rolled back. */
  mark(): number {
    return 0;
  }

  /** Never a rollback. */
  rolledBackSince(): ApiError | null {
    return null;
  }

  /** Nothing to write. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Nothing to let go. */
  abandon(): void {}
}
