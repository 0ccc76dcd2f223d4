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
