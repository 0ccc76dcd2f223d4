/** The --wait and --wait-lock flags of `order submit`, `order get` and `invest run`: checked once, progress drawn on stderr. */
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import type { FollowPlan, Progress } from '../orders/wait.js';
import { suggest } from '../suggest.js';
import { parseCount } from './options.js';

/** Columns of the final report. */
export const WAIT_COLUMNS = ['order_id', 'listing_id', 'bid_amount', 'bid_amount_placed', 'bid_result', 'bid_status'];

/** The --wait flags as given. */
export interface WaitFlags {
  until: string;
  timeout: string;
}

/** Checks --until and --timeout (exit 2 naming the flag) into what to follow, for `profile` (named in resume hints). */
export function waitPlan(flags: WaitFlags, profile?: string): FollowPlan {
  const { until } = flags;
  if (until !== 'processed' && until !== 'completed') {
    const near = suggest(until, ['processed', 'completed']);
    throw new UsageError(`--until must be processed or completed, got '${until}'`, near ? `did you mean '${near}'?` : undefined);
  }
  return { until, timeoutMs: parseCount('--timeout', flags.timeout, 1) * 1000, ...(profile === undefined ? {} : { profile }) };
}

/** Checks --wait-lock (exit 2 naming the flag) into milliseconds; 0 when not given: another run's lock ends this one at once. */
export function waitLock(seconds: string | undefined): number {
  return seconds === undefined ? 0 : parseCount('--wait-lock', seconds, 0) * 1000;
}

/**
 * Progress on stderr: one line redrawn in place on a terminal; off a terminal nothing (a cron job mails
 * stderr), or a line per change with --progress. What the wait ends with (timeouts, shortfalls) is not
 * progress: it goes through the follower's info.
 */
export function progressOn(ctx: CommandContext): Progress {
  const tty = ctx.io.stderrIsTTY;
  if (!ctx.showsProgress()) return { change: () => undefined, settled: () => undefined };
  return {
    change: (line) => (tty ? ctx.io.stderr.write(`\r\x1b[K${line}`) : ctx.info(line)),
    settled: () => {
      if (tty) ctx.io.stderr.write('\n');
    },
  };
}
