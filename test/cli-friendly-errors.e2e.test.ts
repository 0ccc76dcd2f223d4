/**
 * Words a person can act on: a wrong port or host is not "not logged in", system errors are said in
 * plain words instead of bare codes, and `mock clock advance` says how far the clock moved.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
let other: TestMock;
beforeAll(async () => {
  [mock, other] = await Promise.all([startMock({ listings: 20 }), startMock({ listings: 20 })]);
});
afterAll(async () => {
  await Promise.all([mock.close(), other.close()]);
});

const hostOf = (origin: string) => new URL(origin).host;

/** A home whose file store holds (unusable) credentials of profile default for `origin` only. */
function homeLoggedInAt(origin: string): string {
  const home = tempHome();
  mkdirSync(join(home, 'config'), { recursive: true });
  const record = { clientId: 'mkt-demo', clientSecret: 's', authKey: 'k', scopes: [], loggedInAt: 1 };
  writeFileSync(
    join(home, 'config', 'credentials.json'),
    JSON.stringify({ version: 1, credentials: { [`default@${hostOf(origin)}`]: record } }),
    { mode: 0o600 },
  );
  return home;
}

describe('a wrong port or host', () => {
  it('names the host the profile does hold credentials for (exit 3)', async () => {
    const home = homeLoggedInAt(mock.origin);
    const r = await runMkt(['listings', 'search', '--limit', '1'], { env: { MKT_ROOT_URL: other.origin }, home });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      `not logged in at ${hostOf(other.origin)} (profile default): profile default holds credentials for ${hostOf(mock.origin)}`,
    );
    expect(r.stderr).toMatch(/hint: check base_url .* for a wrong port or host/);
  });

  it('says the marketplace cannot be reached (exit 5) before talking of logins', async () => {
    const home = homeLoggedInAt(mock.origin);
    const r = await runMkt(['listings', 'search', '--limit', '1'], { env: { MKT_ROOT_URL: 'http://127.0.0.1:9' }, home });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /mkt: cannot reach http:\/\/127\.0\.0\.1:9: connection refused \(nothing is listening at that address and port\) \(ECONNREFUSED\)/,
    );
    expect(r.stderr).toContain(`hint: is base_url right? profile default holds credentials for ${hostOf(mock.origin)}`);
    expect(r.stderr).not.toMatch(/not logged in/);
  });
});

describe('system errors in plain words', () => {
  it('a bids file that does not exist, or is a directory', async () => {
    const home = tempHome();
    const missing = await runMkt(['order', 'submit', join(home, 'nope.csv'), '--yes'], { env: mock.env, home });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read ${join(home, 'nope.csv')}: no such file or directory (ENOENT)`);
    const dir = await runMkt(['order', 'submit', home, '--yes'], { env: mock.env, home });
    expect(dir.code).toBe(2);
    expect(dir.stderr).toContain(`cannot read ${home}: is a directory, not a file (EISDIR)`);
  });

  it('a state dir that cannot be written is said as such, not as a bug', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'state'), 'a file where the state dir should be');
    const file = join(home, 'bids.csv');
    writeFileSync(file, 'listing_id,bid_amount\n1,25\n');
    const r = await runMkt(['order', 'submit', file, '--yes'], { env: mock.env, home });
    expect(r.stderr).not.toMatch(/internal error|this is a bug/);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`mkt: the state directory ${join(home, 'state')} is a regular file, not a directory`);
  });
});

describe('mkt mock clock advance', () => {
  it('says how far the clock moved, in words, and to when', async () => {
    const r = await runMkt(['mock', 'clock', 'advance', '15d', '-o', 'json'], { env: { MKT_ROOT_URL: mock.origin } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('moved the clock 15 days forward, to 2026-06-16 12:00:00 UTC');
    expect(JSON.parse(r.stdout)).toMatchObject({ moved_ms: 15 * 86_400_000 });
  });
});
