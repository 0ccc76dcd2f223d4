/**
 * Who is calling: reads the bearer token of a resource call and answers with the caller's account
 * and scopes, or a 401/403 the way the real API does. Only a live access token the mock issued counts.
 */
import { ApiError, invalidToken } from '../kit/api-error.js';
import type { MockContext } from '../context.js';

/** Reads a request's headers by name (joined with `, ` when repeated): Fetch's Headers, or the adapter's view of node's. */
export interface HeaderSource {
  get(name: string): string | null;
}

/** The authenticated caller of a resource call. */
export interface Caller {
  readonly accountId: string;
  readonly userId: string;
  readonly scopes: readonly string[];
}

/**
 * Authenticates `request`: the token must be an access token the world issued, live on the mock's
 * clock, and carry one of `scope` when named (a read/write grant holds write_invest_order, a
 * read-only one read_invest_order). 401 invalid_token when missing, unknown or expired; 403
 * insufficient_scope when the grant does not allow the call.
 */
export function authenticate(
  ctx: MockContext,
  request: { headers: HeaderSource },
  scope?: string | readonly string[],
  memo: CallerMemo = new CallerMemo(),
): Caller {
  const header = request.headers.get('authorization');
  if (!header) throw invalidToken('Missing access token: send Authorization: bearer <access_token>');
  // The token a header names is a function of its text: read again only when the text differs from the last.
  if (header !== memo.header) {
    const m = /^bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw invalidToken('Malformed Authorization header: expected bearer <access_token>');
    memo.header = header;
    memo.token = m[1]!;
  }
  const token = ctx.world.tokens.get(memo.token);
  if (!token || token.kind !== 'access') throw invalidToken('Access token invalid');
  if (token.expiresAt <= ctx.clock.now()) throw invalidToken('Access token expired');
  const account = ctx.world.accounts.get(token.accountId);
  if (!account) throw invalidToken('Access token invalid');
  // One scope (most routes) is looked for without a list made for it.
  const allowed = typeof scope === 'string' ? token.scopes.includes(scope) : !scope?.length || scope.some((s) => token.scopes.includes(s));
  if (!allowed) {
    const anyOf = typeof scope === 'string' ? [scope] : scope!;
    throw new ApiError(403, { error: 'insufficient_scope', error_description: `This call needs the ${anyOf.join(' or ')} scope` });
  }
  // The caller found last again (a client sends the same token again and again): the same object, nothing made.
  const last = memo.caller;
  if (last !== null && last.accountId === account.id && last.userId === account.userId && last.scopes === token.scopes) return last;
  return (memo.caller = { accountId: account.id, userId: account.userId, scopes: token.scopes });
}

/**
 * What `authenticate` read last for one route (kept by the route, as long as the app): the Authorization header's text and
 * the token it names, and the caller it answered. Only what follows from them is kept: whether the token is live, what it
 * allows and whose it is are read from the world each time.
 */
export class CallerMemo {
  header = '';
  token = '';
  caller: Caller | null = null;
}
