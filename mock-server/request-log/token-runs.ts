/**
 * The token-shaped runs of a request's texts (TOKEN_RUN: what the request log asks the host whether it is a live token),
 * for the request log (request-log.ts). Which runs a text holds is a pure function of it, kept for the texts seen
 * last; which of them are live tokens is asked each time, as the world's tokens come and go.
 */
import { TOKEN_RUN } from '../http/redact.js';

/** Texts whose runs are kept (it starts over when full); longer texts are scanned each time. */
const KEPT_RUN_TEXTS = 256;
const KEPT_RUN_CHARS = 300;

/** The runs of the texts seen last (a path, a query, a header value: a client sends the same ones again and again). */
export class TokenRuns {
  private readonly kept = new Map<string, readonly string[]>();

  /** Adds to `into` each run of `text` shaped like a token, in order. */
  of(text: string, into: string[]): void {
    // Shorter than any run: nothing to find (most parts of a request, and every empty one).
    if (text.length < 8) return;
    if (text.length > KEPT_RUN_CHARS) {
      TOKEN_RUN.lastIndex = 0;
      for (let m = TOKEN_RUN.exec(text); m !== null; m = TOKEN_RUN.exec(text)) into.push(m[0]);
      return;
    }
    let runs = this.kept.get(text);
    if (runs === undefined) {
      runs = text.match(TOKEN_RUN) ?? [];
      if (this.kept.size >= KEPT_RUN_TEXTS) this.kept.clear();
      this.kept.set(text, runs);
    }
    for (const run of runs) into.push(run);
  }
}

/** Adds to `into` each run of `text` shaped like a token that is one of `live`'s keys, in order (a body's: scanned each time). */
export function liveRuns(text: string, live: ReadonlyMap<string, unknown>, into: string[]): void {
  if (text.length < 8) return;
  TOKEN_RUN.lastIndex = 0;
  for (let m = TOKEN_RUN.exec(text); m !== null; m = TOKEN_RUN.exec(text)) if (live.has(m[0])) into.push(m[0]);
}
