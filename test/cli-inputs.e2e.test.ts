/**
 * Inputs taken apart before anything is sent (issue 22, items 4 and 5): listing ids beyond what the
 * API takes, a password in a base URL, a malformed token, state and config that are not what they
 * should be. Every run is bounded by a timeout, so a hang fails instead of stalling the suite.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 20 });
});
afterAll(async () => {
  await mock.close();
});

/** A bids file in a fresh home. */
function bidsFile(home: string, text: string): string {
  const file = join(home, 'bids.csv');
  writeFileSync(file, text);
  return file;
}

describe('listing ids beyond what the API takes are refused locally (exit 2, the line named)', () => {
  it('2^53 + 1 and a 400-digit id: nothing reaches the marketplace', async () => {
    const home = tempHome();
    const file = bidsFile(home, `listing_id,bid_amount\n9007199254740993,25\n${'7'.repeat(400)},25\n`);
    const before = mock.app.requestLog.list(1000).total;
    const r = await runMkt(['order', 'submit', file, '--yes'], { env: mock.env, home, timeoutMs: 15_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file} line 2: listing id '9007199254740993' is larger than 9007199254740991`);
    expect(r.stderr).toContain(`${file} line 3: listing id '77777777777777777777…(400 characters)' is larger than`);
    expect(mock.app.requestLog.list(1000).total).toBe(before);
  });

  it('the same ids from standard input', async () => {
    const r = await runMkt(['order', 'submit', '-', '--yes', '--amount', '25'], {
      env: mock.env,
      input: 'listing_number\n9007199254740993\n',
      timeoutMs: 15_000,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("stdin line 2: listing id '9007199254740993' is larger than");
  });
});

describe('a password in a base URL is never printed', () => {
  const secretEnv = () => ({ ...mock.env, MKT_ROOT_URL: mock.origin.replace('http://', 'http://user:S3CRET-pw@') });

  it('not in the --verbose trace, and the call still works', async () => {
    const r = await runMkt(['listings', 'search', '--limit', '1', '--verbose', '-o', 'json'], { env: secretEnv(), timeoutMs: 15_000 });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/> GET http:\/\/\*\*\*@127\.0\.0\.1:\d+\/listingsvc/);
    expect(r.stderr + r.stdout).not.toContain('S3CRET');
  });

  it('not in an error message, nor in what config get and config list show', async () => {
    const bad = await runMkt(['account'], {
      env: { ...secretEnv(), MKT_BASE_URL: 'http://user:S3CRET-pw@127.0.0.1:99999/v1' },
      timeoutMs: 15_000,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("got 'http://***@127.0.0.1:99999/v1'");
    const home = tempHome();
    const set = await runMkt(['config', 'set', 'auth_url', 'http://a%40b:p@ss@127.0.0.1:9'], { home, timeoutMs: 15_000 });
    expect(set.code).toBe(0);
    const list = await runMkt(['config', 'list', '-o', 'json'], { env: secretEnv(), home, timeoutMs: 15_000 });
    const get = await runMkt(['config', 'get', 'root_url'], { env: secretEnv(), home, timeoutMs: 15_000 });
    expect(get.stdout).toBe(`${mock.origin.replace('http://', 'http://***@')}\n`);
    expect(list.stdout).toContain('"http://***@127.0.0.1:9"');
    const status = await runMkt(['auth', 'status', '-o', 'json'], { env: secretEnv(), home, timeoutMs: 15_000 });
    expect(JSON.parse(status.stdout)).toMatchObject({ base_url: `${mock.origin.replace('http://', 'http://***@')}/v1` });
    for (const out of [list.stdout, list.stderr, get.stdout, get.stderr, status.stdout, status.stderr]) {
      expect(out).not.toContain('S3CRET');
      expect(out).not.toMatch(/p@ss|ss@/);
    }
  });
});

describe('a password in a base URL is never written to the order journal', () => {
  it('an order placed through http://user:SECRET@… leaves no password in any file of the state directory', async () => {
    const home = tempHome();
    const state = join(home, 'state');
    const env = { ...mock.env, MKT_BASE_URL: `${mock.origin.replace('http://', 'http://user:S3CRET-pw@')}/v1`, MKT_STATE_DIR: state };
    const r = await runMkt(['order', 'submit', bidsFile(home, 'listing_id,bid_amount\n10000002,25\n'), '--yes'], {
      env,
      home,
      timeoutMs: 15_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const files = execFileSync('find', [state, '-type', 'f'], { encoding: 'utf8' }).trim().split('\n');
    expect(files.some((f) => f.endsWith('journal.jsonl'))).toBe(true);
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toContain('S3CRET');
    const journal = await runMkt(['order', 'journal', '-o', 'json'], { env, home, timeoutMs: 15_000 });
    expect(journal.code, journal.stderr).toBe(0);
    expect(journal.stdout + journal.stderr).not.toContain('S3CRET');
  });
});

describe('a token with a line break or control byte is named as malformed (exit 3), not as an unreachable marketplace', () => {
  it('MKT_ACCESS_TOKEN with a newline, a CR or a NUL-like control byte', async () => {
    for (const [token, what] of [
      ['abc\ndef', 'a line break at character 4'],
      ['abc\r', 'a line break at character 4'],
      ['ab\u0001c', 'a control byte (0x01) at character 3'],
    ] as const) {
      const r = await runMkt(['account'], { env: { MKT_ROOT_URL: mock.origin, MKT_ACCESS_TOKEN: token }, timeoutMs: 15_000 });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`mkt: MKT_ACCESS_TOKEN is malformed: it holds ${what}`);
      expect(r.stderr).not.toMatch(/cannot reach/);
    }
  });

  it('a stored access token with a newline', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'config'), { recursive: true });
    const account = `default@${new URL(mock.origin).host}`;
    const record = {
      clientId: 'mkt-demo',
      clientSecret: 's',
      authKey: 'k',
      scopes: [],
      loggedInAt: 1,
      accessToken: 'tok\nen',
      accessExpiresAt: Date.now() + 3_600_000,
    };
    writeFileSync(join(home, 'config', 'credentials.json'), JSON.stringify({ version: 1, credentials: { [account]: record } }), {
      mode: 0o600,
    });
    const r = await runMkt(['account'], { env: { MKT_ROOT_URL: mock.origin }, home, timeoutMs: 15_000 });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`mkt: the access token of ${account} is malformed: it holds a line break at character 4`);
  });
});

describe('a state directory that is not one is exit 2 with its path, and nothing under it can hang mkt', () => {
  const submit = (home: string, stateDir: string) =>
    runMkt(['order', 'submit', bidsFile(home, 'listing_id,bid_amount\n10000001,25\n'), '--yes'], {
      env: { ...mock.env, MKT_STATE_DIR: stateDir },
      home,
      timeoutMs: 15_000,
    });

  it('a regular file, /dev/null', async () => {
    const home = tempHome();
    const file = join(home, 'state-file');
    writeFileSync(file, 'not a directory');
    for (const [dir, kind] of [
      [file, 'a regular file'],
      ['/dev/null', 'a character device'],
    ] as const) {
      const before = mock.app.ctx.world.orders.size;
      const r = await submit(home, dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`mkt: the state directory ${dir} is ${kind}, not a directory`);
      expect(mock.app.ctx.world.orders.size).toBe(before);
      const journal = await runMkt(['order', 'journal'], { env: { ...mock.env, MKT_STATE_DIR: dir }, home, timeoutMs: 15_000 });
      expect(journal.code).toBe(2);
      expect(journal.stderr).toContain(`the state directory ${dir} is ${kind}`);
    }
  });

  it.runIf(existsSync('/proc/self'))('/proc/self: refused at once instead of hanging', async () => {
    const r = await submit(tempHome(), '/proc/self');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('mkt: cannot create the state directory /proc/self/default');
  });

  it('a FIFO where the journal should be is refused by the desk and by order journal, never opened for reading', async () => {
    const home = tempHome();
    const state = join(home, 'state');
    mkdirSync(join(state, 'default'), { recursive: true });
    execFileSync('mkfifo', [join(state, 'default', 'journal.jsonl')]);
    const r = await submit(home, state);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the state file ${join(state, 'default', 'journal.jsonl')} is a FIFO (named pipe), not a regular file`);
    const journal = await runMkt(['order', 'journal'], { env: { ...mock.env, MKT_STATE_DIR: state }, home, timeoutMs: 15_000 });
    expect(journal.code).toBe(2);
    expect(journal.stderr).toContain(`the state file ${join(state, 'default', 'journal.jsonl')} is a FIFO (named pipe)`);
  });

  it('a FIFO where the credentials lock should be is refused, not read to see whether it is stale', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'config'), { recursive: true, mode: 0o700 });
    const account = `default@${new URL(mock.origin).host}`;
    // An expired access token: renewing it takes the profile's lock.
    const record = {
      clientId: 'mkt-demo',
      clientSecret: 's',
      authKey: 'k',
      scopes: [],
      loggedInAt: 1,
      accessToken: 'old',
      accessExpiresAt: 1,
    };
    writeFileSync(join(home, 'config', 'credentials.json'), JSON.stringify({ version: 1, credentials: { [account]: record } }), {
      mode: 0o600,
    });
    mkdirSync(join(home, 'state', 'default'), { recursive: true });
    const lock = join(home, 'state', 'default', 'credentials.lock');
    execFileSync('mkfifo', [lock]);
    const r = await runMkt(['account'], { env: { MKT_ROOT_URL: mock.origin }, home, timeoutMs: 15_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`mkt: the lock file ${lock} is a FIFO (named pipe), not a regular file`);
  });
});

