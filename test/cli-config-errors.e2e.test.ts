/**
 * Configuration mistakes are usage errors: exit 2 with a message naming the flag, variable or config
 * key and the bad value; never exit 1 (a bug) nor exit 3 (not logged in). The built binary is spawned
 * as a user would run it; nothing here reaches beyond 127.0.0.1.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Io } from '../src/io.js';
import { main } from '../src/main.js';
import { runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';
import { captureIo } from './helpers/capture-io.js';

/** Writes `profiles` as the config file of a fresh home and returns the home. */
function homeWithConfig(profiles: Record<string, Record<string, string>>): string {
  const home = tempHome();
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'config.json'), JSON.stringify({ profiles }));
  return home;
}

// A server that would start by mistake must not keep the test waiting: small world, short kill timer.
const SERVE = ['mock', 'serve', '--listings', '5'];

interface Case {
  name: string;
  args: string[];
  env?: Record<string, string>;
  home?: () => string;
  /** What stderr must say: the flag, variable or key, and the value. */
  says: RegExp[];
}

const CASES: Case[] = [
  { name: '--port above 65535', args: [...SERVE, '--port', '99999'], says: [/--port/, /'99999'/] },
  { name: '--port not a number', args: [...SERVE, '--port', 'abc'], says: [/--port/, /'abc'/] },
  { name: '--port negative', args: [...SERVE, '--port', '-1'], says: [/--port/, /'-1'/] },
  {
    name: '--auto-approve an unknown user (the seeded ones are named)',
    args: [...SERVE, '--port', '0', '--auto-approve', 'mallory'],
    says: [/--auto-approve/, /'mallory'/, /alice, bob/],
  },
  { name: '--client without a redirect', args: [...SERVE, '--port', '0', '--client', 'x:y'], says: [/--client/, /'x:y'/] },
  {
    name: '--client with a redirect that is no URL',
    args: [...SERVE, '--port', '0', '--client', 'id:secret:nowhere'],
    says: [/--client/, /'nowhere'/],
  },
  { name: '--listings negative', args: ['mock', 'serve', '--port', '0', '--listings', '-3'], says: [/--listings/, /'-3'/] },
  { name: '--listings a fraction', args: ['mock', 'serve', '--port', '0', '--listings', '1.5'], says: [/--listings/, /'1\.5'/] },
  { name: '--seed not a number', args: [...SERVE, '--port', '0', '--seed', 'x'], says: [/--seed/, /'x'/] },
  { name: '--seed negative', args: [...SERVE, '--port', '0', '--seed', '-7'], says: [/--seed/, /'-7'/] },
  { name: '--start not an ISO time', args: [...SERVE, '--port', '0', '--start', 'yesterday'], says: [/--start/, /'yesterday'/] },
  // 192.0.2.1 is TEST-NET-1: never a local address, so binding fails with EADDRNOTAVAIL and sends nothing.
  {
    name: '--host that is not a local address',
    args: [...SERVE, '--port', '0', '--host', '192.0.2.1'],
    says: [/--host/, /'192\.0\.2\.1'/],
  },
  { name: 'MKT_PROFILE with a slash', args: ['account'], env: { MKT_PROFILE: '../x' }, says: [/MKT_PROFILE/, /'\.\.\/x'/] },
  { name: '--profile with a space', args: ['--profile', 'a b', 'account'], says: [/--profile/, /'a b'/] },
  { name: 'MKT_BASE_URL not a URL', args: ['account'], env: { MKT_BASE_URL: 'not-a-url' }, says: [/MKT_BASE_URL/, /'not-a-url'/] },
  {
    name: 'MKT_BASE_URL not a URL, with a token',
    args: ['account'],
    env: { MKT_BASE_URL: 'not-a-url', MKT_ACCESS_TOKEN: 'x' },
    says: [/MKT_BASE_URL/, /'not-a-url'/],
  },
  {
    name: 'MKT_BASE_URL with an unclosed IPv6 bracket',
    args: ['account'],
    env: { MKT_BASE_URL: 'http://[::1' },
    says: [/MKT_BASE_URL/, /'http:\/\/\[::1'/],
  },
  {
    name: 'MKT_BASE_URL with a port out of range',
    args: ['account'],
    env: { MKT_BASE_URL: 'http://127.0.0.1:99999/v1', MKT_ACCESS_TOKEN: 'x' },
    says: [/MKT_BASE_URL/, /port 99999/],
  },
  { name: 'MKT_ROOT_URL not a URL', args: ['account'], env: { MKT_ROOT_URL: 'nope' }, says: [/MKT_ROOT_URL/, /'nope'/] },
  {
    name: 'MKT_ROOT_URL not a URL, moving the mock clock',
    args: ['mock', 'clock', 'advance', '1h'],
    env: { MKT_ROOT_URL: 'nope' },
    says: [/MKT_ROOT_URL/, /'nope'/],
  },
  {
    name: 'MKT_ROOT_URL not http',
    args: ['mock', 'clock', 'advance', '1h'],
    env: { MKT_ROOT_URL: 'ftp://127.0.0.1' },
    says: [/MKT_ROOT_URL/, /'ftp:\/\/127\.0\.0\.1'/],
  },
  { name: 'MKT_AUTH_URL not a URL', args: ['account'], env: { MKT_AUTH_URL: 'nope' }, says: [/MKT_AUTH_URL/, /'nope'/] },
  { name: 'MKT_CLIENT_ID empty but for spaces', args: ['account'], env: { MKT_CLIENT_ID: '  ' }, says: [/MKT_CLIENT_ID/] },
  { name: 'MKT_REDIRECT_URI not a URL', args: ['login'], env: { MKT_REDIRECT_URI: 'nope' }, says: [/MKT_REDIRECT_URI/, /'nope'/] },
  { name: 'MKT_TIMEZONE unknown', args: ['account'], env: { MKT_TIMEZONE: 'Mars/Base' }, says: [/MKT_TIMEZONE/, /'Mars\/Base'/] },
  { name: '--timezone unknown', args: ['--timezone', 'Mars/Base', 'account'], says: [/--timezone/, /'Mars\/Base'/] },
  { name: 'MKT_OUTPUT unknown', args: ['account'], env: { MKT_OUTPUT: 'xml' }, says: [/MKT_OUTPUT/, /'xml'/] },
  { name: '-o unknown', args: ['-o', 'xml', 'account'], says: [/--output/, /'xml'/] },
  {
    name: 'MKT_KEYCHAIN_TIMEOUT not a number',
    args: ['account'],
    env: { MKT_KEYCHAIN_TIMEOUT: 'abc' },
    says: [/MKT_KEYCHAIN_TIMEOUT/, /'abc'/],
  },
  {
    name: 'MKT_KEYCHAIN_TIMEOUT past what a timer can hold',
    args: ['account'],
    env: { MKT_KEYCHAIN_TIMEOUT: '99999999' },
    says: [/MKT_KEYCHAIN_TIMEOUT/, /'99999999'/],
  },
  { name: 'MKT_KEYCHAIN_TIMEOUT negative', args: ['account'], env: { MKT_KEYCHAIN_TIMEOUT: '-5' }, says: [/MKT_KEYCHAIN_TIMEOUT/, /'-5'/] },
  {
    name: 'base_url of the default profile in the config file',
    args: ['account'],
    home: () => homeWithConfig({ default: { base_url: 'not-a-url' } }),
    says: [/base_url/, /profile 'default'/, /'not-a-url'/],
  },
  {
    name: 'auth_url of a named profile in the config file',
    args: ['--profile', 'work', 'account'],
    home: () => homeWithConfig({ work: { auth_url: 'http://[::1' } }),
    says: [/auth_url/, /profile 'work'/, /'http:\/\/\[::1'/],
  },
  {
    name: 'timezone of a profile in the config file',
    args: ['account'],
    home: () => homeWithConfig({ default: { timezone: 'Mars/Base' } }),
    says: [/timezone/, /profile 'default'/, /'Mars\/Base'/],
  },
  { name: 'config set base_url not a URL', args: ['config', 'set', 'base_url', 'not-a-url'], says: [/base_url/, /'not-a-url'/] },
  {
    name: 'config set base_url with a port out of range',
    args: ['config', 'set', 'base_url', 'http://127.0.0.1:99999'],
    says: [/base_url/, /99999/],
  },
];

