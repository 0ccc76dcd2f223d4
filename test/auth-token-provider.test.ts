import { describe, expect, it } from 'vitest';
import type { Credentials, CredentialStore } from '../src/auth/credentials.js';
import { StoredTokenProvider } from '../src/auth/stored-token-provider.js';
import { TokenError, type TokenEndpoint, type TokenResponse } from '../src/auth/token-endpoint.js';
import { AuthError, EXIT } from '../src/errors.js';

const NOW = Date.parse('2026-03-01T00:00:00Z');
const HOUR = 3_600_000;

function memoryStore(initial: Credentials | null) {
  let value = initial;
  const saves: Credentials[] = [];
  const store: CredentialStore = {
    kind: 'file',
    location: 'memory',
    load: async () => value,
    save: async (_a, c) => {
      value = c;
      saves.push(c);
    },
    remove: async () => true,
    check: async () => undefined,
  };
  return {
    store,
    saves,
    get: () => value,
    set: (c: Credentials) => {
      value = c;
    },
  };
}

type Answer = TokenResponse | TokenError;
function fakeEndpoint(answers: { refresh?: Answer; key?: Answer }) {
  const calls: string[] = [];
  const answer = async (a: Answer | undefined, what: string) => {
    calls.push(what);
    if (!a) throw new Error(`unexpected ${what}`);
    if (a instanceof TokenError) throw a;
    return a;
  };
  const endpoint = {
    refresh: (_c: unknown, _t: string) => answer(answers.refresh, 'refresh'),
    exchangeKey: (_c: unknown, _k: string) => answer(answers.key, 'key'),
  } as unknown as TokenEndpoint;
  return { endpoint, calls };
}

const refused = (code: string, status = 400) => new TokenError(`refused ${code}`, EXIT.AUTH, status, code);
const tokens = (access: string, refresh: string): TokenResponse => ({
  access_token: access,
  refresh_token: refresh,
  token_type: 'bearer',
  expires_in: 3599,
});

function stored(over: Partial<Credentials> = {}): Credentials {
  return {
    clientId: 'c',
    clientSecret: 's',
    authKey: 'key',
    scopes: [],
    loggedInAt: NOW,
    accessToken: 'a1',
    accessExpiresAt: NOW + HOUR,
    refreshToken: 'r1',
    refreshExpiresAt: NOW + 10 * HOUR,
    ...over,
  };
}

function provider(mem: ReturnType<typeof memoryStore>, endpoint: TokenEndpoint, now = NOW) {
  return new StoredTokenProvider(
    {
      profile: 'default',
      account: 'default@h',
      locate: async () => (mem.get() ? { store: mem.store, credentials: mem.get()! } : null),
      endpoint,
      lock: (fn) => fn(),
      now: () => now,
    },
    36_000,
  );
}

describe('stored token provider', () => {
  it('uses a live access token without calling the token endpoint', async () => {
    const mem = memoryStore(stored());
    const { endpoint, calls } = fakeEndpoint({});
    expect(await provider(mem, endpoint).accessToken()).toBe('a1');
    expect(calls).toEqual([]);
  });

  it('renews an expired access token through the refresh grant, keeping the refresh token and its expiry', async () => {
    const mem = memoryStore(stored({ accessExpiresAt: NOW - 1 }));
    const { endpoint, calls } = fakeEndpoint({ refresh: tokens('a2', 'r1') });
    expect(await provider(mem, endpoint).accessToken()).toBe('a2');
    expect(calls).toEqual(['refresh']);
    expect(mem.get()).toMatchObject({
      accessToken: 'a2',
      accessExpiresAt: NOW + 3599_000,
      refreshToken: 'r1',
      refreshExpiresAt: NOW + 10 * HOUR,
    });
  });

  it('falls back to the stored key when the refresh token is past its time or refused', async () => {
    for (const over of [{ refreshExpiresAt: NOW - 1 }, {}]) {
      const mem = memoryStore(stored({ accessExpiresAt: NOW - 1, ...over }));
      const { endpoint, calls } = fakeEndpoint({ refresh: refused('invalid_grant'), key: tokens('a3', 'r3') });
      expect(await provider(mem, endpoint).accessToken()).toBe('a3');
      expect(calls.at(-1)).toBe('key');
      expect(mem.get()).toMatchObject({ refreshToken: 'r3', refreshExpiresAt: NOW + 36_000_000, authKey: 'key' });
    }
  });

  it('after the API refused a token it renews even though the token looked live', async () => {
    const mem = memoryStore(stored());
    const { endpoint, calls } = fakeEndpoint({ refresh: tokens('a2', 'r1') });
    const p = provider(mem, endpoint);
    expect(await p.accessToken()).toBe('a1');
    expect(await p.accessToken({ refresh: true })).toBe('a2');
    expect(calls).toEqual(['refresh']);
  });

  it('takes a token another process renewed meanwhile instead of renewing again', async () => {
    const mem = memoryStore(stored());
    const { endpoint, calls } = fakeEndpoint({});
    const p = provider(mem, endpoint);
    await p.accessToken();
    mem.set(stored({ accessToken: 'from-other-process' }));
    expect(await p.accessToken({ refresh: true })).toBe('from-other-process');
    expect(calls).toEqual([]);
  });

  it('a refused key or client is exit 3 "run mkt login"; nothing stored is exit 3 "not logged in"', async () => {
    for (const code of ['invalid_authkey', 'unauthorized', 'invalid_client']) {
      const mem = memoryStore(stored({ accessExpiresAt: NOW - 1, refreshExpiresAt: NOW - 1 }));
      const { endpoint } = fakeEndpoint({ key: refused(code, code === 'invalid_authkey' ? 400 : 401) });
      const err = await provider(mem, endpoint)
        .accessToken()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthError);
      expect((err as AuthError).exitCode).toBe(EXIT.AUTH);
      expect((err as AuthError).hint).toContain('mkt login');
      expect(mem.saves).toEqual([]);
    }
    const none = await provider(memoryStore(null), fakeEndpoint({}).endpoint)
      .accessToken()
      .catch((e: unknown) => e);
    expect((none as AuthError).message).toContain('not logged in');
  });

  it('a server fault during renewal is passed on as it is, not as a login problem', async () => {
    const mem = memoryStore(stored({ accessExpiresAt: NOW - 1 }));
    const { endpoint } = fakeEndpoint({ refresh: new TokenError('boom', EXIT.UNREACHABLE, 500, undefined) });
    const err = await provider(mem, endpoint)
      .accessToken()
      .catch((e: unknown) => e);
    expect((err as TokenError).exitCode).toBe(EXIT.UNREACHABLE);
  });
});
