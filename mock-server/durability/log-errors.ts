/**
 * The 503s of the operation log (operation-log.ts): a change whose record cannot be written, and every change
 * once a failed write could not be rolled back either.
 */
import { ApiError } from '../kit/api-error.js';

/** A failed write as its code and message (node's messages begin with the code already). */
function ioError(err: unknown): string {
  const code = (err as { code?: string } | null)?.code ?? 'EIO';
  const message = String((err as Error)?.message ?? err);
  return message.startsWith(`${code}:`) ? message : `${code}: ${message}`;
}

/** The 503 a change gets when its record cannot be written. */
export function writeFailed(path: string, err: unknown): ApiError {
  return new ApiError(
    503,
    {
      code: 'STATE_WRITE_FAILED',
      message:
        `the mock cannot write its operation log ${path} (${ioError(err)}); the change was not made, `
        + 'reads still work; free space or fix the folder and send it again',
    },
    { 'retry-after': '5' },
  );
}

/**
 * The 503 of every change once a failed write could not be rolled back either: the world then holds
 * what the disk does not (the changes of the write that failed), and a change made on it would be
 * acknowledged on a world no restart rebuilds.
 */
export function rollbackFailed(path: string, err: unknown, rollback: unknown): ApiError {
  return new ApiError(
    503,
    {
      code: 'STATE_ROLLBACK_FAILED',
      message:
        `the mock cannot write its operation log ${path} (${ioError(err)}) nor roll its world back to it `
        + `(${(rollback as Error)?.message ?? rollback}); it takes no change until it is restarted (a restart reads the world the folder holds); `
        + 'reads still work, and may show the changes of the failed write, which are not on disk',
    },
    { 'retry-after': '60' },
  );
}
