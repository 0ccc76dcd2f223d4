/**
 * Where access tokens come from. The API client asks a TokenProvider (src/api/client.ts names it) before
 * every resource call and, after a 401, once more with `refresh: true`.
 */
import type { TokenProvider } from '../api/client.js';
import { AuthError } from '../errors.js';

/**
 * Checks that `token` can go in an Authorization header: printable ASCII without spaces, as a bearer
 * token is (RFC 6750). A line break or control byte would fail inside the HTTP library and read as
 * "cannot reach the marketplace"; it is a malformed token (exit 3), named by `origin`.
 */
export function checkToken(token: string, origin: string, hint: string): string {
  const at = token.search(/[^\x21-\x7e]/);
  if (at < 0) return token;
  const code = token.charCodeAt(at);
  const what =
    code === 0x0a || code === 0x0d
      ? 'a line break'
      : code === 0x20
        ? 'a space'
        : code < 0x20 || code === 0x7f
          ? `a control byte (0x${code.toString(16).padStart(2, '0')})`
          : `a character outside printable ASCII (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
  throw new AuthError(`${origin} is malformed: it holds ${what} at character ${at + 1}; a token is printable ASCII without spaces`, hint);
}

/** Uses MKT_ACCESS_TOKEN as it is and stores nothing. */
export function envTokenProvider(given: string): TokenProvider {
  const token = checkToken(
    given,
    'MKT_ACCESS_TOKEN',
    'set MKT_ACCESS_TOKEN to the token alone (no line end or quotes), or unset it and run `mkt login`',
  );
  return {
    async accessToken(opts) {
      if (opts?.refresh)
        throw new AuthError('the marketplace refused MKT_ACCESS_TOKEN', 'set a fresh MKT_ACCESS_TOKEN or unset it and run `mkt login`');
      return token;
    },
  };
}
