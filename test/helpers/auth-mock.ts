/** Test helpers for the authorization flow: a small mock app, form posts to it, and keys granted in-process. */
import type { MockApp } from '../../mock-server/app.js';
import { testMockApp } from './mock.js';
import type { MockOptions } from '../../mock-server/context.js';
import { startHttpServer, type RunningServer } from '../../mock-server/http-adapter.js';
import { scopesFor, type Access } from '../../mock-server/oauth/grants.js';
import { DEMO_CLIENT } from '../../mock-server/seed/seed.js';

/** The origin in-process requests use (never contacted: app.handle answers directly). */
export const ORIGIN = 'http://127.0.0.1:4010';

/** A small, frozen mock app (fast to seed; time moves only when a test moves it). */
export function smallApp(options: Partial<MockOptions> = {}): MockApp {
  return testMockApp({ listings: 40, frozen: true, start: Date.parse('2026-01-05T12:00:00Z'), ...options });
}

/** A small mock listening on 127.0.0.1 port 0. */
export async function smallServer(options: Partial<MockOptions> = {}): Promise<{ app: MockApp; server: RunningServer }> {
  const app = smallApp(options);
  return { app, server: await startHttpServer(app, '127.0.0.1', 0) };
}

/** POSTs a form to the token endpoint of `app` and returns status and JSON body. */
export async function postToken(
  app: MockApp,
  fields: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await app.handle(
    new Request(`${ORIGIN}/v1/security/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(fields).toString(),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

/** Grants `accountId` to the demo client in-process and returns the auth key. */
export function grantKey(app: MockApp, accountId = 'alice-1', access: Access = 'read_write'): string {
  return app.ctx.perform({ kind: 'grant', client: DEMO_CLIENT.clientId, account: accountId, scopes: scopesFor(access) }).authKey;
}

/** Exchanges an auth key for tokens with the demo client's credentials. */
export async function exchangeKey(app: MockApp, authKey: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return postToken(app, {
    grant_type: 'authorization_key',
    client_id: DEMO_CLIENT.clientId,
    client_secret: DEMO_CLIENT.secret,
    auth_key: authKey,
  });
}

/** GETs `path` of `app` with an optional bearer token. */
export async function getWithToken(app: MockApp, path: string, token?: string): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token !== undefined) headers.authorization = `bearer ${token}`;
  return app.handle(new Request(`${ORIGIN}${path}`, { headers }));
}
