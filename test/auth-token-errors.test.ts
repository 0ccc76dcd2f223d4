import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../src/api/http.js';
import { TokenEndpoint, TokenError } from '../src/auth/token-endpoint.js';
import { EXIT } from '../src/errors.js';
import { grantKey } from './helpers/auth-mock.js';
import { startLoginMock, type LoginMock } from './helpers/auth-login.js';

let mock: LoginMock;
let http: HttpClient;
let endpoint: TokenEndpoint;
beforeAll(async () => {
  mock = await startLoginMock();
  http = new HttpClient({ maxRetries: 0 });
  endpoint = new TokenEndpoint(http, `${mock.origin}/v1`);
});
afterAll(async () => {
  await http?.close();
  await mock?.close();
});

async function refusal(p: Promise<unknown>): Promise<TokenError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TokenError);
  return err as TokenError;
}

describe('token endpoint errors as the CLI renders them', () => {
  const demo = () => ({ clientId: 'mkt-demo', clientSecret: 'mkt-demo-secret' });

  it.each([
    ['invalid_request', 400, EXIT.USAGE, { client_id: 'mkt-demo', client_secret: 'mkt-demo-secret' }],
    [
      'unsupported_grant_type',
      400,
      EXIT.USAGE,
      { grant_type: 'client_credentials', client_id: 'mkt-demo', client_secret: 'mkt-demo-secret' },
    ],
    ['invalid_client', 401, EXIT.AUTH, { grant_type: 'authorization_key', client_id: 'mkt-demo', client_secret: 'nope', auth_key: 'k' }],
    [
      'invalid_authkey',
      400,
      EXIT.AUTH,
      { grant_type: 'authorization_key', client_id: 'mkt-demo', client_secret: 'mkt-demo-secret', auth_key: 'nope' },
    ],
    [
      'invalid_grant',
      400,
      EXIT.AUTH,
      { grant_type: 'refresh_token', client_id: 'mkt-demo', client_secret: 'mkt-demo-secret', refresh_token: 'nope' },
    ],
  ])('%s: HTTP %i, exit %i, with the code in the message', async (code, status, exit, form) => {
    const err = await refusal(endpoint.grant(form as Record<string, string>));
    expect([err.code, err.status, err.exitCode]).toEqual([code, status, exit]);
    expect(err.message).toContain(code);
  });

  it('unauthorized: a key of another client is refused with 401 and exit 3', async () => {
    const err = await refusal(endpoint.exchangeKey({ clientId: mock.clientId, clientSecret: mock.secret }, grantKey(mock.app)));
    expect([err.code, err.status, err.exitCode]).toEqual(['unauthorized', 401, EXIT.AUTH]);
    expect(err.hint).toContain('mkt login');
  });

  it('a valid key yields tokens through the same client', async () => {
    const t = await endpoint.exchangeKey(demo(), grantKey(mock.app));
    expect(t.expires_in).toBe(3599);
    const r = await endpoint.refresh(demo(), t.refresh_token);
    expect(r.refresh_token).toBe(t.refresh_token);
  });
});
