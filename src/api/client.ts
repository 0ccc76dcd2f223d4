/**
 * The typed client's core: resolves the endpoint's base (base_url, root_url), adds the bearer
 * token, `Accept` and `timezone` headers, maps failures to typed errors, retries once with a fresh
 * token after a 401.
 */
import type { Settings } from '../config/settings.js';
import { DecodeError, type Reader } from '../contract/decode.js';
import { normalisePath } from '../contract/request-path.js';
import { rateGroupOf, type RateGroup } from '../contract/rate-limits.js';
import { CliError } from '../errors.js';
import { BadAnswerError, errorFromResponse, NotSentError } from './errors.js';
import type { HttpClient, HttpRequest } from './http.js';
import { MarketClock } from './market-clock.js';
import { systemClock, type Clock } from '../clock.js';

/** Which of the API's base addresses a path hangs off. */
export type Base = 'base' | 'root' | 'auth';

export type { Page as ListEnvelope } from '../contract/decode.js';

/** A call to a resource; `decode` turns its 2xx answer into the resource. */
export interface Call<T> {
  method: HttpRequest['method'];
  base: Base;
  /** Path below the base, segments already encoded (use `seg`). */
  path: string;
  query?: URLSearchParams;
  json?: unknown;
  /** What the call does, for messages ("search listings"). */
  what: string;
  decode: Reader<T>;
}

/**
 * Gives a valid access token for the current profile: what the client asks before every resource call and,
 * after a 401, once more with `refresh: true`. Named here, by the client that needs it; src/auth/ provides it.
 */
export interface TokenProvider {
  /** A token to send; `refresh` asks for a new one because the last was refused. */
  accessToken(opts?: { refresh?: boolean }): Promise<string>;
}

/** Encodes one path segment. */
export const seg = (value: string | number): string => encodeURIComponent(String(value));

/** The authenticated client every resource module uses. */
export class ApiClient {
  /** The marketplace's clock, read from the `Date` of every answer this client receives. */
  readonly market: MarketClock;
  /** A token got by prepare(), sent by the next call without asking the provider again. */
  private prepared?: string;

  /** `clock` is this machine's, which the marketplace's runs on between answers. */
  constructor(
    readonly http: HttpClient,
    readonly settings: Settings,
    private readonly tokens: TokenProvider,
    clock: Pick<Clock, 'now'> = systemClock,
  ) {
    this.market = new MarketClock(clock);
  }

  /**
   * The marketplace's time now (epoch ms), from its latest answer's `Date`; this machine's clock before
   * any answer told it. What asks "now" of the marketplace (started listings, today's orders) reads this.
   */
  marketNow(): number {
    return this.market.now();
  }

  /** The absolute URL of `path` under `base`, the base's path read as the marketplace reads it (routedBase). */
  url(base: Base, path: string): string {
    const root = base === 'base' ? this.settings.baseUrl : base === 'root' ? this.settings.rootUrl : this.settings.authUrl;
    return `${routedBase(root)}${path.startsWith('/') ? '' : '/'}${path}`;
  }

  /**
   * Gets the access token the next call sends, waiting now for what getting it takes (the credentials'
   * lock, a refresh, a key exchange): the order desk prepares before journalling an order, so that the
   * time it records is when the POST leaves. A failure is a NotSentError, as in call().
   */
  async prepare(): Promise<void> {
    this.prepared = await beforeSending(this.tokens.accessToken());
  }

  /** Sends a resource call and returns the decoded answer, or throws the mapped error. */
  async call<T>(c: Call<T>): Promise<T> {
    let token = this.prepared ?? (await beforeSending(this.tokens.accessToken()));
    this.prepared = undefined;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { authorization: `bearer ${token}` };
      if (this.settings.timezone) headers.timezone = this.settings.timezone;
      const group = rateGroupOfCall(c.base, c.path);
      const res = await this.http.send({ method: c.method, url: this.url(c.base, c.path), query: c.query, json: c.json, headers, group });
      this.market.heard(res.headers.date);
      if (res.status >= 200 && res.status < 300) return decoded(c, res.data);
      const error = errorFromResponse(res.status, res.data, c.what);
      if (res.status === 401 && attempt === 0 && error.code === 'invalid_token') {
        // The marketplace refused the request: failing to get a fresh token leaves nothing placed.
        token = await beforeSending(this.tokens.accessToken({ refresh: true }));
        continue;
      }
      throw error;
    }
  }
}

/**
 * `root` with its path as the marketplace's router reads it (src/contract/request-path.ts: `//v1` is
 * `/v1`, `%76` is `v`, a trailing slash dropped), everything else as configured: a request goes to the
 * address the order journal keys by (src/orders/marketplace.ts), not to a spelling of it that some server
 * might read apart. A URL or path that cannot be read goes as configured, for the server to answer.
 */
export function routedBase(root: string): string {
  let u: URL;
  try {
    u = new URL(root);
  } catch {
    return root;
  }
  const norm = normalisePath(u.pathname);
  if ('problem' in norm) return root;
  u.pathname = norm.path;
  // The root path is '' under a base URL (paths are appended with their own '/'); the first '/' before
  // the query or the end is the path's: scheme, user info and host hold none.
  return norm.path === '/' ? u.href.replace(/\/(?=[?#]|$)/, '') : u.href;
}

/**
 * The rate-limit group a call counts in: its path read as the service's below the root (the base URL is the
 * root's `/v1`, the spec's {base_url}), whatever addresses the profile configures.
 */
export function rateGroupOfCall(base: Base, path: string): RateGroup | null {
  const p = path.startsWith('/') ? path : `/${path}`;
  return rateGroupOf(base === 'base' ? `/v1${p}` : p);
}

/** A token, or the failure to get one marked NotSentError: no request went out with it. */
async function beforeSending(token: Promise<string>): Promise<string> {
  try {
    return await token;
  } catch (err) {
    throw err instanceof CliError && !(err instanceof NotSentError) ? new NotSentError(err) : err;
  }
}

/** The answer as the call's resource, or BadAnswerError naming what did not fit. */
function decoded<T>(c: Call<T>, data: unknown): T {
  try {
    return c.decode(data, 'answer');
  } catch (err) {
    if (err instanceof DecodeError) throw new BadAnswerError(c.what, err);
    throw err;
  }
}
