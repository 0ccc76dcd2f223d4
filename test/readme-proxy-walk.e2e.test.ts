/**
 * The README's `mkt mock proxy` block (under "## For developers of other clients"), run line by line as a
 * client developer would: `npx mkt` is the built bin, and the mock and the proxy listen on free ports
 * instead of 4010 and 4011 (every other word is the README's). Between the proxy's start and the lines
 * that read its journal, "your client" sends one conforming request and the README's own example of a
 * difference (`limit` that is not an integer, and an order whose bid_amount is a string); Ctrl-C then
 * prints the summary in the README's format. The block is read from README.md, so this fails when the
 * README drifts from what works.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from './helpers/cli.js';
import { serveMock, type ServedMock } from './helpers/serve.js';

const ROOT = resolve(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The shell lines of the first ```sh block after the proxy's paragraph, comments dropped. */
function proxyLines(): string[] {
  const section = README.split(/^\*\*Check your client's traffic against the API description/m)[1];
  const block = section && /^```sh\n([\s\S]*?)^```/m.exec(section)?.[1];
  if (!block) throw new Error('README.md has no ```sh block after "Check your client\'s traffic against the API description"');
  return block
    .split('\n')
    .map((l) => l.replace(/\s*#.*$/, '').trim())
    .filter(Boolean);
}

/** The summary block the README prints after that one (its first line). */
function readmeSummaryFirstLine(): string {
  const section = README.split(/^\*\*Check your client's traffic against the API description/m)[1]!;
  const blocks = [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)];
  const summary = blocks.find((b) => b[1] === '' && /^proxy: /.test(b[2]!));
  if (!summary) throw new Error('README.md shows no proxy summary after the proxy block');
  return summary[2]!.split('\n')[0]!;
}

const home = mkdtempSync(join(tmpdir(), 'mkt-readme-proxy-'));
let mock: ServedMock | undefined;
let proxy: ChildProcess | undefined;
afterAll(() => {
  proxy?.kill('SIGKILL');
  mock?.child.kill('SIGTERM');
  rmSync(home, { recursive: true, force: true });
});

const ENV = { HOME: home, PATH: '/usr/bin:/bin' };
/** curl is how the README reads the journal as JSON; .ci/run installs it, and a machine without it reads the same URL with fetch. */
const HAS_CURL = spawnSync('sh', ['-c', 'command -v curl'], { env: ENV }).status === 0;

/** `line` with `npx mkt` as the built bin. */
const withBin = (line: string): string => line.replace(/\bnpx mkt\b/g, `'${process.execPath}' '${BIN}'`);

/** Runs one README line under sh. */
function sh(line: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn('sh', ['-c', withBin(line)], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** Starts the README's proxy line in the background (as `&` does), resolving with where it listens and its stderr. */
function startProxy(line: string): Promise<{ origin: string; stderr: () => string; exited: Promise<number | null> }> {
  const [cmd, ...args] = withBin(line.replace(/&$/, '').trim())
    .split(/\s+/)
    .map((w) => w.replace(/^'|'$/g, ''));
  const child = spawn(cmd!, args, { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  proxy = child;
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return new Promise((done, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`the proxy did not start: ${err}`)), 15_000);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /^mkt mock proxy: (http:\/\/127\.0\.0\.1:(\d+)) -> /m.exec(out);
      if (m) {
        clearTimeout(timer);
        done({ origin: m[1]!, stderr: () => err, exited });
      }
    });
  });
}

describe("the README's proxy block, as printed", () => {
  it("starts the mock and the proxy, shows the client's differences in the journal (text and JSON), and Ctrl-C prints them by endpoint and field", async () => {
    const lines = proxyLines();
    const [serveLine, proxyLine, ...rest] = lines;
    expect(serveLine).toMatch(/^npx mkt mock serve .*--port 4010 .*&$/);
    expect(proxyLine).toMatch(/^npx mkt mock proxy --upstream http:\/\/127\.0\.0\.1:4010 --port 4011 &$/);
    expect(rest.length).toBeGreaterThanOrEqual(2);

    // The mock: the README's options, on a free port instead of 4010.
    const serveArgs = serveLine!.replace(/&$/, '').trim().split(/\s+/).slice(4);
    const at = serveArgs.indexOf('--port');
    expect(at).toBeGreaterThanOrEqual(0);
    serveArgs.splice(at, 2);
    mock = await serveMock(serveArgs);
    const upstream = mock.origin;

    // The proxy: the README's line, with the mock's port for 4010 and a free one for 4011.
    const started = await startProxy(proxyLine!.replace('http://127.0.0.1:4010', upstream).replace('--port 4011', '--port 0'));
    const port = new URL(started.origin).port;

    // "Your client": a conforming request and the README's two examples of a difference.
    const token = (await (
      await fetch(`${started.origin}/v1/security/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'mkt-demo', client_secret: 'mkt-demo-secret' }),
      })
    ).json()) as { access_token?: string };
    const auth = { authorization: `bearer ${token.access_token ?? 'none'}`, accept: 'application/json' };
    expect((await fetch(`${started.origin}/listingsvc/v2/listings/?limit=5`, { headers: auth })).status).toBeLessThan(500);
    expect((await fetch(`${started.origin}/v1/notes/?limit=abc`, { headers: auth })).status).toBeLessThan(500);
    const order = await fetch(`${started.origin}/v1/orders/`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ bid_requests: [{ listing_id: 1, bid_amount: '25' }] }),
    });
    expect(order.status).toBeLessThan(500);

    // The README's lines that read the journal, with the proxy's port for 4011.
    for (const line of rest) {
      const ours = line.replaceAll('127.0.0.1:4011', `127.0.0.1:${port}`);
      if (/^curl /.test(ours) && !HAS_CURL) expect(process.env.CI, 'curl is missing under CI (.ci/run installs it)').toBeFalsy();
      const ran =
        /^curl /.test(ours) && !HAS_CURL
          ? { code: 0, stdout: await (await fetch(/'([^']+)'/.exec(ours)![1]!)).text(), stderr: '' }
          : await sh(ours);
      expect(ran.code, `${line}\n${ran.stderr}`).toBe(0);
      expect(ran.stdout, line).toMatch(/\/query\/limit/);
      expect(ran.stdout, line).toMatch(/must be integer/);
      expect(ran.stdout, line).toMatch(/bid_amount/);
      if (/^curl /.test(line)) {
        const entries = (JSON.parse(ran.stdout) as { result: { violations: { field: string; problem: string }[] }[] }).result;
        expect(entries.every((e) => e.violations.length > 0)).toBe(true);
        expect(entries.flatMap((e) => e.violations)).toContainEqual(
          expect.objectContaining({ field: '/query/limit', problem: 'must be integer' }),
        );
      }
    }

    // Ctrl-C: the summary, in the README's format.
    proxy!.kill('SIGINT');
    expect(await started.exited).toBe(0);
    const summary = started.stderr();
    const format = readmeSummaryFirstLine().replace(/\d+/g, '\\d+').replace(/[()*]/g, '\\$&');
    expect(summary).toMatch(new RegExp(`^${format}$`, 'm'));
    expect(summary).toMatch(/^ {2}GET \/v1\/notes\/\n +1 × request \/query\/limit: must be integer$/m);
    expect(summary).toMatch(/^ {2}POST \/v1\/orders\/\n +1 × request \/body\/bid_requests\/\*\/bid_amount: must be number$/m);
  }, 120_000);
});
