/**
 * The HTTP layer on undici: one keep-alive pool, timeouts, retries for GETs only (429, 5xx,
 * connection errors; capped backoff with jitter; Retry-After honoured), a redacted --verbose trace.
 * A POST that moves money is never retried here.
 */
import type { Agent as AgentType } from 'undici';
import { Agent, request } from './undici.js';
import { systemErrorWords } from '../errors.js';
import { ConnectionError } from './errors.js';
import { redactUserInfo } from '../redact-url.js';

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
  maxRetries?: number;
  /** Receives trace lines when --verbose is on. */
  trace?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const MAX_BACKOFF_MS = 8000;
const MAX_RETRY_AFTER_MS = 30_000;
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

/** Delay before retry `attempt` (0-based): Retry-After when given, else capped exponential backoff with jitter. */
export function retryDelay(attempt: number, retryAfter: string | undefined, random: () => number, now = Date.now()): number {
  if (retryAfter) {
    const secs = Number(retryAfter);
    if (Number.isFinite(secs) && secs >= 0) return Math.min(secs * 1000, MAX_RETRY_AFTER_MS);
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
  }
  const base = Math.min(MAX_BACKOFF_MS, 250 * 2 ** attempt);
  return Math.round(base / 2 + random() * (base / 2));
}

/** A client over one undici keep-alive pool. */
export class HttpClient {
  private readonly agent: AgentType;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(private readonly opts: HttpOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.maxRetries = opts.maxRetries ?? 3;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.random = opts.random ?? Math.random;
    this.agent = new Agent({ keepAliveTimeout: 10_000, connections: 8, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs });
  }

  /** Sends `req`, retrying GETs on 429, 5xx and connection errors. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const retryable = req.method === 'GET';
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await this.once(req);
        const again = retryable && (res.status === 429 || res.status >= 500) && attempt < this.maxRetries;
        if (!again) return res;
        const ra = res.headers['retry-after'];
        const delay = retryDelay(attempt, Array.isArray(ra) ? ra[0] : ra, this.random);
        this.opts.trace?.(`  retrying in ${delay} ms (HTTP ${res.status})`);
        await this.sleep(delay);
      } catch (err) {
        if (!(err instanceof ConnectionError) || !retryable || attempt >= this.maxRetries) throw err;
        const delay = retryDelay(attempt, undefined, this.random);
        this.opts.trace?.(`  retrying in ${delay} ms (${err.message})`);
        await this.sleep(delay);
      }
    }
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
    try {
      res = await request(this.agent, url, { method: req.method, headers, body, headersTimeout: timeout, bodyTimeout: timeout });
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

  /** Closes the pool so the process can end. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}
