import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMkt, type RunResult } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

const ROOT = resolve(import.meta.dirname, '..');
const EXAMPLES = join(ROOT, 'examples');
const CLIENT = join(EXAMPLES, 'marketplace-client');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 60 });
});
afterAll(async () => {
  await mock.close();
});

describe('the files under examples/ work as the README shows them', () => {
  it("mkt offers request examples/applicant.json gets offers from the mock (its partner code is the mock's valid one)", async () => {
    const r = await runMkt(['offers', 'request', resolve(EXAMPLES, 'applicant.json'), '-o', 'json'], { env: mock.env });
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout) as { offers?: unknown[] };
    expect(body.offers?.length).toBeGreaterThan(0);
    expect(mock.app.ctx.world.offerRecords.size).toBe(1);
  });
});

/** Runs a command in the repository with a plain environment (no VITEST_* of this run), bounded in time. */
function run(args: string[], cwd = ROOT): Promise<RunResult> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), NO_COLOR: '1' };
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** How many `test(` calls a file of the example holds: what its runner must report as passed. */
const testsIn = (file: string) => [...readFileSync(join(CLIENT, file), 'utf8').matchAll(/^\s*(?:await\s+)?test\(/gm)].length;

describe('examples/marketplace-client: a client tested against mkt/mock in its own process', () => {
  it('its vitest suite passes, every test of it', async () => {
    const expected = testsIn('client.test.ts');
    expect(expected).toBeGreaterThan(1);
    const r = await run([VITEST, 'run', '--root', CLIENT, '--reporter=json']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const report = JSON.parse(r.stdout) as { numTotalTests: number; numPassedTests: number; success: boolean };
    expect(report).toMatchObject({ success: true, numTotalTests: expected, numPassedTests: expected });
  });

  it('its node:test suite passes on plain Node, every test of it', async () => {
    const expected = testsIn('client.node-test.mjs');
    expect(expected).toBeGreaterThan(1);
    const r = await run(['--test', '--test-reporter=tap', join(CLIENT, 'client.node-test.mjs')]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^# pass ${expected}$`, 'm'));
    expect(r.stdout).toMatch(/^# fail 0$/m);
  });
});
