/** Picks the token provider for a profile: MKT_ACCESS_TOKEN first, then stored credentials. */
import type { Settings } from '../config/settings.js';
import { envTokenProvider, missingTokenProvider, type TokenProvider } from './token-provider.js';
import type { HttpClient } from '../api/http.js';

/** What the provider may use. */
export interface TokenContext {
  settings: Settings;
  env: Readonly<Record<string, string | undefined>>;
  http: HttpClient;
  stderr: (line: string) => void;
}

/** The token provider for this run. */
export async function createTokenProvider(ctx: TokenContext): Promise<TokenProvider> {
  const token = ctx.env.MKT_ACCESS_TOKEN;
  if (token) return envTokenProvider(token);
  return missingTokenProvider(ctx.settings.profile);
}
