/** Picks the token provider for a profile: MKT_ACCESS_TOKEN first (stores nothing), then stored credentials. */
import { envTokenProvider, type TokenProvider } from './token-provider.js';
import { AuthSession, type SessionDeps } from './session.js';

/** What the provider may use: the session's dependencies without the login-only ones. */
export type TokenContext = Pick<SessionDeps, 'settings' | 'env' | 'http' | 'stderr' | 'now'>;

/** The token provider for this run. */
export async function createTokenProvider(ctx: TokenContext): Promise<TokenProvider> {
  const token = ctx.env.MKT_ACCESS_TOKEN;
  if (token) return envTokenProvider(token);
  return new AuthSession(ctx).tokenProvider();
}
