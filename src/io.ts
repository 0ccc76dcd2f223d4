/** The world a command runs in, injected so that every command can run in-process in a test. */
import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';

/** Streams, terminal facts and environment. */
export interface Io {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  env: Readonly<Record<string, string | undefined>>;
  /** Waits `ms` milliseconds (tests swap it). */
  sleep(ms: number): Promise<void>;
  /** Wall-clock time in ms. */
  now(): number;
  /** Resolves with the signal's name when the process is asked to stop (SIGINT or SIGTERM). */
  stopSignal(): Promise<string>;
}

/** The real process's world. */
export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // process.stdin builds a stream on first touch, which costs start-up time: only commands that read it pay.
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY: isatty(1),
    stderrIsTTY: isatty(2),
    stdinIsTTY: isatty(0),
    env: process.env,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: Date.now,
    stopSignal: () => new Promise((resolve) => {
      const on = (sig: string) => {
        process.off('SIGINT', on);
        process.off('SIGTERM', on);
        resolve(sig);
      };
      process.once('SIGINT', on);
      process.once('SIGTERM', on);
    }),
  };
}
