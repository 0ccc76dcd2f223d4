/** Test helpers for `mkt login`: a free loopback port, a mock with a client on it, and a spawned login that hands back its URL. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { MockOptions } from '../../mock-server/context.js';
import { BIN, type RunResult } from './cli.js';
import { startMock, type TestMock } from './mock.js';

/** A port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A mock with a test client whose redirect URL is a free loopback port, and the env pointing mkt at both. */
export interface LoginMock extends TestMock {
  clientId: string;
  secret: string;
  redirectUri: string;
  /** Env for mkt: URLs, client id and redirect URI (no token, no secret, no store choice). */
  loginEnv: Record<string, string>;
}

/** Starts a small mock with client `cli-test` redirecting to 127.0.0.1 on a free port. */
export async function startLoginMock(options: Partial<MockOptions> = {}): Promise<LoginMock> {
  const port = await freePort();
  const redirectUri = `http://127.0.0.1:${port}/callback`;
  const clientId = 'cli-test';
  const secret = 'cli-test-secret';
  const mock = await startMock({ listings: 60, clients: [`${clientId}:${secret}:${redirectUri}`], ...options });
  // No MKT_ACCESS_TOKEN here: these tests prove what the stored credentials do on their own.
  const env = { MKT_ROOT_URL: mock.origin };
  return {
    ...mock,
    env,
    clientId,
    secret,
    redirectUri,
    loginEnv: { ...env, MKT_CLIENT_ID: clientId, MKT_REDIRECT_URI: redirectUri },
  };
}

/** The environment of a spawned mkt: clean, with config and state dirs under `home`. */
export function mktEnv(home: string, env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    MKT_CONFIG_DIR: join(home, 'config'),
    MKT_STATE_DIR: join(home, 'state'),
    MKT_CREDENTIAL_STORE: 'file',
    ...env,
  };
}

/** A running `mkt login`. */
export interface RunningLogin {
  child: ChildProcess;
  /** The authorization URL it printed on stderr. */
  url: Promise<string>;
  /** How it ended. */
  done: Promise<RunResult>;
  stderr(): string;
}

/** How a login is spawned beyond its arguments. */
export interface LoginSpawn {
  /** Leave out --no-browser, so mkt tries to open one (default false). */
  browser?: boolean;
  /** Keep standard input open as a pipe (`child.stdin`) for pasted redirect URLs (default: /dev/null). */
  stdin?: boolean;
}

/** Spawns `mkt login …args` (with --no-browser unless told) and watches stderr for the URL. */
export function spawnLogin(
  home: string,
  env: Record<string, string>,
  args: string[] = [],
  timeoutMs = 25_000,
  how: LoginSpawn = {},
): RunningLogin {
  const verbose = args.includes('--verbose') ? ['--verbose'] : [];
  const rest = args.filter((a) => a !== '--verbose');
  const child = spawn(process.execPath, [BIN, ...verbose, 'login', ...(how.browser ? [] : ['--no-browser']), ...rest], {
    env: mktEnv(home, env),
    stdio: [how.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let gotUrl!: (u: string) => void;
  let noUrl!: (e: Error) => void;
  const url = new Promise<string>((resolve, reject) => ((gotUrl = resolve), (noUrl = reject)));
  url.catch(() => undefined); // a test that expects no URL need not listen
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    const m = /(http:\/\/\S+\/oauth\?\S+)/.exec(stderr);
    if (m) gotUrl(m[1]!);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const done = new Promise<RunResult>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      noUrl(new Error(`mkt login ended (${code}) without printing a URL:\n${stderr}`));
      resolve({ code, stdout, stderr });
    }),
  );
  return { child, url, done, stderr: () => stderr };
}

/** Follows the authorization URL without a browser (for --auto-approve mocks): the mock redirects straight to the catcher. */
export async function followWithoutBrowser(url: string): Promise<Response> {
  return fetch(url, { redirect: 'follow' });
}
