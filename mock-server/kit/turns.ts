/**
 * The next turn of the event loop, under Node and in a browser alike: setImmediate where there is one
 * (Node); in a page, a MessageChannel message, run once the current task ends (setTimeout(fn, 0) would be
 * held 4 ms after a few nestings, and a clock move yields a few turns each virtual day). And a timer that
 * must not keep Node alive, which a page's timers (numbers) never do.
 */

/** A turn asked for: `cancel` drops it if it has not run. */
export interface Turn {
  cancel(): void;
}

/** Runs `fn` on the next turn of the event loop. */
export function nextTurn(fn: () => void): Turn {
  if (typeof setImmediate === 'function') {
    const id = setImmediate(fn);
    return { cancel: () => clearImmediate(id) };
  }
  const channel = new MessageChannel();
  let cancelled = false;
  channel.port1.onmessage = () => {
    channel.port1.close();
    if (!cancelled) fn();
  };
  channel.port2.postMessage(null);
  return {
    cancel: () => {
      cancelled = true;
      channel.port1.close();
    },
  };
}

/** A promise that resolves on the next turn: what waits in it lets requests and timers run first. */
export function aTurn(): Promise<void> {
  return new Promise<void>((resolve) => nextTurn(resolve));
}

/** Lets Node exit with `timer` still set (unref); a page's timer is a number, and needs nothing. */
export function unrefTimer(timer: unknown): void {
  if (typeof timer === 'object' && timer !== null && 'unref' in timer && typeof timer.unref === 'function') timer.unref();
}
