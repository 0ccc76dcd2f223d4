/**
 * The README's "Try it on the mock" block, run line by line as a new user would on a machine without a
 * browser or a display: `npx mkt` is the built bin, and the mock listens on a free port instead of 4010
 * (MKT_ROOT_URL points the other lines at it); every other word is the README's. The block is read from
 * README.md, so this fails when the README drifts from what works. The pipeline is run a second time, as a
 * user trying it again would: it must not be refused for the listings the first run bid on.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from './helpers/cli.js';
import { serveMock, type ServedMock } from './helpers/serve.js';

const ROOT = resolve(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The shell lines of the first ```sh block under the heading `## Try it on the mock`, continuations joined, comments dropped. */
function walkLines(): string[] {
  const section = README.split(/^## Try it on the mock$/m)[1]?.split(/^## /m)[0];
  const block = section && /^```sh\n([\s\S]*?)^```/m.exec(section)?.[1];
  if (!block) throw new Error('README.md has no ```sh block under "## Try it on the mock"');
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

const home = mkdtempSync(join(tmpdir(), 'mkt-readme-walk-'));
let mock: ServedMock | undefined;
afterAll(() => {
  mock?.child.kill('SIGTERM');
  rmSync(home, { recursive: true, force: true });
});

/** Runs one README line under sh with `npx mkt` as the built bin: no DISPLAY, no browser on PATH. */
function sh(line: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = line.replace(/\bnpx mkt\b/g, `'${process.execPath}' '${BIN}'`);
  return new Promise((done, fail) => {
    const child = spawn('sh', ['-c', script], { env: { HOME: home, PATH: '/usr/bin:/bin', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

describe("the README's walk on the mock, as printed", () => {
  it('runs every line with exit 0, and the pipeline again', async () => {
    const lines = walkLines();
    const serve = lines.find((l) => /\bmkt mock serve\b/.test(l));
    expect(serve, 'the block starts the mock').toBeDefined();
    expect(serve).toMatch(/&$/);
    const serveArgs = serve!.replace(/&$/, '').trim().split(/\s+/).slice(4);
    mock = await serveMock(serveArgs);
    const env = { MKT_ROOT_URL: mock.origin };

    const rest = lines.filter((l) => l !== serve);
    expect(rest.some((l) => /mkt login\b/.test(l))).toBe(true);
    for (const line of rest) {
      const ran = await sh(line, env);
      expect(ran.code, `${line}\n${ran.stderr}`).toBe(0);
    }
    const pipeline = rest.find((l) => /\|\s*npx mkt order submit/.test(l));
    expect(pipeline, 'the block has the search | order submit pipeline').toBeDefined();
    const again = await sh(pipeline!, env);
    expect(again.code, again.stderr + again.stdout).toBe(0);
    expect(again.stderr).not.toMatch(/already|held/i);
  }, 180_000);
});
