/**
 * How to pick up following an order after a --wait timed out or was interrupted: the command repeats
 * every flag that shaped the wait, so that resuming a `--until completed` wait does not quietly stop
 * at `processed`.
 */
/** What to wait for (here, below wait.ts, so that the resume hint needs nothing of the waiting). */
export type Until = 'processed' | 'completed';

/** What to wait for, and for how long at most per order. */
export interface FollowPlan {
  until: Until;
  timeoutMs: number;
  /** The profile the wait acts for; a resume command names it unless it is the default one. */
  profile?: string;
}

/** The --wait flags' defaults (the commands' option definitions use these too): a resume command leaves them out. */
export const WAIT_DEFAULTS = { until: 'processed', timeoutSeconds: 600 } as const;

/** `mkt order get ID --wait`, with `--until`, `--timeout` and `--profile` when the plan's differ from the defaults. */
export function resumeCommand(orderId: string, plan: FollowPlan): string {
  const flags = [`mkt order get ${orderId} --wait`];
  if (plan.until !== WAIT_DEFAULTS.until) flags.push(`--until ${plan.until}`);
  const seconds = plan.timeoutMs / 1000;
  if (seconds !== WAIT_DEFAULTS.timeoutSeconds) flags.push(`--timeout ${seconds}`);
  // Another profile's resume without --profile would read the default profile's account.
  if (plan.profile !== undefined && plan.profile !== 'default') flags.push(`--profile ${plan.profile}`);
  return `\`${flags.join(' ')}\``;
}

/** Every order's resume command, comma-separated. */
export function resumeCommands(orderIds: readonly string[], plan: FollowPlan): string {
  return orderIds.map((id) => resumeCommand(id, plan)).join(', ');
}
