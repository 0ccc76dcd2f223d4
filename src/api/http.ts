/**
 * The HTTP layer on undici: one keep-alive pool, timeouts, a redacted --verbose trace, and the pacer
 * (pacer.ts) asked before each request of a rate-limited group. A client's first request, when it is a plain
 * GET, goes out on a connection of its own over node:http instead (one-shot.ts, which answers and fails as
 * undici does): a command that sends one request never loads undici; the pool is made at the second (a
 * retry included). GETs are retried on 5xx and connection errors (capped backoff with jitter; Retry-After
 * honoured). A 429 is sent again, whatever the method, after the wait the service asks, up to a bound
 * (THROTTLE_WAIT_BOUND_MS): the service refused the request unread (RFC 6585; the throttled body carries no resource: src/contract/rate-limits.ts), so sending it again
 * is sending it once. Any other failed POST, one that moves money, is never sent again here.
 */
import type { Agent as AgentType } from 'undici';
import { canSendOneShot, sendOneShot, type Answer, type SendOptions } from './one-shot.js';
import { systemErrorWords } from '../errors.js';
import { ConnectionError, errorFromResponse, ThrottledError } from './errors.js';
import { redactUserInfo } from '../redact-url.js';
import { systemClock, type Clock } from '../clock.js';
import type { RateGroup } from '../contract/rate-limits.js';
import { Pacer } from './pacer.js';

/** One request. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  query?: URLSearchParams;
  headers?: Record<string, string>;
  /** JSON body. */
  json?: unknown;
  /** Form-urlencoded body. */
  form?: Record<string, string>;
  /** This request's answer timeout instead of the client's (0: none, for an answer that takes as long as its work). */
  timeoutMs?: number;
  /** The rate-limit group it counts in (src/contract/rate-limits.ts): the pacer spaces it; none is not paced. */
  group?: RateGroup | null;
}

/** A parsed answer. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the text when the body is not JSON. */
  data: unknown;
}

/** Knobs and injected pieces. */
export interface HttpOptions {
  timeoutMs?: number;
  /** Retries of a GET on 5xx or a connection error; 0 also sends no 429 again (the answer is returned as it is). */
  maxRetries?: number;
  /** Receives trace lines when --verbose is on. */
  trace?: (line: string) => void;
  /** Reads the time (Retry-After dates, the pacer) and waits; `sleep`, when given, waits instead. */
  clock?: Pick<Clock, 'now' | 'sleep'>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** The process's pacer (CommandContext shares one); a client of its own otherwise, on `clock` and `sleep`. */
  pacer?: Pacer;
  /** false: the first GET goes through undici's pool too, as every other request (test/http-one-shot.test.ts compares the two). */
  oneShot?: boolean;
}

const MAX_BACKOFF_MS = 8000;
const MAX_RETRY_AFTER_MS = 30_000;
/**
 * The most one request waits in all on 429s before it fails (exit 5, ThrottledError): a minute rides out a
 * throttled second or a busy spell of another client on the same credentials; a longer Retry-After means the
 * service wants the client gone for longer than a command should sit silent.
 */
export const THROTTLE_WAIT_BOUND_MS = 60_000;
/** The most times one request is sent again after a 429 (Retry-After: 0 in a storm must end too). */
export const MAX_THROTTLED_RESENDS = 10;
/** Failures that come before a connection exists: the request cannot have left this machine. */
const NEVER_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Replaces secret values in a form or JSON text with `***`. */
export function redact(text: string): string {
  return text
    .replace(/("(?:client_secret|auth_key|refresh_token|access_token|ssn)"\s*:\s*)"[^"]*"/gi, '$1"***"')
    .replace(/\b(client_secret|auth_key|refresh_token|access_token)=([^&\s]+)/gi, '$1=***');
}

