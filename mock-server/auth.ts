/**
 * Who is calling: reads the bearer token of a resource call and answers with the caller's account
 * and scopes, or a 401/403 the way the real API does.
 */
import { ApiError, invalidToken } from './api-error.js';
import type { MockContext } from './context.js';
import { READ_WRITE_SCOPES } from '../src/contract/enums.js';

/** The authenticated caller of a resource call. */
export interface Caller {
  accountId: string;
  userId: string;
  scopes: readonly string[];
}

/** The account a token stands for until the OAuth flow issues real tokens: alice's first account. */
const FALLBACK_ACCOUNT = 'alice-1';

/**
 * Authenticates `request`. A token the store issued must be live on the mock's clock and carry
 * one of `scope` when named (a read/write grant holds write_invest_order, a read-only one read_invest_order). Until the OAuth issue lands, any other bearer token stands for alice.
 */
export function authenticate(ctx: MockContext, request: Request, scope?: string | readonly string[]): Caller {
  const header = request.headers.get('authorization');
  const m = header ? /^bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!m) throw invalidToken('Missing access token: send Authorization: bearer <access_token>');
  const token = ctx.store.tokens.get(m[1]!);
  if (!token) {
    const account = ctx.store.accounts.get(FALLBACK_ACCOUNT)!;
    return { accountId: account.id, userId: account.userId, scopes: READ_WRITE_SCOPES };
  }
  if (token.kind !== 'access' || token.expiresAt <= ctx.clock.now()) throw invalidToken('Access token expired or invalid');
  const anyOf = typeof scope === 'string' ? [scope] : scope ?? [];
  if (anyOf.length > 0 && !anyOf.some((s) => token.scopes.includes(s))) {
    throw new ApiError(403, { error: 'insufficient_scope', error_description: `This call needs the ${anyOf.join(' or ')} scope` });
  }
  const account = ctx.store.accounts.get(token.accountId)!;
  return { accountId: account.id, userId: account.userId, scopes: token.scopes };
}
