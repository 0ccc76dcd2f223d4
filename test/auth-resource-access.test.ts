import { describe, expect, it } from 'vitest';
import { authenticate } from '../mock-server/route-helper/auth.js';
import { ORIGIN, exchangeKey, getWithToken, grantKey, smallApp } from './helpers/auth-mock.js';

const LISTINGS = '/listingsvc/v2/listings?limit=1';

async function tokenFor(
  app: ReturnType<typeof smallApp>,
  account = 'alice-1',
  access: 'read_write' | 'read_only' = 'read_write',
): Promise<string> {
  return String((await exchangeKey(app, grantKey(app, account, access))).body.access_token);
}

describe('resource routes require a live bearer token', () => {
  it('answers 401 invalid_token without a token, with an unknown one, or with a malformed header', async () => {
    const app = smallApp();
    for (const token of [undefined, 'made-up-token']) {
      const response = await getWithToken(app, LISTINGS, token);
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: string }).error).toBe('invalid_token');
    }
    const basic = await app.handle(new Request(`${ORIGIN}${LISTINGS}`, { headers: { authorization: 'Basic Zm9vOmJhcg==' } }));
    expect(basic.status).toBe(401);
  });

  it('serves a live access token and refuses it once 3599 s have passed on the mock clock', async () => {
    const app = smallApp();
    const token = await tokenFor(app);
    expect((await getWithToken(app, LISTINGS, token)).status).toBe(200);
    app.ctx.clock.advance(3598_000);
    expect((await getWithToken(app, LISTINGS, token)).status).toBe(200);
    app.ctx.clock.advance(1000);
    const expired = await getWithToken(app, LISTINGS, token);
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { error: string }).error).toBe('invalid_token');
  });

  it('refuses a refresh token used as a bearer token', async () => {
    const app = smallApp();
    const { body } = await exchangeKey(app, grantKey(app));
    expect((await getWithToken(app, LISTINGS, String(body.refresh_token))).status).toBe(401);
  });

  it('keeps tokens issued under a replaced key alive until they expire', async () => {
    const app = smallApp();
    const token = await tokenFor(app);
    grantKey(app);
    expect((await getWithToken(app, LISTINGS, token)).status).toBe(200);
  });

  it('answers for the account the token was issued to', async () => {
    const app = smallApp();
    const bob = await tokenFor(app, 'bob-1');
    const request = new Request(`${ORIGIN}/x`, { headers: { authorization: `Bearer ${bob}` } });
    expect(authenticate(app.ctx, request, 'read_listing')).toMatchObject({ accountId: 'bob-1', userId: 'bob' });
  });

  it("answers listings for the token's own account: originated listings alice invested in, none for dave", async () => {
    const app = smallApp();
    const path = '/listingsvc/v2/listings?biddable=false&limit=1';
    const alice = (await (await getWithToken(app, path, await tokenFor(app, 'alice-1'))).json()) as { total_count: number };
    const dave = (await (await getWithToken(app, path, await tokenFor(app, 'dave-1'))).json()) as { total_count: number };
    expect(alice.total_count).toBeGreaterThan(0);
    expect(dave.total_count).toBe(0);
  });

  it('refuses a read-only grant on the order write scope with 403 insufficient_scope, and lets read/write through', async () => {
    const app = smallApp();
    const ro = await tokenFor(app, 'alice-2', 'read_only');
    const rw = await tokenFor(app, 'alice-1', 'read_write');
    const req = (t: string) => new Request(`${ORIGIN}/v1/orders`, { method: 'POST', headers: { authorization: `bearer ${t}` } });
    let refused: unknown;
    try {
      authenticate(app.ctx, req(ro), 'write_invest_order');
    } catch (err) {
      refused = err;
    }
    expect(refused).toMatchObject({ status: 403, body: { error: 'insufficient_scope' } });
    expect(authenticate(app.ctx, req(rw), 'write_invest_order').accountId).toBe('alice-1');
    expect(authenticate(app.ctx, req(ro), ['read_invest_order', 'write_invest_order']).accountId).toBe('alice-2');
  });
});
