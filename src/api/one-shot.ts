/**
 * One plain GET over node:http, answering as undici's `request` answers (status, headers, body text) and
 * failing with the errors undici fails with (the same codes, so the same words and exit codes reach the user).
 * A command that sends one request then never loads undici: its bundle, its WebAssembly parser and its pool
 * cost about a seventh of `mkt listings search`'s CPU time on Node 20 (issue 43, item 5). http.ts sends a
 * client's first GET here when `canSendOneShot` says this mirrors undici for it, and everything else through
 * undici's pool. test/http-one-shot.test.ts puts both through the same exchanges, over real sockets.
 *
 * What is mirrored, from undici 7's HTTP/1.1 client (dispatcher/client-h1.js): `connection: keep-alive` asked
 * (the socket is closed once the answer is read); a 10 s connect timeout; the headers timeout from the
 * connection to the answer's head, the body timeout between the body's chunks (0: none), all on undici's own
 * timers (util/timers.js, its one module loaded here: they tick every ~0.5 s); a 100 answer is "bad response",
 * an upgrade "bad upgrade"; the other side closing (or resetting) an answer that keeps the connection fails it,
 * one that does not ends its body there unless its length says more was due; a parse error in the head after a
 * Content-Length is a length mismatch; the head's bound counted on names and values; repeated headers kept as
 * arrays, values with their trailing blanks; the body decoded as UTF-8 without its first byte-order mark.
 * Not mirrored (the socket-level rarities left): trailers past 16 KiB, which undici refuses and this reads.
 */
import * as plainHttp from 'node:http';
import { maxHeaderSize, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import timers from 'undici/lib/util/timers.js';

/** An answer as undici's `request` gives it, as far as http.ts reads it. */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: { text(): Promise<string> };
}

/** What http.ts asks of a transport. */
export interface SendOptions {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  /** 0: no timeout. */
  headersTimeout: number;
  bodyTimeout: number;
}

/** undici's Agent connects with this timeout unless told otherwise (ours never is). */
const CONNECT_TIMEOUT_MS = 10_000;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Request headers undici treats itself (or refuses): such a request goes through undici. */
const SPECIAL = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'expect', 'te']);

/**
 * Whether a one-shot sends `url` with `opts` exactly as undici would: a GET without a body to an http(s)
 * origin with plain headers (names undici and Node both take as tokens, values without control characters,
 * none that undici handles or refuses itself). Anything else goes through undici, whose answer is the rule.
 */
export function canSendOneShot(url: URL, opts: SendOptions): boolean {
  if (opts.method !== 'GET' || opts.body !== undefined) return false;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return Object.entries(opts.headers).every(([k, v]) => TOKEN.test(k) && !SPECIAL.has(k.toLowerCase()) && FIELD_VALUE.test(v));
}

/** An error shaped as undici's of that name (http.ts and the user see its code; --verbose its message). */
function undiciError(name: string, code: string | undefined, message: string): Error {
  return Object.assign(new Error(message), { name, code });
}

