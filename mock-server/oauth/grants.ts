/**
 * The authorization-key flow's state changes: approving a grant (a new key replaces the old one),
 * and the token endpoint's two grants with every error of the spec's authorization table (and the opt-in
 * password grant, outside the spec).
 * Keys never expire; access tokens live ACCESS_TOKEN_SECONDS and refresh tokens REFRESH_TOKEN_SECONDS
 * on the mock's clock, from their issue (no sliding). Tokens already issued outlive a replaced key.
 */
import { ACCESS_TOKEN_SECONDS, READ_ONLY_SCOPES, READ_WRITE_SCOPES, REFRESH_TOKEN_SECONDS } from '../../src/contract/enums.js';
import { ApiError } from '../kit/api-error.js';
import type { Secrets } from '../kit/entropy.js';
import type { Grant, Token } from '../world/world.js';
import { findClient, type OAuthHost } from './clients.js';
import { passwordMatches } from './passwords.js';

/** Which grant the user chose on the consent page. */
export type Access = 'read_write' | 'read_only';

/** The scopes a grant of `access` yields (the spec's two lists). */
export function scopesFor(access: Access): string[] {
  return [...(access === 'read_only' ? READ_ONLY_SCOPES : READ_WRITE_SCOPES)];
}

/** An RFC 6749 error answer: `{"error":…,"error_description":…}`. */
export function oauthError(status: number, error: string, description: string): ApiError {
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  if (status === 401) headers['www-authenticate'] = `Bearer error="${error}"`;
  return new ApiError(status, { error, error_description: description }, headers);
}

/** The grant of `accountId` to `clientId`, if the user ever approved one. */
export function findGrant(ctx: OAuthHost, clientId: string, accountId: string): Grant | undefined {
  return ctx.world.grants.find((g) => g.clientId === clientId && g.accountId === accountId);
}

/**
 * Approves (or renews) a grant: a fresh auth key replaces any earlier key of this client and account. The key is
 * drawn from `secrets`, the operation's own (kit/entropy.ts), so the operation log replays it.
 */
export function approveGrant(ctx: OAuthHost, clientId: string, accountId: string, scopes: readonly string[], secrets: Secrets): Grant {
  const grant = findGrant(ctx, clientId, accountId);
  const renewed: Grant = { clientId, accountId, authKey: secrets.draw(24), scopes: [...scopes], createdAt: ctx.clock.now() };
  if (grant) Object.assign(grant, renewed);
  else ctx.world.grants.push(renewed);
  return grant ?? renewed;
}

/** The token endpoint's success body. */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  refresh_token: string;
  expires_in: number;
  /** Space-separated scopes: only in the password grant's answer, which has no redirect to carry them. */
  scope?: string;
}

function pruneExpired(ctx: OAuthHost, now: number): void {
  for (const [value, t] of ctx.world.tokens) if (t.expiresAt <= now) ctx.world.tokens.delete(value);
}

function issue(
  ctx: OAuthHost,
  kind: Token['kind'],
  from: Pick<Token, 'clientId' | 'accountId' | 'scopes' | 'authKey'>,
  seconds: number,
  secrets: Secrets,
): Token {
  const token: Token = { ...from, scopes: [...from.scopes], kind, value: secrets.draw(24), expiresAt: ctx.clock.now() + seconds * 1000 };
  ctx.world.tokens.set(token.value, token);
  return token;
}

/** The grant types the token endpoint takes: the spec's two, and the password grant when the mock allows it. */
function grantTypes(ctx: OAuthHost): string[] {
  return ['authorization_key', 'refresh_token', ...(ctx.options.allowPasswordGrant ? ['password'] : [])];
}

/**
 * The password grant (an extension outside the spec, on with --allow-password-grant): a seeded user's id and
 * password (passwords.ts) give a read/write token pair for the user's first account. An unknown user or a
 * wrong password is invalid_grant, as a bad key or refresh token is for the spec's grants.
 */
