/**
 * The two times that decide when an order sent without an answer may be sent again: how long the
 * client waits for an answer (`MKT_HTTP_TIMEOUT`), and the settle window after which a batch the
 * marketplace still does not show is taken as never received (`MKT_SETTLE_WINDOW`). Read from the
 * environment, as `MKT_KEYCHAIN_TIMEOUT` is: a bad value is exit 2 naming the variable, never the default.
 */
import { UsageError } from '../errors.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The client's answer timeout when MKT_HTTP_TIMEOUT is not set. */
export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;

/**
 * What the settle window adds to the answer timeout by default: a front proxy's usual upstream timeout
 * (60 s, nginx's `proxy_read_timeout` and an AWS load balancer's idle timeout) plus 30 s for the
 * marketplace to act on a request it read just before that. 30 + 90 = 120 s by default.
 */
export const SETTLE_MARGIN_MS = 90_000;

/** The longest settle window MKT_SETTLE_WINDOW takes (24 h): no batch stays in doubt longer after its journal was last written. */
export const MAX_SETTLE_WINDOW_MS = 86_400_000;

/** Seconds in `name`, from `min` to `max`, or undefined when unset. */
function seconds(env: Env, name: string, min: number, max: number): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const s = Number(text);
  // Capped: a timer past 2^31 ms fires at once in Node.
  if (!/^\d+(\.\d+)?$/.test(text) || !(s >= min) || s > max) {
    throw new UsageError(`${name} must be a number of seconds from ${min} to ${max}, got '${env[name]}'`, `fix or unset ${name}`);
  }
  return s * 1000;
}

/** How long the client waits for an answer to one request: MKT_HTTP_TIMEOUT seconds, else 30 s. */
export function httpTimeoutMs(env: Env): number {
  return seconds(env, 'MKT_HTTP_TIMEOUT', 0.1, 3600) ?? DEFAULT_HTTP_TIMEOUT_MS;
}

/**
 * How long after it was sent a batch without an answer stays in doubt (not sent again while the
 * marketplace does not show it): MKT_SETTLE_WINDOW seconds, else the answer timeout plus SETTLE_MARGIN_MS.
 * A window shorter than the answer timeout is refused (exit 2, naming both): a rerun would take an
 * order as never received while the first run could still be waiting for its answer.
 */
export function settleWindowMs(env: Env): number {
  const answer = httpTimeoutMs(env);
  const window = seconds(env, 'MKT_SETTLE_WINDOW', 1, MAX_SETTLE_WINDOW_MS / 1000);
  if (window === undefined) return answer + SETTLE_MARGIN_MS;
  if (window < answer) {
    const timeout = env.MKT_HTTP_TIMEOUT?.trim() ? `MKT_HTTP_TIMEOUT (${answer / 1000} s)` : `MKT_HTTP_TIMEOUT (unset: ${answer / 1000} s)`;
    throw new UsageError(
      `MKT_SETTLE_WINDOW (${window / 1000} s) is shorter than the answer timeout ${timeout}: an order could be taken as never received while its answer is still awaited`,
      `set MKT_SETTLE_WINDOW to at least MKT_HTTP_TIMEOUT plus what a proxy and the marketplace may take after it (${SETTLE_MARGIN_MS / 1000} s by default), or unset it`,
    );
  }
  return window;
}

/** The settle window and the answer timeout, as the order desk takes them (each order is journalled with both). */
export function deskWindows(env: Env): { settleMs: number; httpTimeoutMs: number } {
  return { settleMs: settleWindowMs(env), httpTimeoutMs: httpTimeoutMs(env) };
}
