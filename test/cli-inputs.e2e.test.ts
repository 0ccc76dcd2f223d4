/**
 * Inputs taken apart before anything is sent (issue 22, items 4 and 5): listing ids beyond what the
 * API takes, a password in a base URL, a malformed token, state and config that are not what they
 * should be. Every run is bounded by a timeout, so a hang fails instead of stalling the suite.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
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
    const before = mock.app.journal.list(1000).total;
    const r = await runMkt(['order', 'submit', file, '--yes'], { env: mock.env, home, timeoutMs: 15_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file} line 2: listing id '9007199254740993' is larger than 9007199254740991`);
    expect(r.stderr).toContain(`${file} line 3: listing id '77777777777777777777…(400 characters)' is larger than`);
    expect(mock.app.journal.list(1000).total).toBe(before);
  });

  it('the same ids from standard input', async () => {
    const r = await runMkt(['order', 'submit', '-', '--yes', '--amount', '25'], { env: mock.env, input: 'listing_number\n9007199254740993\n', timeoutMs: 15_000 });
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
    const bad = await runMkt(['account'], { env: { ...secretEnv(), MKT_BASE_URL: 'http://user:S3CRET-pw@127.0.0.1:99999/v1' }, timeoutMs: 15_000 });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("got 'http://***@127.0.0.1:99999/v1'");
    const home = tempHome();
    const set = await runMkt(['config', 'set', 'auth_url', 'http://a%40b:p@ss@127.0.0.1:9'], { home, timeoutMs: 15_000 });
    expect(set.code).toBe(0);
    const list = await runMkt(['config', 'list', '-o', 'json'], { env: secretEnv(), home, timeoutMs: 15_000 });
    const get = await runMkt(['config', 'get', 'root_url'], { env: secretEnv(), home, timeoutMs: 15_000 });
    expect(get.stdout).toBe(`${mock.origin.replace('http://', 'http://***@')}\n`);
    expect(list.stdout).toContain('"http://***@127.0.0.1:9"');
    for (const out of [list.stdout, list.stderr, get.stdout, get.stderr]) {
      expect(out).not.toContain('S3CRET');
      expect(out).not.toMatch(/p@ss|ss@/);
    }
  });
});

describe('a token with a line break or control byte is named as malformed (exit 3), not as an unreachable marketplace', () => {
  it('MKT_ACCESS_TOKEN with a newline, a CR or a NUL-like control byte', async () => {
    for (const [token, what] of [['abc\ndef', 'a line break at character 4'], ['abc\r', 'a line break at character 4'], ['ab\u0001c', 'a control byte (0x01) at character 3']] as const) {
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
    const record = { clientId: 'mkt-demo', clientSecret: 's', authKey: 'k', scopes: [], loggedInAt: 1, accessToken: 'tok\nen', accessExpiresAt: Date.now() + 3_600_000 };
    writeFileSync(join(home, 'config', 'credentials.json'), JSON.stringify({ version: 1, credentials: { [account]: record } }), { mode: 0o600 });
    const r = await runMkt(['account'], { env: { MKT_ROOT_URL: mock.origin }, home, timeoutMs: 15_000 });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`mkt: the access token of ${account} is malformed: it holds a line break at character 4`);
  });
});
