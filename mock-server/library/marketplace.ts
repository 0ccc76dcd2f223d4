/**
 * The marketplace as a library (`mkt/mock`): a world built from a seed, answering through msw handlers
 * in someone else's `setupServer` (Node) or `setupWorker` (a browser), with the admin surface of
 * `mkt mock serve` as typed methods. One request path: the handlers hand each request under their base
 * URL to the app's `handle`, which `mkt mock serve`'s HTTP adapter answers through too (app.ts), so the
 * three doors answer the same bytes. The admin methods run the admin routes in-process (no request-log
 * entry, no admin token): the same checks, the same 400s, thrown as a `MarketplaceError`. Nothing here
 * imports a `node:` module: the Node-only parts (an HTTP server) are in node.ts.
 */
import type { RequestHandler } from 'msw';
import { DEMO_CLIENT } from '../../src/contract/demo-client.js';
import { MOCK_ADMIN_PREFIX } from '../../src/contract/mock-admin.js';
import type { OutboxMessage, RequestLogEntry } from '../../src/contract/mock-inspect.js';
import type { SnapshotEntry, SnapshotLoaded } from '../../src/contract/mock-snapshots.js';
import type { NoteAnswerFields } from '../../src/contract/resources.js';
import { parseDuration } from '../../src/contract/duration.js';
import { parseReleaseTimes } from '../../src/contract/releases.js';
import { createMockApp, type IncomingRequest, type MockApp } from '../app.js';
import type { MockOptions } from '../context.js';
import type { FaultConfig } from '../http/faults.js';
import { parseRateLimitSpec, RATE_LIMIT_OFF, RATE_LIMIT_ON, type RateLimitSetting, type RateLimitState } from '../http/rate-limit.js';
import { parseBasePath } from '../http/request-target.js';
import { findClient } from '../oauth/clients.js';
import { scopesFor } from '../oauth/grants.js';
import { asResponse } from '../route-helper/route.js';
import { handlersUnder } from './handlers.js';
import { remember } from './internal.js';
import { accountReads } from './account-reads.js';

/** The virtual start when none is given: fixed, so the same seed and calls give the same answers on any day. */
export const DEFAULT_START = '2026-01-05T14:00:00Z';

/** How to build the marketplace. Every field is optional. */
export interface MarketplaceOptions {
  /** The seed every listing, loan and note is drawn from (default 1). */
  seed?: number;
  /** Active listings at the start (default 2000; 0: none, and none arrive, for a world filled with `listings.add`). */
  listings?: number;
  /** 'seeded' (default): years of originated loans and notes behind the investors; 'none': funded accounts only. */
  history?: 'seeded' | 'none';
  /** Users whose consent is given at once (the authorization-key flow skips its page for them), e.g. ['alice']. */
  autoApprove?: string[];
  /** The virtual time the world starts at (ISO text, epoch ms or a Date; default DEFAULT_START). */
  start?: string | number | Date;
  /** When new listings arrive: 'HH:00' times in America/New_York (default ['12:00', '18:00'], as the service), or 'steady' (every hour). */
  releases?: readonly string[] | 'steady';
  /** The clock stands still unless moved with `clock.advance` (default true); false: it runs with real time. */
  frozen?: boolean;
  /** Virtual milliseconds between accepting an order and processing it (default 1500, as `mkt mock serve`). */
  processDelayMs?: number;
  /** Extra OAuth clients as 'ID:SECRET:REDIRECT' (the seeded `mkt-demo` client is always there). */
  clients?: string[];
  /** The token endpoint also takes grant_type=password with a seeded user's id and password (outside the spec). */
  allowPasswordGrant?: boolean;
  /** The path every route is served under, as `mkt mock serve --base-path` (default none). */
  basePath?: string;
  /** Requests the request log keeps (default 1000; 0: none). */
  requestLogSize?: number;
  /** A fresh investor besides the seeded users, with one account (`{id}-1`) funded with `cash` dollars (what `mkt invest simulate` starts from). */
  investor?: { id: string; cash: number };
  /** Check every answer against the OpenAPI document, mismatches appended to this file (Node only). */
  checkAnswers?: string;
  /**
   * Throttle as the service does (429 past a limit, per client token, over real time): true for the stated
   * limits, or a spec as `mkt mock serve --rate-limit` takes ('listings=5', '20'). Default false: a test
   * suite in-process runs as fast as its machine, and its answers should not depend on how fast that is.
   */
  rateLimit?: boolean | string;
}