describe('a configuration mistake is exit 2 naming what and where, with nothing sent and nothing written', () => {
  test.concurrent.each(CASES)('$name', async ({ args, env, home, says }) => {
    const h = home?.() ?? tempHome();
    const before = existsSync(join(h, 'config', 'config.json')) ? readFileSync(join(h, 'config', 'config.json'), 'utf8') : null;
    const r = await runMkt(args, { env: env ?? {}, home: h, timeoutMs: 15_000 });
    // The CLI's own words for a bug (src/main.ts), not the word: a temporary folder's random name held 'BUg' once.
    expect(r.stderr).not.toMatch(/internal error|this is a bug in mkt|not logged in/i);
    for (const re of says) expect(r.stderr).toMatch(re);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const after = existsSync(join(h, 'config', 'config.json')) ? readFileSync(join(h, 'config', 'config.json'), 'utf8') : null;
    expect(after).toBe(before);
  });
});

describe('mock serve on a port that is taken', () => {
  let mock: TestMock;
  beforeAll(async () => {
    mock = await startMock({ listings: 5 });
  });
  afterAll(async () => {
    await mock.close();
  });

  test('is exit 2: port N is in use; pick another with --port', async () => {
    const port = new URL(mock.origin).port;
    const r = await runMkt([...SERVE, '--port', port], { timeoutMs: 15_000 });
    expect(r.stderr).toContain(`port ${port} is in use; pick another with --port`);
    expect(r.code).toBe(2);
  });
});