/** The wait a Retry-After value asks (delay-seconds or an HTTP date, read against `now`), or undefined when it has none readable. */
export function retryAfterMs(retryAfter: string | undefined, now: number): number | undefined {
  if (!retryAfter?.trim()) return undefined;
  const secs = Number(retryAfter);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const at = Date.parse(retryAfter);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** Delay before retry `attempt` (0-based): Retry-After when given, else capped exponential backoff with jitter. */
export function retryDelay(attempt: number, retryAfter: string | undefined, random: () => number, now = Date.now()): number {
  const asked = retryAfterMs(retryAfter, now);
  if (asked !== undefined) return Math.min(asked, MAX_RETRY_AFTER_MS);
  const base = Math.min(MAX_BACKOFF_MS, 250 * 2 ** attempt);
  return Math.round(base / 2 + random() * (base / 2));
}

/** undici's pool and its `request`, loaded with the pool (src/api/undici.ts). */
interface Pool {
  agent: AgentType;
  request: (agent: AgentType, url: URL, opts: SendOptions) => Promise<Answer>;
}

/** A client over one undici keep-alive pool (made at its first request that does not go out alone). */
export class HttpClient {
  private pool: Promise<Pool> | undefined;
  /** Whether the next request may go out alone (one-shot.ts): only the client's first. */
  private firstRequest: boolean;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;
  /** Spaces the requests of each rate-limited group (pacer.ts). */
  readonly pacer: Pacer;

  constructor(private readonly opts: HttpOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.maxRetries = opts.maxRetries ?? 3;
    const clock = opts.clock ?? systemClock;
    this.sleep = opts.sleep ?? ((ms) => clock.sleep(ms));
    this.now = () => clock.now();
    this.pacer = opts.pacer ?? new Pacer({ now: this.now, sleep: this.sleep });
    this.random = opts.random ?? Math.random;
    this.firstRequest = opts.oneShot ?? true;
  }

  /** How `url` goes out: alone when it is the client's first request and one-shot.ts sends it as undici would, else through the pool. */
  private async sender(url: URL, opts: SendOptions): Promise<() => Promise<Answer>> {
    const alone = this.firstRequest && canSendOneShot(url, opts);
    this.firstRequest = false;
    if (alone) return () => sendOneShot(url, opts);
    this.pool ??= import('./undici.js').then(({ Agent, request }) => ({
      agent: new Agent({ keepAliveTimeout: 10_000, connections: 8, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs }),
      request,
    }));
    const { agent, request } = await this.pool;
    return () => request(agent, url, opts);
  }

  /**
   * Sends `req` when the pacer lets it go; sends it again after a 429 (within the bound, else ThrottledError),
   * and a GET after a 5xx or a connection error.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const retryable = req.method === 'GET';
    const throttled = { waited: 0, resends: 0 };
    for (let attempt = 0; ;) {
      if (req.group) await this.pacer.take(req.group);
      try {
        const res = await this.once(req);
        if (res.status === 429 && this.maxRetries > 0) {
          const wait = this.afterThrottle(req, res, throttled);
          // A paced group waits in the pacer (its next take), with every other request of the group.
          if (!req.group) await this.sleep(wait);
          continue;
        }
        const again = retryable && res.status >= 500 && attempt < this.maxRetries;
        if (!again) return res;
        const ra = res.headers['retry-after'];
        const delay = retryDelay(attempt++, Array.isArray(ra) ? ra[0] : ra, this.random, this.now());
        this.opts.trace?.(`  retrying in ${delay} ms (HTTP ${res.status})`);
        await this.sleep(delay);
      } catch (err) {
        if (!(err instanceof ConnectionError) || !retryable || attempt >= this.maxRetries) throw err;
        const delay = retryDelay(attempt++, undefined, this.random);
        this.opts.trace?.(`  retrying in ${delay} ms (${err.message})`);
        await this.sleep(delay);
      }
    }
  }

  /**
   * After a 429: the wait before `req` goes again (Retry-After, else backoff), told to the pacer and added to
   * `t`; a ThrottledError when that wait would take the request's waiting past the bound, or resends run out.
   */
  private afterThrottle(req: HttpRequest, res: HttpResponse, t: { waited: number; resends: number }): number {
    const ra = res.headers['retry-after'];
    const asked = retryAfterMs(Array.isArray(ra) ? ra[0] : ra, this.now());
    const wait = asked ?? retryDelay(t.resends, undefined, this.random);
    if (t.waited + wait > THROTTLE_WAIT_BOUND_MS || t.resends >= MAX_THROTTLED_RESENDS) {
      const refused = errorFromResponse(res.status, res.data, `${req.method} ${new URL(req.url).pathname}`);
      const why =
        t.resends >= MAX_THROTTLED_RESENDS
          ? `throttled ${t.resends + 1} times in a row`
          : `the marketplace asked to wait ${seconds(wait)}${t.waited ? ` more after ${seconds(t.waited)}` : ''}, past mkt's bound of ${seconds(THROTTLE_WAIT_BOUND_MS)} of waiting for one request`;
      const limit = req.group ? ` (${req.group} group: ${this.pacer.limitOf(req.group)} requests a second)` : '';
      throw new ThrottledError(`${refused.message}; ${why}${limit}`, refused.code, res.data, req.group ?? null, wait);
    }
    // Only a wait mkt will sit out holds the group: past the bound the request fails at once, and the next
    // request of the group (a run that goes on after a failure) meets the service's answer itself.
    if (req.group) this.pacer.throttled(req.group, wait);
    t.waited += wait;
    t.resends++;
    this.opts.trace?.(`  throttled (HTTP 429${req.group ? `, ${req.group}` : ''}): sending again in ${wait} ms`);
    return wait;
  }

  private async once(req: HttpRequest): Promise<HttpResponse> {
    const url = new URL(req.url);
    if (req.query) for (const [k, v] of req.query) url.searchParams.append(k, v);
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    let body: string | undefined;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    } else if (req.form) {
      body = new URLSearchParams(req.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const trace = this.opts.trace;
    const started = Date.now();
    if (trace) {
      trace(`> ${req.method} ${redactUserInfo(url.toString())}`);
      for (const [k, v] of Object.entries(headers)) trace(`> ${k}: ${/^authorization$/i.test(k) ? v.replace(/\s.*$/, ' ***') : v}`);
      if (body) trace(`> ${redact(body)}`);
    }
    let res;
    const timeout = req.timeoutMs ?? this.timeoutMs;
    const send = await this.sender(url, { method: req.method, headers, body, headersTimeout: timeout, bodyTimeout: timeout });
    try {
      res = await send();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new ConnectionError(`cannot reach ${url.origin}: ${systemErrorWords(err)}`, err, !NEVER_CONNECTED.has(String(code)));
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (err) {
      throw new ConnectionError(`connection to ${url.origin} broke while reading the answer: ${systemErrorWords(err)}`, err);
    }
    if (trace) {
      trace(`< ${res.statusCode} (${Date.now() - started} ms)`);
      trace(`< ${redact(text.length > 2000 ? `${text.slice(0, 2000)}…` : text)}`);
    }
    let data: unknown = text;
    if (text && /json/i.test(String(res.headers['content-type'] ?? ''))) {
      try {
        data = JSON.parse(text);
      } catch {
        data = text;
      }
    }
    return { status: res.statusCode, headers: res.headers, data };
  }

  /** Closes the pool so the process can end (a request that went out alone closes its own connection). */
  async close(): Promise<void> {
    if (this.pool) await (await this.pool).agent.close();
  }
}

/** `ms` in seconds for a message: "2 s", "0.5 s". */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
