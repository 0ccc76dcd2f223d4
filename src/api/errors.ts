/**
 * Typed API failures, mapped from an HTTP answer in exactly one function (`errorFromResponse`).
 * Each carries the status, the API's code and message, and the CLI exit code it leads to.
 */
import type { DecodeError } from '../contract/decode.js';
import type { RateGroup } from '../contract/rate-limits.js';
import { AUTH_ERRORS, OFFER_ERRORS, ORDER_ERRORS } from '../contract/errors.js';
import { CliError, clause, EXIT } from '../errors.js';

/** Any failure answered by the marketplace. */
export class ApiError extends CliError {
  constructor(
    message: string,
    exitCode: number,
    readonly status: number,
    readonly code: string | undefined,
    readonly body: unknown,
    hint?: string,
  ) {
    super(message, exitCode, hint);
  }
}

/** 401/403: the token or grant was refused (exit 3). */
export class AuthenticationError extends ApiError {}
/** 4xx: the marketplace rejected the request (exit 4). */
export class RejectedError extends ApiError {}
/** 5xx after retries (exit 5). */
export class ServerError extends ApiError {}

/**
 * 429s past the bound mkt waits for one request (exit 5, as for a marketplace that cannot serve now). The
 * service refused the request unread: nothing it would have done was done (an order POST placed nothing).
 */
export class ThrottledError extends ApiError {
  constructor(
    message: string,
    code: string | undefined,
    body: unknown,
    /** The rate-limit group the request counted in, when it had one. */
    readonly group: RateGroup | null,
    /** The wait the last 429 asked for, in ms. */
    readonly askedMs: number,
  ) {
    super(
      message,
      EXIT.UNREACHABLE,
      429,
      code,
      body,
      'the limit is per set of credentials: another client or mkt run on them may be taking it; try again in a while',
    );
  }
}

/** The marketplace could not be reached at all (exit 5). */
export class ConnectionError extends CliError {
  /**
   * `sent` is false only when the connection was never made (refused, host not found): the request
   * cannot have reached the marketplace. Anything else may have been received before the failure.
   */
  constructor(
    message: string,
    override readonly cause?: unknown,
    readonly sent = true,
  ) {
    super(message, EXIT.UNREACHABLE, 'is the marketplace (or `mkt mock serve`) running, and is base_url right?');
  }
}

/**
 * A call that failed before its request went out, or that the marketplace refused before acting on it
 * (a token refused, then no fresh one to be had): nothing was placed. It keeps the failure's message,
 * exit code and hint; `cause` is the failure as it was.
 */
export class NotSentError extends CliError {
  constructor(override readonly cause: CliError) {
    super(cause.message, cause.exitCode, cause.hint);
  }
}

/** True when `err` proves the call's request had no effect at the marketplace. */
export function nothingSent(err: unknown): err is CliError {
  return err instanceof NotSentError || (err instanceof ConnectionError && !err.sent);
}

/**
 * A 2xx answer without the shape the client relies on (exit 5, as for an unreachable marketplace:
 * whatever answered is not the marketplace API the client speaks). A ConnectionError, so that an
 * order whose answer cannot be read is treated as lost, never as refused.
 */
export class BadAnswerError extends ConnectionError {
  constructor(what: string, err: DecodeError) {
    super(`${what}: the marketplace's answer cannot be read: ${err.message}`, err);
  }
}

/** The meaning of a known code, for messages. */
export function meaningOf(code: string | undefined): string | undefined {
  if (!code) return undefined;
  return ORDER_ERRORS[code]?.message ?? OFFER_ERRORS[code]?.message ?? AUTH_ERRORS[code];
}

/** Maps a non-2xx answer to its typed error. */
export function errorFromResponse(status: number, body: unknown, what: string): ApiError {
  const b = fieldsOf(body);
  const first = fieldsOf(Array.isArray(b.errors) ? b.errors[0] : undefined);
  const code = textOf(b.code) ?? textOf(b.error) ?? textOf(first.code);
  const text = textOf(b.message) ?? textOf(b.error_description) ?? textOf(first.message);
  // The marketplace's text ends in a full stop; callers put the message inside sentences of their own.
  const said = text ?? meaningOf(code);
  const detail =
    [code, said === undefined ? undefined : clause(said)].filter(Boolean).join(': ')
    || (typeof body === 'string' ? clause(body.slice(0, 200)) : '');
  const message = `${what} failed (HTTP ${status})${detail ? `: ${detail}` : ''}`;
  if (status === 403 && code === 'insufficient_scope') {
    return new AuthenticationError(
      message,
      EXIT.AUTH,
      status,
      code,
      body,
      'this grant is read-only: run `mkt login` again and choose read/write',
    );
  }
  if (status === 401 || status === 403) {
    return new AuthenticationError(message, EXIT.AUTH, status, code, body, 'run `mkt login` (or check MKT_ACCESS_TOKEN)');
  }
  if (status >= 500) return new ServerError(message, EXIT.UNREACHABLE, status, code, body);
  return new RejectedError(message, EXIT.REJECTED, status, code, body);
}

/** The fields of an error body, or none when it is not an object. */
function fieldsOf(v: unknown): { [field: string]: unknown } {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...v } : {};
}

const textOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
