/**
 * `mkt mock serve`'s secrets off the command line (`ps` shows a flag to every user): the admin token
 * and the webhook secret from a 0600 file (`--admin-token-file`, `--webhook-secret-file`; a file
 * others may read is exit 2 naming its mode and the chmod) or the environment (`MKT_MOCK_ADMIN_TOKEN`,
 * `MKT_MOCK_WEBHOOK_SECRET`); and `--allow-host` on serve and proxy.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serveOptions, type ServeOptions } from '../src/commands/mock.js';
import { readSecret } from '../src/commands/secret-options.js';
import { runMkt } from './helpers/cli.js';
import { rawRequest } from './helpers/raw-http.js';
import { serveMock, type ServedMock } from './helpers/serve.js';

const dir = mkdtempSync(join(tmpdir(), 'mkt-secrets-'));
/** A file holding `text` with `mode`. */
function secretFile(name: string, text: string, mode: number): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

const served: ServedMock[] = [];
afterEach(async () => {
  for (const m of served.splice(0)) {
    m.child.kill('SIGTERM');
    await m.exited;
  }
});

/** The serve flags as commander gives them, with the defaults. */
const flags = (over: Partial<ServeOptions>): ServeOptions =>
  ({
    port: '4010',
    host: '127.0.0.1',
    seed: '1',
    listings: '10',
    history: 'seeded',
    releases: '12:00,18:00',
    admin: true,
    requestLogSize: '100',
    rateLimit: 'on',
    ...over,
  }) as ServeOptions;

describe('a secret from the flag, a 0600 file or the environment', () => {
  const sources = (over: Partial<Parameters<typeof readSecret>[0]>) =>
    readSecret({
      flag: '--admin-token',
      value: undefined,
      fileFlag: '--admin-token-file',
      file: undefined,
      envName: 'MKT_MOCK_ADMIN_TOKEN',
      env: {},
      ...over,
    });

  it('reads the flag, else the file (one line, its final line break dropped), else the environment', () => {
    expect(sources({ value: 'from-flag', env: { MKT_MOCK_ADMIN_TOKEN: 'from-env' } })).toEqual({ value: 'from-flag', from: 'flag' });
    expect(sources({ file: secretFile('ok', 'from-file\n', 0o600), env: { MKT_MOCK_ADMIN_TOKEN: 'from-env' } })).toEqual({
      value: 'from-file',
      from: 'file',
    });
    expect(sources({ file: secretFile('crlf', 'from-file\r\n', 0o400) })).toEqual({ value: 'from-file', from: 'file' });
    expect(sources({ env: { MKT_MOCK_ADMIN_TOKEN: 'from-env' } })).toEqual({ value: 'from-env', from: 'env' });
    expect(sources({ env: { MKT_MOCK_ADMIN_TOKEN: '' } })).toBeUndefined();
    expect(sources({})).toBeUndefined();
  });

  it('refuses a file others may read or write, naming its mode and the chmod that fixes it', () => {
    for (const [mode, who] of [
      [0o644, 'group and others'],
      [0o640, 'its group'],
      [0o604, 'others'],
      [0o660, 'its group'],
      [0o606, 'others'],
    ] as const) {
      const path = secretFile(`open-${mode.toString(8)}`, 'token', mode);
      expect(() => sources({ file: path }), mode.toString(8)).toThrow(
        `--admin-token-file ${path} is open to ${who} (mode 0${mode.toString(8)}); a secret file must be readable by its owner only`,
      );
      try {
        sources({ file: path });
      } catch (err) {
        expect((err as { hint?: string }).hint).toBe(`run chmod 600 ${path}`);
      }
    }
  });

  it('refuses a missing file, a folder, an empty file, more than one line, and the flag and the file together', () => {
    mkdirSync(join(dir, 'folder'), { recursive: true });
    chmodSync(join(dir, 'folder'), 0o700);
    expect(() => sources({ file: join(dir, 'nope') })).toThrow(/does not exist/);
    expect(() => sources({ file: join(dir, 'folder') })).toThrow(/is not a regular file/);
    expect(() => sources({ file: secretFile('empty', '\n', 0o600) })).toThrow(/is empty/);
    expect(() => sources({ file: secretFile('two', 'a\nb\n', 0o600) })).toThrow(/more than one line/);
    expect(() => sources({ file: secretFile('big', 'x'.repeat(5000), 0o600) })).toThrow(/at most 4096 bytes/);
    expect(() => sources({ value: 'x', file: secretFile('both', 'y', 0o600) })).toThrow(
      '--admin-token and --admin-token-file both give the secret; give one',
    );
  });

  it('serve reads both secrets so, and a webhook secret left in the environment without --webhook is no error', () => {
    const token = secretFile('token', 'T0ken-from-file\n', 0o600);
    const hook = secretFile('hook', 'hook-secret-from-file-0123456789\n', 0o600);
    const read = serveOptions(flags({ adminTokenFile: token, webhook: ['http://127.0.0.1:9/h'], webhookSecretFile: hook }));
    expect(read.server.adminToken).toBe('T0ken-from-file');
    expect(read.options.webhooks?.secret).toBe('hook-secret-from-file-0123456789');
    const env = serveOptions(flags({ webhook: ['http://127.0.0.1:9/h'] }), {
      MKT_MOCK_ADMIN_TOKEN: 'T0ken-from-env',
      MKT_MOCK_WEBHOOK_SECRET: 'hook-secret-from-env-0123456789',
    });
    expect(env.server.adminToken).toBe('T0ken-from-env');
    expect(env.options.webhooks?.secret).toBe('hook-secret-from-env-0123456789');
    expect(serveOptions(flags({}), { MKT_MOCK_WEBHOOK_SECRET: 'hook-secret-from-env-0123456789' }).options.webhooks).toBeUndefined();
    expect(() => serveOptions(flags({ webhookSecretFile: hook }))).toThrow('--webhook-secret-file needs --webhook');
  });
});

