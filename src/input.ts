/** Reading a command's input file (or standard input with `-`), and locating faults in JSON text. */
import { open, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { UsageError } from './errors.js';
import type { Io } from './io.js';

/** Bytes asked of the file system per read: the cap is checked between reads. */
const READ_CHUNK = 256 * 1024;

function tooLarge(source: string, maxBytes: number): UsageError {
  const mib = maxBytes / (1 << 20);
  const size = Number.isInteger(mib) ? `${mib} MiB` : `${maxBytes} bytes`;
  return new UsageError(`${source} is larger than the ${size} limit (${maxBytes} bytes); nothing was sent`);
}

function unreadable(file: string, err: unknown): UsageError {
  return new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
}

/**
 * Reads `file`, or standard input when it is `-`; larger than `maxBytes` or unreadable is a UsageError.
 * Never holds more than the cap: a regular file's size is checked before any read, and a stream
 * (stdin, a pipe, a device) is read in chunks and given up as soon as it passes the cap.
 */
export async function readInput(io: Io, file: string, maxBytes: number): Promise<{ text: string; source: string }> {
  if (file === '-') return { text: (await readStreamCapped(io.stdin, maxBytes)).toString('utf8'), source: 'stdin' };
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    throw unreadable(file, err);
  }
  try {
    const stat = await handle.stat().catch((err: unknown) => { throw unreadable(file, err); });
    if (stat.isFile() && stat.size > maxBytes) throw tooLarge(file, maxBytes);
    return { text: (await readHandleCapped(handle, file, maxBytes)).toString('utf8'), source: file };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function readStreamCapped(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early (the throw) destroys the stream: nothing more is read.
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > maxBytes) throw tooLarge('stdin', maxBytes);
    chunks.push(buf);
  }
  return Buffer.concat(chunks, size);
}

/** Reads to the end, whatever the file's reported size (a pipe or /dev/zero reports 0), stopping past the cap. */
async function readHandleCapped(handle: FileHandle, file: string, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    let bytesRead: number;
    const buf = Buffer.allocUnsafe(READ_CHUNK);
    try {
      ({ bytesRead } = await handle.read(buf, 0, READ_CHUNK, null));
    } catch (err) {
      throw unreadable(file, err);
    }
    if (bytesRead === 0) return Buffer.concat(chunks, size);
    size += bytesRead;
    if (size > maxBytes) throw tooLarge(file, maxBytes);
    chunks.push(buf.subarray(0, bytesRead));
  }
}

class JsonFault {
  constructor(readonly offset: number, readonly problem: string) {}
}

/** Where and why `text` is not JSON: the offset of the first fault (found by a small scanner, since V8's messages differ between Node versions). */
export function locateJsonError(text: string): { offset: number; problem: string } {
  let i = 0;
  const at = (): string => (i >= text.length ? 'end of input' : JSON.stringify(text[i]));
  const fail = (problem: string, offset = i): never => {
    throw new JsonFault(offset, problem);
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = (): void => {
    const start = i++;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c === '\\') {
        const e = text[i + 1] ?? '';
        if ('"\\/bfnrt'.includes(e) && e !== '') i += 2;
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else fail('invalid escape in string');
        continue;
      }
      if (c < ' ') fail('line break or control character inside a string (a missing closing quote?)');
      i++;
    }
    fail('string never closed', start);
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (;;) {
        ws();
        if (c === '{') {
          if (text[i] !== '"') fail(`expected a double-quoted property name, found ${at()}`);
          string();
          ws();
          if (text[i] !== ':') fail(`expected ':' after the property name, found ${at()}`);
          i++;
        }
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === close) return void i++;
        else fail(`expected ',' or '${close}', found ${at()}`);
      }
    }
    if (c === '"') return string();
    const num = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    num.lastIndex = i;
    const m = c === '-' || (c !== undefined && c >= '0' && c <= '9') ? num.exec(text) : null;
    if (m) return void (i += m[0].length);
    for (const lit of ['true', 'false', 'null']) if (text.startsWith(lit, i)) return void (i += lit.length);
    fail(`expected a value, found ${at()}`);
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${at()} after the end of the JSON value`);
    return { offset: i, problem: 'no fault found' };
  } catch (err) {
    if (err instanceof JsonFault) return { offset: err.offset, problem: err.problem };
    return { offset: 0, problem: 'nested too deeply to locate the fault' };
  }
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}