/** An admin call the marketplace refused: the HTTP status and the API's error code and message. */
export class MarketplaceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'MarketplaceError';
  }
}

/** A user and what the password grant takes, as GET /__mock/state lists them. */
export interface MarketplaceUser {
  user: string;
  name: string;
  password: string;
  accounts: string[];
  email: string | null;
  notifications: boolean;
}

/** What `handlers` serves. */
export interface HandlerOptions {
  /** The admin routes (/__mock/*, the dashboard) too (default true); false answers them 404, as `--no-admin`. */
  admin?: boolean;
}

/** What `tokenFor` grants. */
export interface TokenOptions {
  /** The scopes (default the read/write pair the consent page grants). */
  scopes?: readonly string[];
  /** The OAuth client the token is for (default the seeded `mkt-demo`). */
  client?: string;
  /** How long the access token stays valid in virtual time, e.g. '400d' (default the service's hour). */
  expiresIn?: string | number;
}

/** The marketplace: msw handlers over one world, and the admin surface as methods. */
export interface Marketplace {
  /** msw request handlers for everything under `baseUrl` (default 'https://api.example.test'): API, OAuth, consent page, admin. */
  handlers(baseUrl?: string, options?: HandlerOptions): RequestHandler[];
  /** Answers one Fetch request as the handlers do (for a transport of your own). */
  handle(request: Request): Promise<Response>;
  readonly clock: {
    /** The virtual time. */
    now(): Date;
    /** Moves the clock forward by a duration ('90m', '24h', '15d', 'PT1H', or ms); orders due are processed, loans serviced. */
    advance(by: string | number): Promise<Date>;
    /** Moves the clock forward to an instant. */
    to(when: string | number | Date): Promise<Date>;
  };
  /** Processes every queued order now (POST /__mock/process); returns how many. */
  process(): Promise<number>;
  readonly faults: {
    get(): Promise<FaultConfig>;
    /** Replaces the faults (latency_ms, error_rate, rate_limit_rate, drop_rate, path, method, count, …): POST /__mock/faults. */
    set(faults: Partial<FaultConfig>): Promise<FaultConfig>;
    clear(): Promise<FaultConfig>;
  };
  readonly rateLimit: {
    get(): Promise<RateLimitState>;
    /** Turns the throttle on or off, or changes limits (POST /__mock/rate-limit); every window starts over. */
    set(setting: { enabled?: boolean; limits?: Partial<RateLimitSetting['limits']> }): Promise<RateLimitState>;
  };
  /** Rebuilds the world from the seed at the current virtual time. */
  reset(): Promise<void>;
  /** GET /__mock/state: counts, balances, users, special listings, the invariant check. */
  state(): Promise<Record<string, unknown>>;
  readonly snapshots: {
    save(name: string, options?: { replace?: boolean }): Promise<SnapshotEntry>;
    /** The world as saved, at its saved time (the clock goes back with it); `keepClock`: brought forward to the clock instead. */
    load(name: string, options?: { keepClock?: boolean }): Promise<SnapshotLoaded>;
    list(): Promise<SnapshotEntry[]>;
    remove(name: string): Promise<void>;
  };
  readonly requests: {
    /** The request log, newest first (what the handlers answered). */
    list(options?: { limit?: number; since?: string; violations?: boolean }): Promise<RequestLogEntry[]>;
    clear(): Promise<number>;
  };
  readonly outbox: {
    /** The notification emails the marketplace sent, newest first. */
    list(options?: { to?: string; orderId?: string }): Promise<OutboxMessage[]>;
    clear(): Promise<number>;
  };
  /** The users, their passwords and accounts. */
  accounts(): Promise<MarketplaceUser[]>;
  /** An access token of `user`'s first account, granted and exchanged as the authorization-key flow does. */
  tokenFor(user: string, options?: TokenOptions): Promise<string>;
  readonly listings: {
    /** Adds a listing with chosen fields (POST /__mock/listings), the rest drawn from the seed; returns it as the API shows it. */
    add(fields: Record<string, unknown>): Promise<Record<string, unknown>>;
  };
  /** What an account holds, read without a request. */
  account(accountId: string): {
    /** Its notes as GET /notes/ answers them, in one pass. */
    notes(): NoteAnswerFields[];
    /** What its ledger credited for payments between two instants (`from` included, `to` not), to the cent. */
    credited(from: number, to: number): number;
  };
  /** Stops its timers (a running clock, webhooks) and, in Node, lets go the thread its long clock moves drew arrivals on. */
  close(): Promise<void>;
}

