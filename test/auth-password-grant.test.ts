/** The opt-in password grant (an extension outside the spec): off by default, seeded users' seed-derived passwords, the spec's OAuth errors. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { userPassword } from '../mock-server/oauth/passwords.js';
import { READ_WRITE_SCOPES } from '../src/contract/enums.js';
import { call, makeApp } from './engine-fixture.js';

const CLIENT = { client_id: 'mkt-demo', client_secret: 'mkt-demo-secret' };

/** POST /v1/security/oauth/token with a form body. */
async function token(app: MockApp, form: Record<string, string>) {
  const res = await app.handle(
    new Request('http://mock.test/v1/security/oauth/token', {
      method: 'POST',
      body: new URLSearchParams(form),
      headers: { accept: 'application/json' },
    }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const passwordForm = (username: string, password: string) => ({ grant_type: 'password', ...CLIENT, username, password });

describe('the password grant', () => {
  test('is off by default: unsupported_grant_type, naming the flag that turns it on, and no token issued', async () => {
    const app = makeApp();
    const before = app.ctx.world.tokens.size;
    const res = await token(app, passwordForm('alice', userPassword(7, 'alice')));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unsupported_grant_type');
    expect(res.body.error_description).toContain('--allow-password-grant');
    expect(app.ctx.world.tokens.size).toBe(before);
  });

  test("with --allow-password-grant a seeded user's id and password give a read/write token pair for their first account", async () => {
    const app = makeApp({ allowPasswordGrant: true });
    const res = await token(app, passwordForm('alice', userPassword(7, 'alice')));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', expires_in: 3599 });
    // No redirect carries the scopes in this grant, so the answer does (RFC 6749 5.1), as the README says.
    expect(res.body.scope).toBe(READ_WRITE_SCOPES.join(' '));
    const access = String(res.body.access_token);
    const account = await call(app, 'GET', '/v1/accounts/platform', { token: access });
    expect(account.body.external_user_id).toBe(app.ctx.world.accounts.get('alice-1')!.externalUserId);
    // A read/write grant: it may place orders.
    expect(app.ctx.world.tokens.get(access)!.scopes).toContain('write_invest_order');
    const refreshed = await token(app, { grant_type: 'refresh_token', ...CLIENT, refresh_token: String(res.body.refresh_token) });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toBe(res.body.refresh_token);
  });

  test.each([
    ['a wrong password', passwordForm('alice', 'nope'), 400, 'invalid_grant'],
    ['an unknown user', passwordForm('mallory', userPassword(7, 'alice')), 400, 'invalid_grant'],
    ["another user's password", passwordForm('bob', userPassword(7, 'alice')), 400, 'invalid_grant'],
    ['no password', { grant_type: 'password', ...CLIENT, username: 'alice' }, 400, 'invalid_request'],
    ['a wrong client secret', { ...passwordForm('alice', userPassword(7, 'alice')), client_secret: 'nope' }, 401, 'invalid_client'],
  ])('%s is refused with the OAuth error shape and issues nothing', async (_what, form, status, error) => {
    const app = makeApp({ allowPasswordGrant: true });
    const before = app.ctx.world.tokens.size;
    const res = await token(app, form);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(error);
    expect(typeof res.body.error_description).toBe('string');
    expect(app.ctx.world.tokens.size).toBe(before);
  });

  test('any password but the right one is refused', async () => {
    const app = makeApp({ allowPasswordGrant: true });
    const right = userPassword(7, 'bob');
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 40 }).filter((p) => p !== right),
        async (p) => {
          expect((await token(app, passwordForm('bob', p))).body.error).toBe('invalid_grant');
        },
      ),
      { numRuns: 60 },
    );
  });

  test('passwords come from the seed: each user its own, the same seed the same, another seed others; shown in /__mock/state beside the name', async () => {
    const app = makeApp();
    const users = (await call(app, 'GET', '/__mock/state')).body.users as { user: string; name: string; password: string }[];
    expect(users.find((u) => u.user === 'alice')).toMatchObject({ name: 'Alice Archer', password: userPassword(7, 'alice') });
    const passwords = users.map((u) => u.password);
    expect(new Set(passwords).size).toBe(passwords.length);
    for (const u of users) {
      expect(u.password).toMatch(/^[\w-]{16}$/);
      expect(userPassword(8, u.user)).not.toBe(u.password);
    }
  });
});
