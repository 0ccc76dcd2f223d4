/**
 * The world's only randomness that is not drawn from its seed: the secrets of OAuth keys and tokens.
 * An operation of the log (engine/op-journal.ts) records the secrets it drew, and its replay hands
 * the same ones back, so a world rebuilt from the log has the very tokens its clients hold.
 */
import { randomBytes } from 'node:crypto';

let recording: string[] | null = null;
let replaying: string[] | null = null;

/** A fresh secret of `bytes` random bytes, base64url; while an operation replays, the one it drew then. */
export function randomSecret(bytes = 24): string {
  if (replaying) {
    const next = replaying.shift();
    if (next !== undefined) return next;
  }
  const value = randomBytes(bytes).toString('base64url');
  recording?.push(value);
  return value;
}

/** Runs `fn`, collecting the secrets it draws (`drawn`), or handing it `replay`'s in order when given. */
export function withSecrets<T>(replay: readonly string[] | undefined, fn: () => T): { value?: T; error?: unknown; drawn: string[] } {
  const outer = [recording, replaying] as const;
  const drawn: string[] = [];
  recording = drawn;
  replaying = replay ? [...replay] : null;
  try {
    return { value: fn(), drawn };
  } catch (error) {
    return { error, drawn };
  } finally {
    [recording, replaying] = outer;
  }
}