const DEFAULT_BASE_URL = 'https://api.example.test';

/** An instant given as ISO text, epoch ms or a Date, as epoch ms; throws naming what was wrong. */
function instant(what: string, when: string | number | Date): number {
  const t = when instanceof Date ? when.getTime() : typeof when === 'number' ? when : Date.parse(when);
  if (!Number.isFinite(t)) throw new TypeError(`${what}: not a time: ${String(when)}`);
  return t;
}

/** Builds the marketplace. Deterministic: the same options and calls give the same answers (tokens and keys aside, which are random). */
export function createMarketplace(options: MarketplaceOptions = {}): Marketplace {
  return marketplaceOn(options, {});
}

/**
 * What the entry that builds a marketplace adds to it: Node's (node.ts) draws a long clock move's arrivals on another
 * thread, as `mkt mock serve` does, and lets the thread go as the marketplace closes. Not exported by the public entries.
 */
export interface MarketplaceHost {
  /** Draws a long clock move's arrivals ahead of its ticks (engine/arrivals-thread.ts). */
  arrivalsAhead?: MockOptions['arrivalsAhead'];
  /** Called as the marketplace closes, after its app. */
  close?: () => Promise<unknown>;
}

/** createMarketplace, with what `host` adds. */
export function marketplaceOn(options: MarketplaceOptions, host: MarketplaceHost): Marketplace {
  const start = instant('start', options.start ?? DEFAULT_START);
  for (const key of ['seed', 'listings', 'processDelayMs', 'requestLogSize'] as const) {
    const v = options[key];
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= 0)) throw new TypeError(`${key}: a whole number >= 0, got ${String(v)}`);
  }
  const releases =
    options.releases === undefined ? undefined : parseReleaseTimes(options.releases === 'steady' ? 'steady' : options.releases.join(','));
  if (releases && 'problem' in releases) throw new TypeError(`releases: ${releases.problem}`);
  if (options.history !== undefined && options.history !== 'seeded' && options.history !== 'none')
    throw new TypeError(`history: 'seeded' or 'none', got ${String(options.history)}`);
  const basePath = options.basePath === undefined ? '' : checkedBasePath(options.basePath);
  const rateLimit = rateLimitOption(options.rateLimit);
  const app = createMockApp(
    {
      seed: options.seed ?? 1,
      listings: options.listings ?? 2000,
      start,
      frozen: options.frozen ?? true,
      admin: true,
      basePath,
      ...(options.history ? { history: options.history } : {}),
      ...(releases ? { releases: releases.minutes ?? ('steady' as const) } : {}),
      ...(options.autoApprove ? { autoApprove: options.autoApprove } : {}),
      ...(options.processDelayMs !== undefined ? { processDelayMs: options.processDelayMs } : {}),
      ...(options.clients ? { clients: options.clients } : {}),
      ...(options.allowPasswordGrant ? { allowPasswordGrant: true } : {}),
      ...(options.requestLogSize !== undefined ? { requestLogSize: options.requestLogSize } : {}),
      ...(options.investor ? { investor: options.investor } : {}),
      ...(options.checkAnswers ? { checkAnswers: options.checkAnswers } : {}),
      rateLimit,
      ...(host.arrivalsAhead ? { arrivalsAhead: host.arrivalsAhead } : {}),
    },
    // The real clock: a running virtual clock runs with it from `start` (a frozen one never reads it), the request log stamps it.
    Date.now,
  );
  const admin = adminCaller(app, basePath);
  const market: Marketplace = {
    handlers: (baseUrl = DEFAULT_BASE_URL, o = {}) => handlersUnder(app, basePath, baseUrl, o.admin ?? true),
    handle: (request) => app.handle(request),
    clock: {
      now: () => new Date(app.ctx.clock.now()),
      advance: async (by) => {
        // Milliseconds move to the instant they reach (the admin route's `to` carries them exactly); text is its `advance`.
        if (typeof by === 'number') {
          if (!Number.isSafeInteger(by) || by < 0) throw new TypeError(`clock.advance: not a whole number of ms >= 0: ${by}`);
          await admin('POST', '/clock', { to: new Date(app.ctx.clock.now() + by).toISOString() });
          return new Date(app.ctx.clock.now());
        }
        if (parseDuration(by) === null) throw new TypeError(`clock.advance: not a duration: ${by}`);
        await admin('POST', '/clock', { advance: by });
        // The clock itself, not the answer's text (whole seconds).
        return new Date(app.ctx.clock.now());
      },
      to: async (when) => {
        await admin('POST', '/clock', { to: new Date(instant('clock.to', when)).toISOString() });
        return new Date(app.ctx.clock.now());
      },
    },
    process: async () => (await admin<{ processed: number }>('POST', '/process')).processed,
    faults: {
      get: () => admin<FaultConfig>('GET', '/faults'),
      set: (faults) => admin<FaultConfig>('POST', '/faults', faults),
      clear: () => admin<FaultConfig>('POST', '/faults', {}),
    },
    rateLimit: {
      get: () => admin<RateLimitState>('GET', '/rate-limit'),
      set: (setting) => admin<RateLimitState>('POST', '/rate-limit', setting),
    },
    reset: async () => void (await admin('POST', '/reset')),
    state: () => admin<Record<string, unknown>>('GET', '/state'),
    snapshots: {
      save: (name, o = {}) => admin<SnapshotEntry>('POST', '/snapshots', { name, ...(o.replace ? { replace: true } : {}) }),
      load: (name, o = {}) =>
        admin<SnapshotLoaded>('POST', `/snapshots/${encodeURIComponent(name)}/load`, o.keepClock ? { keep_clock: true } : undefined),
      list: async () => (await admin<{ result: SnapshotEntry[] }>('GET', '/snapshots?limit=1000')).result,
      remove: async (name) => void (await admin('DELETE', `/snapshots/${encodeURIComponent(name)}`)),
    },
    requests: {
      list: async (o = {}) => {
        const q = new URLSearchParams({ limit: String(o.limit ?? 1000) });
        if (o.since) q.set('since', o.since);
        if (o.violations) q.set('violations', 'true');
        return (await admin<{ result: RequestLogEntry[] }>('GET', `/requests?${q}`)).result;
      },
      clear: async () => (await admin<{ cleared: number }>('DELETE', '/requests')).cleared,
    },
    outbox: {
      list: async (o = {}) => {
        const q = new URLSearchParams({ limit: '1000' });
        if (o.to) q.set('to', o.to);
        if (o.orderId) q.set('order_id', o.orderId);
        return (await admin<{ result: OutboxMessage[] }>('GET', `/outbox?${q}`)).result;
      },
      clear: async () => (await admin<{ cleared: number }>('DELETE', '/outbox')).cleared,
    },
    accounts: async () => (await admin<{ users: MarketplaceUser[] }>('GET', '/state')).users,
    tokenFor: async (user, o = {}) => grantToken(app, user, o),
    listings: {
      add: (fields) => admin<Record<string, unknown>>('POST', '/listings', fields),
    },
    account: (accountId) => accountReads(app, accountId),
    close: async () => {
      try {
        await app.close?.();
      } finally {
        await host.close?.();
      }
    },
  };
  remember(market, app);
  return market;
}