/** Sends `opts` to `url` on a connection of its own; resolves at the answer's head, as undici's `request`. */
export function sendOneShot(url: URL, opts: SendOptions): Promise<Answer> {
  const tls = url.protocol === 'https:';
  // node:https (tls, crypto) only for an https: origin, as undici loads tls only then.
  const http = tls ? (createRequire(import.meta.url)('node:https') as typeof plainHttp) : plainHttp;
  // A keep-alive agent, as the request asks `connection: keep-alive` (undici's does); destroyed once read.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const req = http.request({
    agent,
    host: hostname,
    port: url.port || (tls ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    method: opts.method,
    // The head undici writes, byte for byte: host and connection first, lower case, then the caller's headers.
    headers: { host: url.host, connection: 'keep-alive', ...opts.headers },
    // undici counts the headers' names and values against http.maxHeaderSize (`tooLarge`), Node the whole head:
    // Node's bound is set past undici's so that undici's rule is the one that answers.
    maxHeaderSize: 4 * maxHeaderSize,
    ...(tls ? { ALPNProtocols: ['http/1.1'] } : {}),
  });
  // undici's own timers (they tick every ~0.5 s: a timeout fires when undici's would), one at a time: connect, then head.
  let timer: ReturnType<typeof timers.setFastTimeout> | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const disarm = () => {
    if (timer) timers.clearFastTimeout(timer);
    clearImmediate(immediate);
    timer = undefined;
  };
  const arm = (ms: number, fire: () => void) => {
    disarm();
    if (ms > 0) timer = timers.setFastTimeout(fire, ms);
  };
  /** The socket's own error (refused, reset, TLS): undici fails with it, where Node may wrap it in its own. */
  let socketError: Error | undefined;
  /** The parser's error (Node emits it on the request, with undici's HPE_ code). */
  let parseError: Error | undefined;
  /** The answer's head as it came, until it is whole: a parse error in it is told as undici tells it (`parserError`). */
  const head: Buffer[] = [];
  const keepHead = (d: Buffer) => head.push(d);
  req.on('socket', (socket: Socket) => {
    socket.on('error', (e) => (socketError ??= e));
    // Before Node's own listener: the chunk that completes the head (or breaks it) is kept when Node reports it.
    socket.prependListener('data', keepHead);
    // As undici's setupConnectTimeout: its timer, then a turn of the loop (two on Windows), then the error.
    const late = () => req.destroy(connectTimeout(socket, `${hostname}:${url.port || (tls ? 443 : 80)}`));
    arm(CONNECT_TIMEOUT_MS, () => {
      immediate = setImmediate(() => (process.platform === 'win32' ? (immediate = setImmediate(late)) : late()));
    });
    socket.once(tls ? 'secureConnect' : 'connect', () =>
      arm(opts.headersTimeout, () => req.destroy(undiciError('HeadersTimeoutError', 'UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error'))),
    );
  });
  req.end();
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      disarm();
      agent.destroy();
      reject(err);
      req.destroy(err);
    };
    req.on('error', (err: ParseError) => {
      if (err.code?.startsWith('HPE_')) parseError ??= settled ? parserError(err) : headError(err, head);
      fail(parseError ?? before(err, socketError));
    });
    // undici takes a 100 (not asked for) as a broken answer, and an upgrade it did not ask for too.
    req.on('continue', () => fail(undiciError('SocketError', 'UND_ERR_SOCKET', 'bad response')));
    req.on('upgrade', (_res, socket: Socket) => {
      socket.destroy();
      fail(undiciError('SocketError', 'UND_ERR_SOCKET', 'bad upgrade'));
    });
    req.on('response', (res: IncomingMessage) => {
      if (settled) return void res.destroy();
      req.socket?.off('data', keepHead);
      const raw = untrimmed(res.rawHeaders, head);
      if (tooLarge(raw)) return fail(undiciError('HeadersOverflowError', 'UND_ERR_HEADERS_OVERFLOW', 'Headers Overflow Error'));
      settled = true;
      disarm();
      const body = readBody(res, opts.bodyTimeout, () => ({ req, socketError, parseError }));
      body.then(
        () => agent.destroy(),
        () => agent.destroy(),
      );
      resolve({ statusCode: res.statusCode ?? 0, headers: headersOf(raw), body: { text: () => body } });
    });
  });
}

/** undici's ConnectTimeoutError for `socket` (onConnectTimeout): the addresses tried when Node tried several. */
function connectTimeout(socket: Socket, address: string): Error {
  const tried = (socket as Socket & { autoSelectFamilyAttemptedAddresses?: string[] }).autoSelectFamilyAttemptedAddresses;
  const where = Array.isArray(tried) ? `attempted addresses: ${tried.join(', ')}` : `attempted address: ${address}`;
  return undiciError(
    'ConnectTimeoutError',
    'UND_ERR_CONNECT_TIMEOUT',
    `Connect Timeout Error (${where}, timeout: ${CONNECT_TIMEOUT_MS}ms)`,
  );
}

/** Node's parse error: its HPE_ code, llhttp's reason, the chunk it came in and how far into it. */
type ParseError = Error & { code?: string; reason?: string; rawPacket?: Buffer; bytesParsed?: number };

/** Node's parse error as undici's HTTPParserError (whose code is unset: the user reads its message). */
function parserError(err: ParseError): Error {
  return undiciError('HTTPParserError', undefined, `Response does not match the HTTP/1.1 protocol (${err.reason ?? err.message})`);
}

/**
 * A parse error in the answer's head as undici reports it: a head too large as its overflow; one that had a whole
 * Content-Length line before the error (other than 0) as a length mismatch, the rule of undici's createError
 * (no body byte has been read); else the parser's error.
 */
function headError(err: ParseError, before: Buffer[]): Error {
  if (err.code === 'HPE_HEADER_OVERFLOW') return undiciError('HeadersOverflowError', 'UND_ERR_HEADERS_OVERFLOW', 'Headers Overflow Error');
  // `before` ends with the chunk Node was parsing (its rawPacket); the error came `bytesParsed` bytes into it.
  const chunk = err.rawPacket?.subarray(0, err.bytesParsed ?? 0) ?? Buffer.alloc(0);
  const lines = Buffer.concat([...before.slice(0, -1), chunk])
    .toString('latin1')
    .split('\r\n')
    .slice(1, -1);
  const length = lines.map((l) => /^content-length:[ \t]*(.*)$/i.exec(l)?.[1] ?? '').join('');
  return length !== '' && Number.parseInt(length, 10) !== 0 ? lengthMismatch() : parserError(err);
}

/**
 * Node's header values with the trailing blanks of their lines put back: llhttp hands undici a value from its
 * first non-blank byte to the end of its line, and Node trims its end. Read from the answer's head as it came
 * (after any 1xx answer's); a value folded over lines, or one that does not match its line, is left as Node read it.
 */
