/** Spawns the built `mkt mock serve` as a user would (its own process, so it can be killed with SIGKILL). */
import { spawn, type ChildProcess } from 'node:child_process';
import { answerCheckEnv, BIN } from './cli.js';

/** A `mkt mock serve` child process and the origin it printed. */
export interface ServedMock {
  child: ChildProcess;
  origin: string;
  /** Resolves with the exit code (null when killed by a signal) once the process has ended. */
  exited: Promise<number | null>;
  /** What it printed on start (the banner). */
  banner: string;
  /** Everything it has printed on stderr so far. */
  stderr(): string;
  /** Everything it has printed on stdout so far (the banner and what followed). */
  stdout(): string;
}

/** Starts `mkt mock serve --port 0 ARGS…` and resolves once it prints where it listens (rejects after `timeoutMs`). */
export function serveMock(args: string[], timeoutMs = 15_000, env: Readonly<Record<string, string>> = {}): Promise<ServedMock> {
  const child = spawn(process.execPath, [BIN, 'mock', 'serve', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...answerCheckEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mock serve did not start within ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      // A wildcard bind (--host 0.0.0.0) is reached on loopback too.
      const m = /listening on http:\/\/(?:127\.0\.0\.1|0\.0\.0\.0)(:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, origin: `http://127.0.0.1${m[1]!}`, exited, banner: out, stderr: () => err, stdout: () => out });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`mock serve exited ${code} before listening: ${err}`));
    });
  });
}

/** A real access token for alice from a mock started with `--auto-approve alice`: the auth-key redirect, then the token endpoint. */
export async function aliceToken(origin: string): Promise<string> {
  const res = await fetch(`${origin}/oauth?client_id=mkt-demo&response_type=auth_key&state=t`, { redirect: 'manual' });
  const key = new URL(res.headers.get('location')!).searchParams.get('auth_key')!;
  const form = new URLSearchParams({
    grant_type: 'authorization_key',
    client_id: 'mkt-demo',
    client_secret: 'mkt-demo-secret',
    auth_key: key,
  });
  const tok = await fetch(`${origin}/v1/security/oauth/token`, { method: 'POST', body: form, headers: { accept: 'application/json' } });
  return ((await tok.json()) as { access_token: string }).access_token;
}
