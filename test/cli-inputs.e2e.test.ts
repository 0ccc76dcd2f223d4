/**
 * Inputs taken apart before anything is sent (issue 22, items 4 and 5): listing ids beyond what the
 * API takes, a password in a base URL, a malformed token, state and config that are not what they
 * should be. Every run is bounded by a timeout, so a hang fails instead of stalling the suite.
 */
import { writeFileSync } from 'node:fs';
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
