/** One error hierarchy and one exit-code table for the whole CLI (DESIGN.md "Exit codes"). */

/** Exit codes scripts rely on. */
export const EXIT = {
  OK: 0,
  /** Unexpected failure: a bug. */
  BUG: 1,
  /** Usage or input error; nothing was sent. */
  USAGE: 2,
  /** Not logged in, or credentials or partner code expired or rejected. */
  AUTH: 3,
  /** Rejected by the marketplace (ORD…, MKTPL…, validation). */
  REJECTED: 4,
  /** Marketplace unreachable or 5xx after retries. */
  UNREACHABLE: 5,
  /** --wait ended with some bids not placed or not invested. */
  INCOMPLETE: 6,
  /** Interrupted (Ctrl-C) after saying what was placed and how to resume: 128 + SIGINT, as a shell reports it. */
  INTERRUPTED: 130,
} as const;

/** An expected failure: one actionable line on stderr and a documented exit code, no stack. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad flags, files or values: exit 2, nothing sent. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.USAGE, hint);
  }
}

/** Not logged in or credentials rejected: exit 3. */
export class AuthError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.AUTH, hint);
  }
}

/** Ctrl-C or SIGTERM ended the run (exit 130); the message says what was placed and how to resume. */
export class InterruptedError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.INTERRUPTED, hint);
  }
}

/**
 * Standard output was closed by its reader (`mkt … | head`): not a failure of mkt. Stop producing
 * output and end quietly, as `gh` does; `cause` is the stream's error.
 */
export class OutputClosedError extends Error {
  constructor(override readonly cause?: unknown) {
    super('standard output was closed');
    this.name = 'OutputClosedError';
  }
}

/**
 * `text` without its closing full stop (an ellipsis kept), so it can go inside a sentence that is
 * closed once: the marketplace ends its messages with one, and `${message}.` would print two.
 */
export function clause(text: string): string {
  // Repeated: "x. ." ends in a stop again once its last one is cut.
  let t = text.trimEnd();
  while (/(?<!\.)\.$/.test(t)) t = t.slice(0, -1).trimEnd();
  return t;
}

const SYSTEM_WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EMFILE: 'too many open files',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
  ECONNREFUSED: 'connection refused (nothing is listening at that address and port)',
  ENOTFOUND: 'host not found (check the host name)',
  EAI_AGAIN: 'host name lookup failed for now (DNS not answering)',
  ETIMEDOUT: 'timed out',
  UND_ERR_CONNECT_TIMEOUT: 'timed out while connecting',
  UND_ERR_HEADERS_TIMEOUT: 'timed out waiting for the answer',
  UND_ERR_BODY_TIMEOUT: 'timed out while reading the answer',
  ECONNRESET: 'the connection was reset by the other side',
  UND_ERR_SOCKET: 'the connection was closed by the other side',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available on this machine',
  EPIPE: 'the other side closed the connection',
};

/**
 * Plain words for a system error (ENOENT, EISDIR, ECONNREFUSED, …), with the code kept in brackets for
 * searches: the one mapping used wherever a system error reaches the user. Unknown codes and errors
 * without one are given as their message.
 */
export function systemErrorWords(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown } | null | undefined;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  if (code && SYSTEM_WORDS[code]) return `${SYSTEM_WORDS[code]} (${code})`;
  // undici wraps the socket's error: its cause holds the code.
  if (e?.cause && e.cause !== err && typeof (e.cause as { code?: unknown }).code === 'string') return systemErrorWords(e.cause);
  if (code) return code;
  return typeof e?.message === 'string' ? e.message : String(err);
}
