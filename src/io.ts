/** The world a command runs in, injected so that every command can run in-process in a test. */
import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';
import { systemClock, type Clock } from './clock.js';
import { OutputClosedError } from './errors.js';

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
  /**
   * Resolves with the signal's name when the process is asked to stop (SIGINT or SIGTERM). Once `until`
   * is aborted it stops listening (and never resolves), so the signal's default comes back.
   */
  stopSignal(until?: AbortSignal): Promise<string>;
}

/**
 * Writes `text`, waiting for the stream to drain when its buffer is full. Rejects with
 * OutputClosedError once the stream has failed or been closed (the reader of a pipe went away), so
 * that a long listing stops fetching instead of writing into nothing.
 */
export async function writeOut(out: Writable, text: string): Promise<void> {
  if (out.destroyed || out.writableEnded) throw new OutputClosedError(out.errored);
  if (out.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = (err?: unknown) => {
      out.off('drain', onDrain);
      out.off('error', settle);
      out.off('close', onClose);
      if (err === undefined) resolve();
      else reject(new OutputClosedError(err));
    };
    const onDrain = () => settle();
    const onClose = () => settle(out.errored ?? 'closed');
    out.on('drain', onDrain).on('error', settle).on('close', onClose);
  });
}

/**
 * Keeps a failed write to a standard stream from crashing the process with a stack: the reader of a
 * pipe may go away at any time (`mkt … | head`). The stream is destroyed by its error, and the next
 * writeOut() rejects, which ends the command quietly.
 */
function survivePipeErrors(stream: Writable): Writable {
  if (stream.listenerCount('error') === 0) stream.on('error', () => undefined);
  return stream;
}

/** The real process's world. */
export function processIo(): Io {
  return {
    stdout: survivePipeErrors(process.stdout),
    stderr: survivePipeErrors(process.stderr),
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
    stopSignal: (until) =>
      new Promise((resolve) => {
        const off = () => {
          process.off('SIGINT', on);
          process.off('SIGTERM', on);
        };
        const on = (sig: string) => {
          off();
          resolve(sig);
        };
        if (until?.aborted) return;
        process.once('SIGINT', on);
        process.once('SIGTERM', on);
        until?.addEventListener('abort', off, { once: true });
      }),
  };
}