/** The `rateLimit` option as the throttle's setting; throws naming what was wrong. */
function rateLimitOption(given: boolean | string | undefined): RateLimitSetting {
  if (given === undefined || given === false) return RATE_LIMIT_OFF;
  if (given === true) return RATE_LIMIT_ON;
  const parsed = typeof given === 'string' ? parseRateLimitSpec(given) : { problem: `not true, false or a spec: ${String(given)}` };
  if ('problem' in parsed) throw new TypeError(`rateLimit: ${parsed.problem}`);
  return parsed.setting;
}

function checkedBasePath(raw: string): string {
  const parsed = parseBasePath(raw);
  if ('problem' in parsed) throw new TypeError(`basePath: ${parsed.problem}`);
  return parsed.basePath;
}

/** Calls an admin route in-process; a 4xx or 5xx answer is thrown as a MarketplaceError. */
function adminCaller(app: MockApp, basePath: string) {
  return async <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => {
    const url = new URL(`http://marketplace.invalid${basePath}${MOCK_ADMIN_PREFIX}${path}`);
    const text = body === undefined ? null : JSON.stringify(body);
    const bytes = text === null ? null : new TextEncoder().encode(text);
    const headers = new Headers(text === null ? {} : { 'content-type': 'application/json' });
    const request: IncomingRequest = {
      method,
      url: url.href,
      parsedUrl: url,
      headers,
      body: bytes,
      text: async () => text ?? '',
      toRequest: () => new Request(url, { method, headers, ...(bytes ? { body: bytes } : {}) }),
    };
    const response = asResponse(await app.answer(request));
    const answer = (await response.json()) as unknown;
    if (response.status >= 400) {
      const e = answer as { code?: string; message?: string };
      throw new MarketplaceError(response.status, e.code ?? String(response.status), e.message ?? response.statusText);
    }
    return answer as T;
  };
}

