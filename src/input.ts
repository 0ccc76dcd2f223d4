/** Reading a command's input file (or standard input with `-`), and locating faults in JSON text. */
import { open, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { systemErrorWords, UsageError } from './errors.js';
import type { Io } from './io.js';

/** Bytes asked of the file system per read: the cap is checked between reads. */
const READ_CHUNK = 256 * 1024;

function tooLarge(source: string, maxBytes: number): UsageError {
  const mib = maxBytes / (1 << 20);
  const size = Number.isInteger(mib) ? `${mib} MiB` : `${maxBytes} bytes`;
  return new UsageError(`${source} is larger than the ${size} limit (${maxBytes} bytes); nothing was sent`);
}

function unreadable(file: string, err: unknown): UsageError {
  return new UsageError(`cannot read ${file}: ${systemErrorWords(err)}`);
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
    const stat = await handle.stat().catch((err: unknown) => {
      throw unreadable(file, err);
    });
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

/** V8's "… in JSON at position N" (or "after JSON"), with Node 22's "(line L column C)" after it. */
const AT_POSITION = /(?: in JSON)? at position (\d+)(?: \(line \d+ column \d+\))?$/;

/** JSON.parse's verdict on `text`: undefined when it parses, else where and why, or `{}` when V8 does not say where. */
function parseFault(text: string): { offset: number; problem: string } | { offset?: undefined } | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    const at = AT_POSITION.exec(err.message);
    if (at) return { offset: Number(at[1]), problem: err.message.charAt(0).toLowerCase() + err.message.slice(1, at.index) };
    if (err.message.startsWith('Unexpected end of JSON input')) return { offset: text.length, problem: 'unexpected end of input' };
    // "Unexpected token 'x', "…text…" is not valid JSON": V8 quotes the text but gives no position.
    return {};
  }
}

/**
 * Where and why `text` is not JSON, read from JSON.parse's own message. When V8 gives no position (an
 * unexpected token), the fault is the last character of the shortest prefix JSON.parse rejects for a
 * reason other than running out of input, found by bisection (a fault in a prefix stays in every longer one).
 */
export function locateJsonError(text: string): { offset: number; problem: string } {
  const fault = parseFault(text);
  if (!fault) return { offset: text.length, problem: 'no fault found' };
  if (fault.offset !== undefined) return fault;
  const faulty = (length: number): boolean => {
    const f = parseFault(text.slice(0, length));
    return f !== undefined && (f.offset === undefined || f.offset < length);
  };
  let lo = 1;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (faulty(mid)) hi = mid;
    else lo = mid + 1;
  }
  // Named from the text, not V8's message, which shows half of a character outside the BMP.
  return { offset: lo - 1, problem: `unexpected ${JSON.stringify(String.fromCodePoint(text.codePointAt(lo - 1)!))}` };
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}
