/**
 * The authorization-key flow: GET/POST {auth_url}/oauth (the browser's consent page and its form)
 * and POST {base_url}/security/oauth/token. The browser side answers HTML (an error page carries the
 * status and never redirects to an unregistered URL); the token endpoint answers RFC 6749 JSON.
 */
import type { ApiError } from '../kit/api-error.js';
import type { MockContext } from '../context.js';
import { findClient, optionClients } from '../oauth/clients.js';
import { consentPage, errorPage } from '../oauth/consent-page.js';
import { findGrant, oauthError, scopesFor, type Access } from '../oauth/grants.js';
import { MockSetupError } from '../kit/setup-error.js';
import type { OAuthClient } from '../world/world.js';
import { http, route, type RequestHead } from '../route-helper/route.js';

/** The session cookie that stands for "this browser is signed in as this account". */
const SESSION_COOKIE = 'mkt_mock_account';

const HTML_HEADERS = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-frame-options': 'DENY' };

function html(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...HTML_HEADERS, ...headers } });
}

/** How a browser-facing route answers a failure: an HTML error page with the status (a bug: 500). */
function htmlError(err: ApiError | undefined): Response {
  if (!err) return html(500, errorPage(500, 'server_error', 'Application Error'));
  const { error, error_description: description } = err.body;
  return html(
    err.status,
    errorPage(err.status, typeof error === 'string' ? error : 'error', typeof description === 'string' ? description : err.message),
  );
}

/** Checks client_id and response_type of an authorization request. */
function checkRequest(ctx: MockContext, params: URLSearchParams): OAuthClient {
  const client = findClient(ctx, params.get('client_id'));
  if (!client)
    throw oauthError(401, 'unauthorized', params.get('client_id') ? `Unknown client_id '${params.get('client_id')}'` : 'Missing client_id');
  const responseType = params.get('response_type');
  if (!responseType) throw oauthError(400, 'invalid_request', 'Missing response_type (expected auth_key)');
  if (responseType !== 'auth_key')
    throw oauthError(400, 'invalid_request', `Unsupported response_type '${responseType}' (expected auth_key)`);
  return client;
}

/** The 302 back to the client's registered URL (its own query arguments are ignored). */
function redirectBack(client: OAuthClient, params: Record<string, string | null>, headers: Record<string, string> = {}): Response {
  const url = new URL(client.redirectUri);
  url.search = '';
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return new Response(null, { status: 302, headers: { location: url.toString(), 'cache-control': 'no-store', ...headers } });
}

function approveAndRedirect(ctx: MockContext, client: OAuthClient, accountId: string, scopes: string[], state: string | null): Response {
  const grant = ctx.perform({ kind: 'grant', client: client.clientId, account: accountId, scopes });
  const cookie = `${SESSION_COOKIE}=${encodeURIComponent(accountId)}; Path=/; HttpOnly; SameSite=Lax`;
  return redirectBack(client, { auth_key: grant.authKey, state, scope: grant.scopes.join(' ') }, { 'set-cookie': cookie });
}

function sessionAccount(request: RequestHead): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k !== SESSION_COOKIE) continue;
    try {
      return decodeURIComponent(v.join('='));
    } catch {
      // A cookie the mock never set (a bad percent-escape): no session, the consent page is shown, never a 500.
      return undefined;
    }
  }
  return undefined;
}

/** The first account of the first --auto-approve user, checked at start-up. */
function autoApproveAccount(ctx: MockContext): string | undefined {
  const userId = ctx.options.autoApprove?.[0];
  if (!userId) return undefined;
  const user = ctx.world.users.get(userId);
  if (!user || user.accountIds.length === 0) {
    throw new MockSetupError(`--auto-approve: no investor user '${userId}' (seeded: ${[...ctx.world.users.keys()].join(', ')})`);
  }
  return user.accountIds[0];
}

/** The OAuth handlers. Throws at start-up on a bad --client spec or --auto-approve user. */
export function oauthHandlers(ctx: MockContext) {
  optionClients(ctx);
  autoApproveAccount(ctx);
  return [
    // The consent page approves at once for a remembered or --auto-approve user: a GET that writes.
    http.get(
      '*/oauth',
      route(
        ctx,
        ({ request, url }) => {
          const client = checkRequest(ctx, url.searchParams);
          const state = url.searchParams.get('state');
          const auto = autoApproveAccount(ctx);
          if (auto) return approveAndRedirect(ctx, client, auto, scopesFor('read_write'), state);
          const remembered = sessionAccount(request);
          const grant = remembered ? findGrant(ctx, client.clientId, remembered) : undefined;
          if (grant && ctx.world.accounts.has(grant.accountId))
            return approveAndRedirect(ctx, client, grant.accountId, grant.scopes, state);
          const users = [...ctx.world.users.values()];
          return html(200, consentPage({ client, state, users, accounts: ctx.world.accounts, action: url.pathname }));
        },
        { browser: htmlError, writes: true },
      ),
    ),
    http.post(
      '*/oauth',
      route(
        ctx,
        async ({ request }) => {
          const form = new URLSearchParams(await request.text());
          const client = checkRequest(ctx, form);
          const state = form.get('state');
          const decision = form.get('decision');
          if (decision === 'cancel') return redirectBack(client, { error_code: 'userCancellation', state });
          if (decision !== 'allow') throw oauthError(400, 'invalid_request', 'decision must be allow or cancel');
          const accountId = form.get('account') ?? '';
          if (!ctx.world.accounts.has(accountId)) throw oauthError(400, 'invalid_request', `Unknown investor account '${accountId}'`);
          const access = form.get('access') ?? 'read_write';
          if (access !== 'read_write' && access !== 'read_only')
            throw oauthError(400, 'invalid_request', 'access must be read_write or read_only');
          return approveAndRedirect(ctx, client, accountId, scopesFor(access as Access), state);
        },
        { browser: htmlError },
      ),
    ),
    http.post(
      '*/v1/security/oauth/token',
      route(ctx, async ({ request }) => {
        const type = request.headers.get('content-type') ?? '';
        if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
          throw oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded');
        }
        const body = ctx.perform({ kind: 'token', form: await request.text() });
        return new Response(JSON.stringify(body), {
          status: 200,
          headers: { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' },
        });
      }),
    ),
  ];
}
