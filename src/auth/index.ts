/** Picks the token provider for a profile: MKT_ACCESS_TOKEN first (stores nothing), then stored credentials. */
import type { Settings } from '../config/settings.js';
import { envTokenProvider, type TokenProvider } from './token-provider.js';
import type { HttpClient } from '../api/http.js';
import { AuthSession } from './session.js';

/** What the provider may use. */
export interface TokenContext {
  settings: Settings;
  env: Readonly<Record<string, string | undefined>>;
  http: HttpClient;
  stderr: (line: string) => void;
  /** Wall-clock time (defaults to Date.now). */
  now?: () => number;
}

/** The token provider for this run. */
export async function createTokenProvider(ctx: TokenContext): Promise<TokenProvider> {
  const token = ctx.env.MKT_ACCESS_TOKEN;
  if (token) return envTokenProvider(token);
  return new AuthSession(ctx).tokenProvider();
}
