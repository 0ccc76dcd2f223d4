/** An `Io` for running `main` in-process in a test: no terminal, nothing read, what it writes kept. */
import { PassThrough } from 'node:stream';
import type { Io } from '../../src/io.js';

/**
 * `main`'s io with `env` and any of its fields `overrides` sets (a terminal, stdin's text, the real clock); its stop signal
 * (SIGINT/SIGTERM of a server) comes when `stop` is called, never otherwise.
 */
export function captureIo(
  env: Record<string, string>,
  overrides: Partial<Io> = {},
): { io: Io; out: () => string; err: () => string; stop: () => void } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += String(d)));
  stderr.on('data', (d) => (err += String(d)));
  let stop: (signal: string) => void = () => undefined;
  return {
    io: {
      stdout,
      stderr,
      stdin: new PassThrough(),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      env,
      sleep: async () => undefined,
      now: () => 0,
      stopSignal: () => new Promise((resolve) => (stop = resolve)),
      ...overrides,
    },
    out: () => out,
    err: () => err,
    stop: () => stop('SIGTERM'),
  };
}
