/**
 * Injected faults (POST /__mock/faults), applied by the HTTP adapter to resource calls (never to admin
 * routes): added latency, a slow server (the request read whole, then handled later whether or not the
 * client still waits), 500 SYS0001, 429 with Retry-After, a connection dropped before the handler
 * runs, or the response dropped after it ran (the order exists, the client never hears). Bounded,
 * optionally limited to a path prefix, a method and a number of requests; `{}` clears them.
 */
import { validationError } from '../kit/api-error.js';
import { isAdminPath, normalisePath } from './request-target.js';
import { Rng } from '../kit/rng.js';

/** The fault settings. Rates are chances per matching request, 0 to 1. */
export interface FaultConfig {
  /** Added before the request is read: a client that gives up meanwhile leaves nothing to handle. */
  latency_ms: number;
  /**
   * Added after the request is read whole and before its handler runs, which runs even when the client
   * has gone meanwhile: a server (or a queue behind a proxy) that acts on an order after the client
   * stopped waiting for the answer.
   */
  handler_delay_ms: number;
  error_rate: number;
  rate_limit_rate: number;
  retry_after: number;
  drop_rate: number;
  drop_response_rate: number;
  /** Only requests whose path starts with this. */
  path: string | null;
  /** Only requests with this method. */
  method: string | null;
  /** Faults stop after this many matching requests (null: until cleared). */
  count: number | null;
}

/** What to do with one request. */
export type FaultAction = 'none' | 'error' | 'rate_limit' | 'drop' | 'drop_response';

const NONE: FaultConfig = {
  latency_ms: 0,
  handler_delay_ms: 0,
  error_rate: 0,
  rate_limit_rate: 0,
  retry_after: 1,
  drop_rate: 0,
  drop_response_rate: 0,
  path: null,
  method: null,
  count: null,
};
const MAX_LATENCY_MS = 30_000;
/** The decision for a request no fault applies to: one object for them all (read, never changed: frozen). */
const NO_FAULT = Object.freeze({ action: 'none' as const, latencyMs: 0, handlerDelayMs: 0, retryAfter: 0 });

function num(body: Record<string, unknown>, key: string, min: number, max: number, integer = false): number | undefined {
  const v = body[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw validationError(key, `must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`);
  }
  return v;
}

/** The `path` setting, normalised as request paths are (so `/v1/orders/` matches `/v1/orders`). */
function faultPath(path: string | null): string | null {
  if (path === null) return null;
  const norm = normalisePath(path.split('?')[0]!);
  if ('problem' in norm) throw validationError('path', norm.problem);
  return norm.path;
}

/** Reads fault settings from a request body (`{}` clears them); throws a 400 naming a bad field. */
function parseFaults(body: unknown): FaultConfig {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw validationError('body', 'must be a JSON object');
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b))
    if (!(k in NONE)) throw validationError(k, `unknown fault setting; known: ${Object.keys(NONE).join(', ')}`);
  const str = (k: string): string | null => {
    const v = b[k];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string' || v === '') throw validationError(k, 'must be a non-empty string');
    return v;
  };
  const config: FaultConfig = {
    latency_ms: num(b, 'latency_ms', 0, MAX_LATENCY_MS, true) ?? 0,
    handler_delay_ms: num(b, 'handler_delay_ms', 0, MAX_LATENCY_MS, true) ?? 0,
    error_rate: num(b, 'error_rate', 0, 1) ?? 0,
    rate_limit_rate: num(b, 'rate_limit_rate', 0, 1) ?? 0,
    retry_after: num(b, 'retry_after', 0, 3600, true) ?? 1,
    drop_rate: num(b, 'drop_rate', 0, 1) ?? 0,
    drop_response_rate: num(b, 'drop_response_rate', 0, 1) ?? 0,
    path: faultPath(str('path')),
    method: str('method')?.toUpperCase() ?? null,
    count: num(b, 'count', 1, 1_000_000, true) ?? null,
  };
  if (config.error_rate + config.rate_limit_rate + config.drop_rate + config.drop_response_rate > 1) {
    throw validationError('error_rate', 'the rates together must not exceed 1');
  }
  return config;
}

/** What a request meets: an action, a delay before it is read and one before it is handled (0: none), a 429's Retry-After. */
export interface FaultDecision {
  readonly action: FaultAction;
  readonly latencyMs: number;
  readonly handlerDelayMs: number;
  readonly retryAfter: number;
}

/** The faults of one mock: its settings and the random source that picks who gets one (survives a reset). */
export class Faults {
  private config: FaultConfig = { ...NONE };
  private readonly rng: Rng;

  constructor(seed: number) {
    this.rng = new Rng((seed ^ 0xfa017) >>> 0);
  }

  /** The current settings. */
  get(): FaultConfig {
    return { ...this.config };
  }

  /** Replaces the settings from a request body (`{}` clears them); throws a 400 naming a bad field. */
  set(body: unknown): FaultConfig {
    this.config = parseFaults(body);
    return this.get();
  }

  /**
   * Decides the fault for one request (admin routes never get one); returns the latency and handler delay to add too.
   * `path` is the normalised path (request-target.ts) the router sees, below the base path.
   */
  decide(method: string, path: string): FaultDecision {
    const c = this.config;
    const none = NO_FAULT;
    // Settings that do nothing first: most requests meet no fault at all, and are told so without a pattern run.
    const active = c.latency_ms > 0 || c.handler_delay_ms > 0 || c.error_rate + c.rate_limit_rate + c.drop_rate + c.drop_response_rate > 0;
    if (!active) return none;
    if (isAdminPath(path)) return none;
    // Exactly, as the router matches (router.ts): /V1/ORDERS reaches no route, so no fault on /v1/orders is for it.
    if (c.path && !path.startsWith(c.path)) return none;
    if (c.method && c.method !== method.toUpperCase()) return none;
    if (c.count !== null) {
      c.count -= 1;
      if (c.count <= 0) this.config = { ...NONE };
    }
    const r = this.rng.next();
    let edge = c.drop_rate;
    let action: FaultAction = 'none';
    if (r < edge) action = 'drop';
    else if (r < (edge += c.error_rate)) action = 'error';
    else if (r < (edge += c.rate_limit_rate)) action = 'rate_limit';
    else if (r < (edge += c.drop_response_rate)) action = 'drop_response';
    return { action, latencyMs: c.latency_ms, handlerDelayMs: c.handler_delay_ms, retryAfter: c.retry_after };
  }
}

/** The answer of a fault that answers instead of the handler (error, rate_limit), or null: the adapter and app.handle send the same. */
export function faultAnswer(decision: { action: FaultAction; retryAfter: number }): {
  status: number;
  body: { code: string; message: string };
  headers: Record<string, string>;
} | null {
  if (decision.action === 'error') return { status: 500, body: { code: 'SYS0001', message: 'Application Error' }, headers: {} };
  if (decision.action === 'rate_limit')
    return {
      status: 429,
      body: { code: 'SYS0429', message: `Too many requests; retry after ${decision.retryAfter} s` },
      headers: { 'retry-after': String(decision.retryAfter) },
    };
  return null;
}