/** `tokenFor`: the consent's grant and the token endpoint's exchange, both as operations of the world. */
function grantToken(app: MockApp, userId: string, o: TokenOptions): string {
  const { ctx } = app;
  const user = ctx.world.users.get(userId);
  const accountId = user?.accountIds[0];
  if (!user || !accountId) throw new MarketplaceError(400, 'VAL0001', `tokenFor: no user '${userId}' with an account`);
  const clientId = o.client ?? DEMO_CLIENT.clientId;
  const secret = findClient(ctx, clientId)?.secret;
  if (secret === undefined) throw new MarketplaceError(400, 'VAL0001', `tokenFor: no OAuth client '${clientId}'`);
  const scopes = o.scopes ?? scopesFor('read_write');
  const grant = ctx.perform({ kind: 'grant', client: clientId, account: accountId, scopes });
  const form = new URLSearchParams({
    grant_type: 'authorization_key',
    client_id: clientId,
    client_secret: secret,
    auth_key: grant.authKey,
  });
  const tokens = ctx.perform({ kind: 'token', form: form.toString() });
  if (o.expiresIn !== undefined) {
    const ms = typeof o.expiresIn === 'number' ? o.expiresIn : parseDuration(o.expiresIn);
    if (ms === null || ms <= 0) throw new TypeError(`tokenFor: expiresIn is not a duration: ${String(o.expiresIn)}`);
    // A test's long token: longer than the service's hour, kept in this world only (the library keeps no log).
    ctx.world.tokens.get(tokens.access_token)!.expiresAt = ctx.clock.now() + ms;
  }
  return tokens.access_token;
}