function passwordGrant(ctx: OAuthHost, clientId: string, form: URLSearchParams, secrets: Secrets): TokenResponse {
  const username = form.get('username');
  const password = form.get('password');
  if (!username || password === null) throw oauthError(400, 'invalid_request', 'The password grant needs username and password');
  const user = ctx.world.users.get(username);
  const accountId = user?.accountIds[0];
  if (!user || !accountId || !passwordMatches(ctx.world.seed, user.id, password)) {
    throw oauthError(400, 'invalid_grant', 'Invalid username or password');
  }
  const scopes = scopesFor('read_write');
  // RFC 6749 5.1: scope is required when it differs from what was asked, and this grant asks for none.
  return { ...tokenPair(ctx, { clientId, accountId, scopes, authKey: '' }, secrets), scope: scopes.join(' ') };
}

/** A new access token and refresh token for `from`. */
function tokenPair(ctx: OAuthHost, from: Pick<Token, 'clientId' | 'accountId' | 'scopes' | 'authKey'>, secrets: Secrets): TokenResponse {
  const access = issue(ctx, 'access', from, ACCESS_TOKEN_SECONDS, secrets);
  const refresh = issue(ctx, 'refresh', from, REFRESH_TOKEN_SECONDS, secrets);
  return { access_token: access.value, token_type: 'bearer', refresh_token: refresh.value, expires_in: ACCESS_TOKEN_SECONDS };
}

/** Answers POST {base_url}/security/oauth/token for the form `form`, its tokens drawn from `secrets`; throws the spec's errors. */
export function tokenGrant(ctx: OAuthHost, form: URLSearchParams, secrets: Secrets): TokenResponse {
  const grantType = form.get('grant_type');
  if (!grantType) throw oauthError(400, 'invalid_request', 'Missing grant_type');
  const types = grantTypes(ctx);
  if (!types.includes(grantType)) {
    const hint = grantType === 'password' ? '; the mock takes it when started with --allow-password-grant' : '';
    throw oauthError(400, 'unsupported_grant_type', `Grant type '${grantType}' is not supported (${types.join(' or ')})${hint}`);
  }
  const client = findClient(ctx, form.get('client_id'));
  if (!client || form.get('client_secret') !== client.secret) {
    throw oauthError(401, 'invalid_client', 'Invalid or missing client credentials');
  }
  const now = ctx.clock.now();
  pruneExpired(ctx, now);
  if (grantType === 'password') return passwordGrant(ctx, client.clientId, form, secrets);
  if (grantType === 'authorization_key') {
    const key = form.get('auth_key');
    if (!key) throw oauthError(400, 'invalid_authkey', 'Missing auth_key');
    const grant = ctx.world.grants.find((g) => g.authKey === key);
    if (!grant) throw oauthError(400, 'invalid_authkey', 'Invalid auth key (unknown, revoked or replaced by a newer one)');
    if (grant.clientId !== client.clientId) throw oauthError(401, 'unauthorized', 'Client not authorized to get tokens for this user');
    return tokenPair(ctx, grant, secrets);
  }
  const value = form.get('refresh_token');
  if (!value) throw oauthError(400, 'invalid_grant', 'Missing refresh_token');
  const refresh = ctx.world.tokens.get(value);
  if (!refresh || refresh.kind !== 'refresh' || refresh.expiresAt <= now) {
    throw oauthError(400, 'invalid_grant', 'Invalid or expired refresh token');
  }
  if (refresh.clientId !== client.clientId) throw oauthError(401, 'unauthorized', 'Client not authorized to refresh this token');
  const access = issue(ctx, 'access', refresh, ACCESS_TOKEN_SECONDS, secrets);
  return { access_token: access.value, token_type: 'bearer', refresh_token: refresh.value, expires_in: ACCESS_TOKEN_SECONDS };
}
