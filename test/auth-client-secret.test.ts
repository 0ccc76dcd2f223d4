import { describe, expect, it } from 'vitest';
import { resolveClientSecret } from '../src/auth/client-secret.js';
import { spawnLogin, startLoginMock } from './helpers/auth-login.js';
import { tempHome } from './helpers/cli.js';

const base = { env: {}, clientId: 'partner-app', baseUrl: 'https://api.example.com/v1', interactive: false };

describe('where mkt login gets the client secret', () => {
  it('flag, then MKT_CLIENT_SECRET, then the stored secret', async () => {
    expect(await resolveClientSecret({ ...base, flag: 'f', env: { MKT_CLIENT_SECRET: 'e' }, stored: 's' })).toEqual({
      secret: 'f',
      source: '--client-secret',
    });
    expect(await resolveClientSecret({ ...base, env: { MKT_CLIENT_SECRET: 'e' }, stored: 's' })).toEqual({
      secret: 'e',
      source: 'MKT_CLIENT_SECRET',
    });
    expect((await resolveClientSecret({ ...base, stored: 's' })).source).toBe('stored credentials');
  });

  it('the demo client defaults its published secret only on a loopback marketplace', async () => {
    expect((await resolveClientSecret({ ...base, clientId: 'mkt-demo', baseUrl: 'http://127.0.0.1:4010/v1' })).secret).toBe(
      'mkt-demo-secret',
    );
    await expect(resolveClientSecret({ ...base, clientId: 'mkt-demo' })).rejects.toThrow(/no client secret/);
  });

  it('asks on a terminal, and without one fails naming the flag', async () => {
    expect((await resolveClientSecret({ ...base, interactive: true, prompt: async () => ' typed ' })).secret).toBe('typed');
    const err = await resolveClientSecret(base).catch((e: { exitCode: number; hint: string }) => e);
    expect(err).toMatchObject({ exitCode: 2 });
    expect((err as { hint: string }).hint).toContain('--client-secret');
  });

  it('a spawned login without a secret for a non-demo client ends with exit 2 before printing a URL', async () => {
    const mock = await startLoginMock();
    try {
      const r = await spawnLogin(tempHome(), mock.loginEnv).done;
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('MKT_CLIENT_SECRET');
      expect(r.stderr).not.toContain('/oauth?');
    } finally {
      await mock.close();
    }
  });
});
