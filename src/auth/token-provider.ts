/**
 * Where access tokens come from. The API client asks a TokenProvider before every resource call
 * and, after a 401, once more with `refresh: true`.
 */
import { AuthError } from '../errors.js';

/** Gives a valid access token for the current profile. */
export interface TokenProvider {
  /** A token to send; `refresh` asks for a new one because the last was refused. */
  accessToken(opts?: { refresh?: boolean }): Promise<string>;
}

/** Uses MKT_ACCESS_TOKEN as it is and stores nothing. */
export function envTokenProvider(token: string): TokenProvider {
  return {
    async accessToken(opts) {
      if (opts?.refresh) throw new AuthError('the marketplace refused MKT_ACCESS_TOKEN', 'set a fresh MKT_ACCESS_TOKEN or unset it and run `mkt login`');
      return token;
    },
  };
}
