/** Spawns the built `bin/mkt.cjs` as a user or a cron job would, with its own temporary config and state dirs. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Path of the built binary. */
export const BIN = resolve(import.meta.dirname, '../../bin/mkt.cjs');

/** A root URL where nothing listens, and a token: a command that got as far as sending would fail with exit 5, not 2. */
export const NOWHERE: Readonly<Record<string, string>> = { MKT_ROOT_URL: 'http://127.0.0.1:9', MKT_ACCESS_TOKEN: 'x' };

/** MKT_MOCK_CHECK_ANSWERS as the suite set it (answer-check-setup.ts), for a child that may start a mock. */
export function answerCheckEnv(): Record<string, string> {
  const file = process.env.MKT_MOCK_CHECK_ANSWERS;
  return file ? { MKT_MOCK_CHECK_ANSWERS: file } : {};
}

/** What a run printed and how it ended. */
export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of one run. */
export interface RunOptions {
  env?: Record<string, string>;
  /** Text fed to standard input (stdin is closed otherwise). */
  input?: string;
  timeoutMs?: number;
  /** Reuse a home (config and state dirs) across runs. */
  home?: string;
  /** Close the read end of stdout at once, as `mkt … | head -c 0` would: every write of the child fails. */
  closeStdout?: boolean;
  /** Send `signal` to the child once its stderr matches `when` (Ctrl-C in the middle of a run). */
  interrupt?: { when: RegExp; signal: NodeJS.Signals };
  /** Options for node itself, before the script (`--import` a recorder). */
  nodeArgs?: string[];
  /** Called with the child once it is spawned (a test that kills it at a moment of its own choosing). */
  started?(child: ChildProcess): void;
}

/** A fresh temporary home with config and state dirs under it. */
export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'mkt-test-'));
}

/** Runs `mkt args…` with a clean environment (PATH, HOME, temp config/state dirs, and `env`). */
export function runMkt(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const home = opts.home ?? tempHome();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    MKT_CONFIG_DIR: join(home, 'config'),
    MKT_STATE_DIR: join(home, 'state'),
    MKT_CREDENTIAL_STORE: 'file',
    ...answerCheckEnv(),
    ...opts.env,
  };
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    opts.started?.(child);
    let stdout = '';
    let stderr = '';
    if (opts.closeStdout) child.stdout.destroy();
    else child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    let interrupted = false;
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      if (opts.interrupt && !interrupted && opts.interrupt.when.test(stderr)) {
        interrupted = true;
        child.kill(opts.interrupt.signal);
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    // A child that stops reading early (an input over its size cap) closes the pipe: that is its answer, not a test error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}