describe('config.json and its directory', () => {
  const withConfig = (text: string) => {
    const home = tempHome();
    mkdirSync(join(home, 'config'), { recursive: true, mode: 0o700 });
    writeFileSync(join(home, 'config', 'config.json'), text);
    return home;
  };

  it('a file of the wrong shape is exit 2 naming the key and the type it needs', async () => {
    const cases: Array<[string, string]> = [
      ['[]', 'the top level must be an object ({"profiles": {...}}), found an array'],
      ['"x"', 'the top level must be an object ({"profiles": {...}}), found a string'],
      ['null', 'the top level must be an object ({"profiles": {...}}), found null'],
      ['{"profiles": []}', 'profiles must be an object of profiles by name, found an array'],
      ['{"profiles": {"default": "x"}}', 'profiles.default must be an object of settings, found a string'],
      ['{"profiles": {"work": {"base_url": 4010}}}', 'profiles.work.base_url must be a string, found a number'],
      ['{"profiles": {"default": {"timezone": null}}}', 'profiles.default.timezone must be a string, found null'],
    ];
    for (const [text, words] of cases) {
      const home = withConfig(text);
      const r = await runMkt(['account'], { env: mock.env, home, timeoutMs: 15_000 });
      expect(r.code, text).toBe(2);
      expect(r.stderr).toContain(`mkt: config file ${join(home, 'config', 'config.json')}: ${words}`);
      expect(r.stderr).not.toMatch(/Cannot read properties|internal error/);
    }
  });

  it('keys it does not know are left alone', async () => {
    const r = await runMkt(['config', 'get', 'timezone'], {
      home: withConfig('{"profiles": {"default": {"timezone": "UTC", "later": 1}}, "v": 2}'),
      timeoutMs: 15_000,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('UTC\n');
  });

  it('a FIFO config.json or credentials.json is refused, not read', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'config'), { mode: 0o700 });
    execFileSync('mkfifo', [join(home, 'config', 'config.json')]);
    const r = await runMkt(['account'], { env: mock.env, home, timeoutMs: 15_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`config file ${join(home, 'config', 'config.json')} is a FIFO (named pipe), not a regular file`);
    const home2 = tempHome();
    mkdirSync(join(home2, 'config'), { mode: 0o700 });
    execFileSync('mkfifo', [join(home2, 'config', 'credentials.json')]);
    const r2 = await runMkt(['account'], { env: { MKT_ROOT_URL: mock.origin }, home: home2, timeoutMs: 15_000 });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(`the credentials file ${join(home2, 'config', 'credentials.json')} is a FIFO (named pipe)`);
  });

  it('mkt config set creates the directory 0700, as login does, parents included', async () => {
    const home = tempHome();
    const dir = join(home, 'deep', 'config');
    const r = await runMkt(['config', 'set', 'timezone', 'UTC'], { env: { MKT_CONFIG_DIR: dir }, home, timeoutMs: 15_000 });
    expect(r.code).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, 'deep')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('a config directory group or world can write to draws one warning a run on stderr', async () => {
    const home = withConfig('{"profiles": {"default": {"timezone": "UTC"}}}');
    const dir = join(home, 'config');
    chmodSync(dir, 0o777);
    const r = await runMkt(['config', 'get', 'timezone'], { home, timeoutMs: 15_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('UTC\n');
    expect(r.stderr).toBe(
      `mkt: warning: the config directory ${dir} is writable by group and others (mode 777): whoever can write there can change where mkt sends your token; run chmod 700 ${dir}\n`,
    );
    chmodSync(dir, 0o775);
    expect((await runMkt(['config', 'get', 'timezone'], { home, timeoutMs: 15_000 })).stderr).toMatch(
      /^mkt: warning: the config directory .* is writable by group \(mode 775\)/,
    );
    chmodSync(dir, 0o755);
    expect((await runMkt(['config', 'get', 'timezone'], { home, timeoutMs: 15_000 })).stderr).toBe('');
  });
});