function untrimmed(raw: string[], head: Buffer[]): string[] {
  const text = Buffer.concat(head).toString('latin1');
  let at = 0;
  // Skip 1xx heads: the answer's head is the first whose status is 200 or more.
  while (/^HTTP\/\d\.\d 1\d\d/.test(text.slice(at)) && text.indexOf('\r\n\r\n', at) >= 0) at = text.indexOf('\r\n\r\n', at) + 4;
  const end = text.indexOf('\r\n\r\n', at);
  if (end < 0) return raw;
  const lines = text.slice(at, end).split('\r\n').slice(1);
  if (lines.length !== raw.length / 2) return raw;
  const out = [...raw];
  for (let i = 0; i < lines.length; i++) {
    const value = /^[^:]*:[ \t]*(.*)$/s.exec(lines[i]!)?.[1];
    if (value !== undefined && value !== raw[2 * i + 1] && value.replace(/[ \t]+$/, '') === raw[2 * i + 1]) out[2 * i + 1] = value;
  }
  return out;
}

/** Whether the headers' names and values come to undici's bound (http.maxHeaderSize), at which it refuses the answer. */
function tooLarge(raw: string[]): boolean {
  let size = 0;
  for (const s of raw) size += s.length;
  return size >= maxHeaderSize;
}

/**
 * The failure before an answer, as undici gives it: the socket's own error, or for a connection the other side
 * closed, "other side closed" (Node's "socket hang up"); timeouts and parse errors as they are.
 */
function before(err: Error & { code?: string }, socketError: Error | undefined): Error {
  if (err.code?.startsWith('UND_ERR_')) return err;
  if (socketError) return socketError;
  if (err.code === 'ECONNRESET' && err.message === 'socket hang up')
    return undiciError('SocketError', 'UND_ERR_SOCKET', 'other side closed');
  return err;
}

/** The body's text, read as it comes (the body timeout between chunks); a failure as undici's body fails. */
function readBody(
  res: IncomingMessage,
  bodyTimeout: number,
  state: () => { req: { shouldKeepAlive: boolean; destroy(e: Error): void }; socketError?: Error; parseError?: Error },
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let timedOut: Error | undefined;
    // Refreshed by each chunk, as undici's parser refreshes its body timer.
    const timer =
      bodyTimeout > 0
        ? timers.setFastTimeout(() => {
            timedOut = undiciError('BodyTimeoutError', 'UND_ERR_BODY_TIMEOUT', 'Body Timeout Error');
            state().req.destroy(timedOut);
          }, bodyTimeout)
        : undefined;
    const stop = () => timer && timers.clearFastTimeout(timer);
    res.on('data', (c: Buffer) => {
      chunks.push(c);
      received += c.length;
      timer?.refresh();
    });
    res.on('end', () => {
      stop();
      resolve(utf8(Buffer.concat(chunks)));
    });
    res.on('error', () => undefined);
    res.on('close', () => {
      stop();
      if (res.complete) return;
      const { req, socketError, parseError } = state();
      const length = res.headers['content-length'];
      const short = length !== undefined && received !== Number.parseInt(length, 10);
      if (timedOut) reject(timedOut);
      else if (parseError) reject(short ? lengthMismatch() : parseError);
      else if (req.shouldKeepAlive || (socketError && (socketError as { code?: string }).code !== 'ECONNRESET'))
        reject(socketError ?? undiciError('SocketError', 'UND_ERR_SOCKET', 'other side closed'));
      // undici ends an answer that does not keep the connection where the connection ends (llhttp's finish),
      // unless it had a length still due or was chunked.
      else if (short) reject(lengthMismatch());
      else if (res.headers['transfer-encoding'] !== undefined)
        reject(undiciError('HTTPParserError', undefined, 'Response does not match the HTTP/1.1 protocol (Invalid EOF state)'));
      else resolve(utf8(Buffer.concat(chunks)));
    });
  });
}

function lengthMismatch(): Error {
  return undiciError(
    'ResponseContentLengthMismatchError',
    'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
    'Response body length does not match content-length header',
  );
}

/** The text as undici's body.text() reads it (api/readable.js, chunksDecode): one leading byte-order mark skipped, then UTF-8. */
function utf8(bytes: Buffer): string {
  const bom = bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString('utf8', bom ? 3 : 0);
}

/** The answer's headers as undici's parseHeaders gives them: names in lower case, a repeated one as an array. */
export function headersOf(raw: string[]): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    const had = Object.hasOwn(out, key) ? out[key] : undefined;
    // defineProperty: a header named __proto__ is a header, as in undici, not the object's prototype.
    if (Array.isArray(had)) had.push(value);
    else
      Object.defineProperty(out, key, {
        value: had === undefined ? value : [had, value],
        enumerable: true,
        configurable: true,
        writable: true,
      });
  }
  return out;
}
