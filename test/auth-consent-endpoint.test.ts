import { describe, expect, it } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { DEMO_CLIENT } from '../mock-server/seed/seed.js';
import { READ_ONLY_SCOPES, READ_WRITE_SCOPES } from '../src/contract/enums.js';
import { ORIGIN, exchangeKey, smallApp } from './helpers/auth-mock.js';

function authorizeUrl(params: Record<string, string>): string {
  return `${ORIGIN}/oauth?${new URLSearchParams(params).toString()}`;
}

const demoRequest = { client_id: DEMO_CLIENT.clientId, response_type: 'auth_key', state: 'st-123' };

async function submit(app: MockApp, fields: Record<string, string>, cookie?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (cookie) headers.cookie = cookie;
  return app.handle(
    new Request(`${ORIGIN}/oauth`, { method: 'POST', headers, body: new URLSearchParams(fields).toString(), redirect: 'manual' }),
  );
}

function location(response: Response): URL {
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

describe('GET/POST {auth_url}/oauth', () => {
  it('serves an HTML consent form listing the seeded investor accounts', async () => {
    const response = await smallApp().handle(new Request(authorizeUrl(demoRequest)));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('<form method="post" action="/oauth">');
    for (const account of ['alice-1', 'alice-2', 'bob-1', 'carol-1', 'dave-1', 'erin-1']) expect(html).toContain(`value="${account}"`);
    expect(html).toContain('value="st-123"');
    expect(html).not.toContain('<script');
  });

  it('answers an HTML 401 unauthorized page for an unknown or missing client_id, never a redirect', async () => {
    const app = smallApp();
    for (const params of [
      { ...demoRequest, client_id: 'evil' },
      { response_type: 'auth_key', state: 's' },
    ]) {
      const response = await app.handle(new Request(authorizeUrl(params)));
      expect(response.status).toBe(401);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('unauthorized');
    }
  });

  it('answers an HTML 400 invalid_request page for a missing or wrong response_type', async () => {
    const app = smallApp();
    for (const params of [
      { client_id: DEMO_CLIENT.clientId, state: 's' },
      { ...demoRequest, response_type: 'code' },
    ]) {
      const response = await app.handle(new Request(authorizeUrl(params)));
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('invalid_request');
    }
  });

  it('Allow redirects to the registered URL with auth_key, state and the read/write scopes; the key works', async () => {
    const app = smallApp();
    const url = location(await submit(app, { ...demoRequest, account: 'alice-2', access: 'read_write', decision: 'allow' }));
    expect(`${url.origin}${url.pathname}`).toBe(DEMO_CLIENT.redirectUri);
    expect(url.searchParams.get('state')).toBe('st-123');
    expect(url.searchParams.get('scope')).toBe(READ_WRITE_SCOPES.join(' '));
    const key = url.searchParams.get('auth_key')!;
    expect((await exchangeKey(app, key)).status).toBe(200);
    expect(app.ctx.world.grants.find((g) => g.authKey === key)?.accountId).toBe('alice-2');
  });

  it('a read-only choice returns the read-only scope list', async () => {
    const url = location(await submit(smallApp(), { ...demoRequest, account: 'bob-1', access: 'read_only', decision: 'allow' }));
    expect(url.searchParams.get('scope')!.split(' ')).toEqual([...READ_ONLY_SCOPES]);
  });

  it('Cancel redirects with error_code=userCancellation and state only', async () => {
    const url = location(await submit(smallApp(), { ...demoRequest, account: 'alice-1', decision: 'cancel' }));
    expect([...url.searchParams.keys()].sort()).toEqual(['error_code', 'state']);
    expect(url.searchParams.get('error_code')).toBe('userCancellation');
  });

  it('an unknown account in the form is a 400 page, not a grant', async () => {
    const app = smallApp();
    const response = await submit(app, { ...demoRequest, account: 'mallory-1', decision: 'allow' });
    expect(response.status).toBe(400);
    expect(app.ctx.world.grants).toHaveLength(0);
  });

  it('a session cookie the mock never set (a bad percent-escape) shows the consent page, never a 500', async () => {
    const app = smallApp();
    const response = await app.handle(
      new Request(authorizeUrl(demoRequest), { headers: { cookie: 'mkt_mock_account=%zz' }, redirect: 'manual' }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
  });

  it('a valid existing grant skips the screen and a repeat request makes a new key that replaces the old one', async () => {
    const app = smallApp();
    const allowed = await submit(app, { ...demoRequest, account: 'alice-1', access: 'read_only', decision: 'allow' });
    const cookie = allowed.headers.get('set-cookie')!.split(';')[0]!;
    const first = location(allowed).searchParams.get('auth_key')!;
    const again = await app.handle(
      new Request(authorizeUrl({ ...demoRequest, state: 'st-2' }), { headers: { cookie }, redirect: 'manual' }),
    );
    const url = location(again);
    const second = url.searchParams.get('auth_key')!;
    expect(second).not.toBe(first);
    expect(url.searchParams.get('state')).toBe('st-2');
    expect(url.searchParams.get('scope')!.split(' ')).toEqual([...READ_ONLY_SCOPES]);
    expect((await exchangeKey(app, first)).body.error).toBe('invalid_authkey');
    expect((await exchangeKey(app, second)).status).toBe(200);
  });

  it("--auto-approve USER grants read/write for that user's first account at once", async () => {
    const app = smallApp({ autoApprove: ['alice'] });
    const url = location(await app.handle(new Request(authorizeUrl(demoRequest), { redirect: 'manual' })));
    const key = url.searchParams.get('auth_key')!;
    expect(url.searchParams.get('scope')).toBe(READ_WRITE_SCOPES.join(' '));
    expect(app.ctx.world.grants.find((g) => g.authKey === key)?.accountId).toBe('alice-1');
  });

  it('--auto-approve with an unknown user fails at start-up', () => {
    expect(() => smallApp({ autoApprove: ['mallory'] })).toThrow(/mallory/);
  });
});
