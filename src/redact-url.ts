/**
 * User-info in a URL (`http://user:SECRET@host/v1`) is a password given on the command line or in a
 * variable: every message, trace and listing mkt prints shows it as `***` instead.
 */

/**
 * The scheme, then the authority up to its last `@` on the line: URL parsers take a raw `@` or space in
 * a password as part of it. Text after the URL with an `@` in it may be hidden too: better than a leak.
 */
const USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/?#\r\n]*@/gi;

/** Replaces the user-info of every URL in `text` with `***` (`http://u:p@host` → `http://***@host`). */
export function redactUserInfo(text: string): string {
  return text.includes('@') ? text.replace(USER_INFO, '$1***@') : text;
}
