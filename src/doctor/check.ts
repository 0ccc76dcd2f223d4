/** One finding of `mkt doctor`, and how findings are built and summed up. */

/** ok: nothing to do; warn: works, but worth knowing; fail: a cron job would fail; skip: not checked (an earlier check failed). */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One check as `mkt doctor` prints it: `-o json` gives these objects. */
export interface Check {
  check: string;
  status: CheckStatus;
  detail: string;
  /** What to do, for warn and fail; null when nothing is to be done. */
  fix: string | null;
}

/** A passed check. */
export const ok = (check: string, detail: string): Check => ({ check, status: 'ok', detail, fix: null });

/** A check that works but deserves a look. */
export const warn = (check: string, detail: string, fix: string): Check => ({ check, status: 'warn', detail, fix });

/** A failed check, with what to do. */
export const fail = (check: string, detail: string, fix: string): Check => ({ check, status: 'fail', detail, fix });

/** A check that could not run because `after` failed. */
export const skip = (check: string, after: string): Check => ({
  check,
  status: 'skip',
  detail: `not checked: the ${after} check failed`,
  fix: `fix ${after} first`,
});

/** A failure's words and hint, whatever was thrown. */
export function failure(err: unknown): { message: string; hint: string | undefined } {
  if (err instanceof Error) return { message: err.message, hint: (err as { hint?: string }).hint };
  return { message: String(err), hint: undefined };
}

/** Whether every check passed (a warning passes; a skip follows a failure). */
export function allPassed(checks: readonly Check[]): boolean {
  return checks.every((c) => c.status === 'ok' || c.status === 'warn');
}
