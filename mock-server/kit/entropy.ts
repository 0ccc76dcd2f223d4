/**
 * The world's only randomness that is not drawn from its seed: the secrets of OAuth keys and tokens.
 * Each operation draws them from a `Secrets` of its own, handed to it explicitly: made now, the
 * secrets are fresh and recorded (the operation log keeps them with the operation); replayed, the
 * same ones are handed back in order, so a world rebuilt from the log has the very tokens its clients
 * hold. Nothing is kept at module level: two operations never share what they drew.
 */
import { randomBase64url } from './digest.js';

/** The secrets of one operation: fresh ones (recorded in `drawn`), or while it replays the ones it drew then. */
export class Secrets {
  /** Every secret handed out, in order (what the log records of an operation made now). */
  readonly drawn: string[] = [];
  private readonly recorded: string[];
  private next = 0;

  private constructor(recorded: readonly string[]) {
    this.recorded = [...recorded];
  }

  /** The secrets of an operation made now: each one fresh. */
  static live(): Secrets {
    return new Secrets([]);
  }

  /** The secrets of an operation replayed: those it drew when it was made, in order (`recorded`: its log record's), fresh ones past them. */
  static replaying(recorded: readonly string[] | undefined): Secrets {
    return new Secrets(recorded ?? []);
  }

  /** A secret of `bytes` random bytes, base64url; while replaying, the next one drawn then. */
  draw(bytes = 24): string {
    const value = this.next < this.recorded.length ? this.recorded[this.next++]! : randomBase64url(bytes);
    this.drawn.push(value);
    return value;
  }
}
