/** Picks the token provider for a profile: MKT_ACCESS_TOKEN first (stores nothing), then stored credentials. */
import type { TokenProvider } from '../api/client.js';
import { envTokenProvider } from './token-provider.js';
import type { SessionDeps } from './session.js';

/** What the provider may use: the session's dependencies without the login-only ones. */
export type TokenContext = Pick<SessionDeps, 'settings' | 'env' | 'http' | 'stderr' | 'now'>;

/** The token provider for this run. */
export async function createTokenProvider(ctx: TokenContext): Promise<TokenProvider> {
  const token = ctx.env.MKT_ACCESS_TOKEN;
  if (token) return envTokenProvider(token);
  // The stores (keychain, file, lock, token endpoint) load only when a token is not handed in.
  const { AuthSession } = await import('./session.js');
  return new AuthSession(ctx).tokenProvider();
}