test('a bad base_url kept in the config file can still be fixed with config set', async () => {
  const home = homeWithConfig({ default: { base_url: 'not-a-url' } });
  const r = await runMkt(['config', 'set', 'base_url', 'http://127.0.0.1:4010/v1'], { home });
  // Only what was set: no complaint about the bad value it replaces.
  expect(r.stderr).toBe(`mkt: set base_url = http://127.0.0.1:4010/v1 (profile default, ${join(home, 'config', 'config.json')})\n`);
  expect(r.code).toBe(0);
  const config = JSON.parse(readFileSync(join(home, 'config', 'config.json'), 'utf8')) as {
    profiles: Record<string, Record<string, string>>;
  };
  expect(config.profiles.default?.base_url).toBe('http://127.0.0.1:4010/v1');
});

/** An Io whose environment throws on every read: an internal failure no user input can explain. */
function brokenIo(): { io: Io; err: () => string } {
  const env = new Proxy(
    {},
    {
      get: () => {
        throw new TypeError('env exploded');
      },
    },
  );
  const { io, err } = captureIo(env);
  return { io, err };
}

describe('a real bug', () => {
  test('is exit 1 with one line that asks for a report, and no stack', async () => {
    const run = brokenIo();
    expect(await main(['config', 'list'], run.io)).toBe(1);
    const lines = run.err().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^mkt: .*env exploded/);
    expect(lines[0]).toMatch(/bug/);
    expect(lines[0]).toMatch(/report/);
    expect(lines[0]).toMatch(/--verbose/);
  });

  test('shows the stack under --verbose', async () => {
    const run = brokenIo();
    expect(await main(['--verbose', 'config', 'list'], run.io)).toBe(1);
    expect(run.err()).toMatch(/report/);
    expect(run.err()).toMatch(/TypeError: env exploded\n\s+at /);
  });
});
