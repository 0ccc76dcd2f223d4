import { describe, expect, it } from 'vitest';
import { DEMO_CLIENT } from '../mock-server/seed/seed.js';
import { ACCESS_TOKEN_SECONDS, READ_ONLY_SCOPES } from '../src/contract/enums.js';
import { ORIGIN, exchangeKey, grantKey, postToken, smallApp } from './helpers/auth-mock.js';

const HOUR = 3_600_000;
const demo = { client_id: DEMO_CLIENT.clientId, client_secret: DEMO_CLIENT.secret };

describe('POST /v1/security/oauth/token', () => {
  it('exchanges an auth key for a bearer access token of 3599 s and a refresh token', async () => {
    const app = smallApp();
    const { status, body } = await exchangeKey(app, grantKey(app));
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: ACCESS_TOKEN_SECONDS });
    expect(typeof body.access_token).toBe('string');
    expect(typeof body.refresh_token).toBe('string');
    expect(body.access_token).not.toBe(body.refresh_token);
  });

  it('refreshes with a new access token and the same refresh token', async () => {
    const app = smallApp();
    const first = (await exchangeKey(app, grantKey(app))).body;
    const { status, body } = await postToken(app, { grant_type: 'refresh_token', ...demo, refresh_token: String(first.refresh_token) });
    expect(status).toBe(200);
    expect(body.refresh_token).toBe(first.refresh_token);
    expect(body.access_token).not.toBe(first.access_token);
    expect(body.expires_in).toBe(ACCESS_TOKEN_SECONDS);
  });

  it('answers 400 invalid_request when grant_type is missing', async () => {
    const { status, body } = await postToken(smallApp(), { ...demo });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_request');
    expect(typeof body.error_description).toBe('string');
  });

  it('answers 400 unsupported_grant_type for any other grant type', async () => {
    const { status, body } = await postToken(smallApp(), { grant_type: 'password', ...demo });
    expect([status, body.error]).toEqual([400, 'unsupported_grant_type']);
  });

  it('answers 401 invalid_client for an unknown client, a wrong secret or missing credentials', async () => {
    const app = smallApp();
    const key = grantKey(app);
    const tries: Record<string, string>[] = [
      { client_id: 'nobody', client_secret: 'x' },
      { client_id: DEMO_CLIENT.clientId, client_secret: 'wrong' },
      {},
    ];
    for (const creds of tries) {
      const { status, body } = await postToken(app, { grant_type: 'authorization_key', auth_key: key, ...creds });
      expect([status, body.error]).toEqual([401, 'invalid_client']);
    }
  });

  it('answers 400 invalid_authkey for a missing, unknown or replaced key', async () => {
    const app = smallApp();
    const old = grantKey(app);
    const fresh = grantKey(app);
    expect(fresh).not.toBe(old);
    for (const auth_key of [undefined, 'not-a-key', old]) {
      const fields: Record<string, string> = { grant_type: 'authorization_key', ...demo };
      if (auth_key) fields.auth_key = auth_key;
      const { status, body } = await postToken(app, fields);
      expect([status, body.error]).toEqual([400, 'invalid_authkey']);
    }
    expect((await exchangeKey(app, fresh)).status).toBe(200);
  });

  it('answers 400 invalid_grant for a missing, unknown, expired refresh token or an access token', async () => {
    const app = smallApp();
    const tokens = (await exchangeKey(app, grantKey(app))).body;
    for (const refresh_token of [undefined, 'nope', String(tokens.access_token)]) {
      const fields: Record<string, string> = { grant_type: 'refresh_token', ...demo };
      if (refresh_token) fields.refresh_token = refresh_token;
      const { status, body } = await postToken(app, fields);
      expect([status, body.error]).toEqual([400, 'invalid_grant']);
    }
    app.ctx.clock.advance(10 * HOUR - 1000);
    expect((await postToken(app, { grant_type: 'refresh_token', ...demo, refresh_token: String(tokens.refresh_token) })).status).toBe(200);
    app.ctx.clock.advance(1000);
    const late = await postToken(app, { grant_type: 'refresh_token', ...demo, refresh_token: String(tokens.refresh_token) });
    expect([late.status, late.body.error]).toEqual([400, 'invalid_grant']);
  });

  it('answers 401 unauthorized when the key belongs to another client', async () => {
    const app = smallApp({ clients: ['other:other-secret:http://127.0.0.1:9999/cb'] });
    const { status, body } = await postToken(app, {
      grant_type: 'authorization_key',
      client_id: 'other',
      client_secret: 'other-secret',
      auth_key: grantKey(app),
    });
    expect([status, body.error]).toEqual([401, 'unauthorized']);
  });

  it('accepts a client registered through the options, and keeps it after a reset', async () => {
    const app = smallApp({ clients: ['cron:s3cret:http://127.0.0.1:9999/cb'] });
    app.ctx.reset();
    const { scopesFor } = await import('../mock-server/oauth/grants.js');
    const key = app.ctx.perform({ kind: 'grant', client: 'cron', account: 'bob-1', scopes: scopesFor('read_only') }).authKey;
    const { status } = await postToken(app, { grant_type: 'authorization_key', client_id: 'cron', client_secret: 's3cret', auth_key: key });
    expect(status).toBe(200);
  });

  it('refuses a body that is not form-urlencoded with 400 invalid_request', async () => {
    const response = await smallApp().handle(
      new Request(`${ORIGIN}/v1/security/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'refresh_token' }),
      }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('rejects a bad --client spec at start-up', () => {
    expect(() => smallApp({ clients: ['only-an-id'] })).toThrow(/ID:SECRET:REDIRECT/);
  });

  it('issues read-only scopes with a read-only grant', async () => {
    const app = smallApp();
    const key = grantKey(app, 'bob-1', 'read_only');
    expect(app.ctx.world.grants.find((g) => g.authKey === key)?.scopes).toEqual([...READ_ONLY_SCOPES]);
  });
});
