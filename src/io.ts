/** The world a command runs in, injected so that every command can run in-process in a test. */
import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';
import { systemClock, type Clock } from './clock.js';

/** Streams, terminal facts, environment and the clock. */
export interface Io extends Clock {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** The terminal's width when stdout is one (tables fit it). */
  stdoutColumns?: number;
  env: Readonly<Record<string, string | undefined>>;
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
    // Read when a table is printed, so a resized terminal is honoured.
    get stdoutColumns() {
      return process.stdout.columns;
    },
    env: process.env,
    sleep: systemClock.sleep,
    now: systemClock.now,
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
