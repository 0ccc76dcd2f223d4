/**
 * The redirect URL pasted on standard input, for a browser on another machine: there the redirect to
 * this machine's loopback address fails to load, and the user copies it from the address bar. Each
 * line is read exactly as the catcher reads a callback (`readCallback`: the same state check); a line
 * that is not this login's redirect is named and ignored, and the end of input just stops reading.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { loopbackTarget, readCallback, type CallbackResult } from './redirect-catcher.js';

/** A reader of pasted redirect URLs. */
export interface PastedRedirect {
  /** Settles with the first pasted URL that ends this login (a key, or a cancellation). */
  result: Promise<CallbackResult>;
  close(): void;
}

/** Reads lines of `input` until one is this login's redirect (`redirectUri`'s path with a matching `state`). */
export function readPastedRedirect(input: Readable, redirectUri: string, state: string, notice: (line: string) => void): PastedRedirect {
  const { path } = loopbackTarget(redirectUri);
  const lines = createInterface({ input, terminal: false, crlfDelay: Infinity });
  const result = new Promise<CallbackResult>((resolve, reject) => {
    lines.on('line', (raw) => {
      const text = raw.trim();
      if (!text) return;
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        return notice(
          "mkt: that is not a URL; paste the whole address from the browser's address bar (it starts with http://); still waiting",
        );
      }
      if (url.pathname !== path) return notice(`mkt: that URL is not the login redirect (its path is not ${path}); still waiting`);
      const outcome = readCallback(url.searchParams, state);
      if (outcome.kind === 'mismatch') return notice('mkt: ignored a pasted URL whose state does not match this login; still waiting');
      lines.close();
      if (outcome.kind === 'ok') resolve(outcome.result);
      else reject(outcome.error);
    });
  });
  result.catch(() => undefined); // raced by the caller; an unread rejection is not a crash
  return {
    result,
    close() {
      lines.close();
      // Standard input left open by the caller (a pipe, a terminal) must not hold the process once the login is over.
      input.pause();
      (input as Readable & { unref?: () => void }).unref?.();
    },
  };
}