describe('mkt mock serve', () => {
  it('refuses an admin token file others may read: exit 2 naming the file, its mode and the chmod', async () => {
    const path = secretFile('serve-open', 'T0ken\n', 0o644);
    const run = await runMkt(['mock', 'serve', '--port', '0', '--admin-token-file', path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--admin-token-file ${path} is open to group and others (mode 0644)`);
    expect(run.stderr).toContain(`chmod 600 ${path}`);
    const hook = secretFile('serve-hook-open', 'hook-secret-from-file-0123456789\n', 0o640);
    const hooked = await runMkt(['mock', 'serve', '--port', '0', '--webhook', 'http://127.0.0.1:9/h', '--webhook-secret-file', hook]);
    expect(hooked.code).toBe(2);
    expect(hooked.stderr).toContain(`--webhook-secret-file ${hook} is open to its group (mode 0640)`);
  });

  it('bound off loopback, guards its admin routes with the token from a 0600 file, or from MKT_MOCK_ADMIN_TOKEN, and never prints it', async () => {
    const path = secretFile('serve-token', 'T0ken-from-file\n', 0o600);
    for (const [args, env, token] of [
      [['--admin-token-file', path], {}, 'T0ken-from-file'],
      [[], { MKT_MOCK_ADMIN_TOKEN: 'T0ken-from-env' }, 'T0ken-from-env'],
    ] as const) {
      const mock = await serveMock(['--host', '0.0.0.0', '--listings', '5', ...args], 15_000, env);
      served.push(mock);
      const port = Number(new URL(mock.origin).port);
      expect((await rawRequest(port, { target: '/__mock/state' })).status).toBe(404);
      expect((await rawRequest(port, { target: '/__mock/state', headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      expect(mock.stdout()).not.toContain(token);
      expect(mock.stdout()).not.toMatch(/admin token/);
    }
  });

  it("--allow-host serves a proxy's name; a value with a scheme or port is exit 2", async () => {
    const mock = await serveMock(['--listings', '5', '--allow-host', 'Mock.Example.COM']);
    served.push(mock);
    const port = Number(new URL(mock.origin).port);
    expect((await rawRequest(port, { target: '/openapi.json', headers: { host: 'mock.example.com' } })).status).toBe(200);
    expect((await rawRequest(port, { target: '/openapi.json', headers: { host: 'other.example.com' } })).status).toBe(421);
    const bad = await runMkt(['mock', 'serve', '--port', '0', '--allow-host', 'https://mock.example.com:443']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--allow-host must be a host name or address alone');
    const proxy = await runMkt(['mock', 'proxy', '--upstream', 'http://127.0.0.1:9', '--port', '0', '--allow-host', 'x:1']);
    expect(proxy.code).toBe(2);
    expect(proxy.stderr).toContain('--allow-host must be a host name or address alone');
  });
});
