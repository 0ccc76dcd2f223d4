/**
 * The request log: the last N requests the mock answered (a ring buffer, O(1) per request), each
 * with its times on the real and the virtual clock, the normalised path, the status, the duration,
 * the account its token acts for, and headers, query and JSON body with secrets redacted (redact.ts).
 * Two callers record into it, each once per request: the HTTP adapter for every request on the wire
 * (refused ones included) and `app.handle` for in-process ones. Reads and clears of the request log
 * itself are not recorded, so following it does not fill it.
 *
 * Redaction is done when an entry is first read, not when it is recorded (it cost as much as a whole
 * order): recording keeps what was seen together with the secrets the mock knew then that can be
 * forgotten later (the few-secret list of that moment, and every live token found in the text), and a
 * read redacts with those and with what it knows at the time of reading, so an entry never shows more
 * than an entry redacted at once would. A part whose text can hide a token from a plain scan (a body
 * with JSON escapes, a query with percent-escapes or `+`) is redacted when recorded, as before.
 */
import { formatDateTime } from '../../src/contract/dates.js';
import type { ExchangeViolation, RequestLogEntry } from '../../src/contract/mock-inspect.js';
import { DASHBOARD_HEADER } from '../../src/contract/mock-admin.js';
import { redactHeaders, redactJson, redactQuery, scrub, type KnownSecrets } from '../http/redact.js';
import { isAdminPath } from '../http/request-target.js';
import { blankRecorded, headerNames, sameHeaders, sameList, type Recorded } from './recorded.js';
import { liveRuns, TokenRuns } from './token-runs.js';

/** A JSON body longer than this is not kept (its size is). */
const MAX_KEPT_BODY = 64 * 1024;
/** The route of the request log itself, in any spelling the router accepts. */
const JOURNAL_PATH = /(^|\/)__mock\/requests$/i;
/** The token endpoint: its body (a form of credentials) is never kept, whatever its content type. */
const TOKEN_PATH = /\/oauth\/token$/i;
/** A body that is (or says it is) JSON: JSON types, text/plain as fetch sends a string, or no type. */
const JSON_TYPE = /^(application\/([\w.+-]+\+)?json|text\/plain)\s*(;|$)/i;
/**
 * Long base64url runs mixing upper and lower case: random credentials, issued or not (an expired token
 * is no longer in the world). 32 random base64url characters lack one of the cases once in ~10^7.
 */
const RANDOM_CREDENTIAL = /^(?=.*[A-Z])(?=.*[a-z])[A-Za-z0-9_-]{24,}$/;

/**
 * What the request log asks of the server it records for: a mock (mockRequestLogHost) or a proxy, which has no
 * world and knows only the secrets it saw pass (mock-server/proxy/).
 */
export interface RequestLogHost {
  /** The virtual clock's time (ms); a server without one gives the real time. */
  virtualNow(): number;
  /** The live tokens by value: a mock's world (replaced on reset, so read each time), or what a proxy saw issued. */
  readonly tokens: ReadonlyMap<string, { kind: string; accountId: string | null }>;
  /** Writes the few secrets known now (client secrets, auth keys, passwords) into `few` from index `from`; returns the new count. */
  gatherFew(few: string[], from: number): number;
}

/** When and from whom a request arrived (null from `arrive` when the request log is off). */
export interface Arrival {
  realAt: number;
  virtualAt: number;
  started: number;
  account: string | null;
}

/** What the recorder saw of a request and its answer. */
export interface Seen {
  method: string;
  /** The normalised path. */
  path: string;
  /** The query string, with or without `?`. */
  search: string;
  /** A Fetch request's headers, or node's (names in lower case). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The body text when `keepsBody` said to read it; null otherwise. */
  bodyText: string | null;
  /** The status answered; null when the connection was dropped. */
  status: number | null;
  fault?: string | null;
  /** What a proxy found different from the OpenAPI document (proxy/): kept on the entry as `violations`. */
  violations?: ExchangeViolation[];
}

/** Whether a request's body is one the request log keeps (so the recorder reads it): a JSON call's, never the token endpoint's. */
export function keepsBody(method: string, path: string, contentType: string | null | undefined): boolean {
  if (method === 'GET' || method === 'HEAD' || TOKEN_PATH.test(path)) return false;
  const type = contentType?.trim() ?? '';
  return type === '' || JSON_TYPE.test(type);
}

/** The last `size` requests. */
export class RequestLog {
  /** Entries as recorded, each replaced by its redacted form when first read. */
  private readonly ring: (RequestLogEntry | Recorded | undefined)[];
  /** Per slot of the ring: the real and virtual time of arrival and the duration (ms) of the entry recorded there. */
  private readonly times: Float64Array;
  private nextId = 1;
  private count = 0;
  private readonly extraSecrets: string[] = [];

  /** `realNow` is the wall clock of `at`; `elapsed` a monotonic clock in ms for durations. */
  constructor(
    private readonly host: RequestLogHost,
    readonly size: number,
    private readonly realNow: () => number,
    private readonly elapsed: () => number = () => performance.now(),
  ) {
    this.ring = new Array<RequestLogEntry | Recorded | undefined>(size);
    this.times = new Float64Array(size * 3);
  }

  /** Another value to redact wherever it appears (the admin token of a server). */
  addSecret(value: string): void {
    if (value !== '') this.extraSecrets.push(value);
  }

  /**
   * `violations` with every secret known now taken out: a difference names what was sent (a path, a
   * query parameter's or a body property's name), and a client may have sent a token there.
   */
  scrubViolations(violations: readonly ExchangeViolation[]): ExchangeViolation[] {
    const secrets = this.knownSecrets();
    return violations.map((v) => scrubViolation(v, secrets));
  }

  /**
   * Notes that a request arrived with this Authorization header, in `into` (the HTTP adapter's exchange holds its
   * own: no object a request) or a new Arrival; null when the request log is off.
   */
  arrive(authorization: string | null | undefined, into?: Arrival): Arrival | null {
    if (this.size === 0) return null;
    const a = into ?? { realAt: 0, virtualAt: 0, started: 0, account: null };
    a.realAt = this.realNow();
    a.virtualAt = this.host.virtualNow();
    a.started = this.elapsed();
    a.account = this.accountOf(authorization);
    return a;
  }

  /** Records one answered (or dropped) request, unless it was a call of the request log itself. */
  record(arrival: Arrival | null, seen: Seen): void {
    if (!arrival) return;
    // The path of the entry before is not the request log's own (that is never recorded): no pattern is run for it again.
    const prev = this.prev;
    const samePath = prev !== null && seen.path === prev.path;
    if ((!samePath && JOURNAL_PATH.test(seen.path)) || dashboardRead(seen)) return;
    // The few-secret list of this moment, kept with the entry; the rest of what is secret is asked for
    // only when a part must be redacted now (rarely): this runs for every request.
    const few = this.fewNow();
    const headers = seen.headers instanceof Headers ? headerPairs(seen.headers) : seen.headers;
    // Escapes could spell a token that a scan of the raw text would not see: such parts are redacted now.
    const sameSearch = prev !== null && seen.search === prev.search;
    const query = (!sameSearch || prev.query !== null) && /[%+]/.test(seen.search) ? redactQuery(seen.search, this.secretsWith(few)) : null;
    // So is a body too long to keep (its size is kept), so that no entry holds a large text.
    const text = seen.bodyText;
    const body = text !== null && (text.length > MAX_KEPT_BODY || text.includes('\\')) ? keptBody(text, this.secretsWith(few)) : undefined;
    // An entry outlives a young-generation collection or two: what it holds that equals the entry before's
    // (a client sends the same path, query, headers and token again and again) is that entry's, so the
    // request's own copies die young and a collection copies nothing new (it was most of what one copied).
    const shared = prev !== null && sameHeaders(headers, prev.headers, this.prevNames);
    if (!shared) this.prevNames = headerNames(headers);
    const path = samePath ? prev.path : seen.path;
    const search = sameSearch ? prev.search : seen.search;
    const kept = shared ? prev.headers : headers;
    // Each part scanned on its own, in order (a run never spans two parts), without joining them first: this
    // runs for every request. The texts kept are scanned, the entry before's when equal (their hashes known).
    const tokens = this.tokenScratch;
    const live = this.host.tokens;
    // A request without a body whose path, query and headers are the entry before's has that entry's token-shaped runs
    // (kept in `prevRuns` when it was scanned): only which of them are live now is asked (most requests of a loaded mock).
    const noBody = seen.bodyText === null;
    if (samePath && sameSearch && shared && noBody && this.prevRuns !== null) {
      for (const run of this.prevRuns) if (live.has(run)) tokens.push(run);
    } else {
      const runs: string[] = [];
      this.runs.of(path, runs);
      if (query === null) this.runs.of(search, runs);
      const headersFrom = runs.length;
      if (Array.isArray(kept)) {
        for (const [, v] of kept) if (v !== undefined) this.runs.of(typeof v === 'string' ? v : v.join(', '), runs);
      } else {
        for (const name in kept) {
          const v = kept[name];
          if (v !== undefined) this.runs.of(typeof v === 'string' ? v : v.join(', '), runs);
        }
      }
      // In the order the parts come: path, query, body (scanned each time: bodies differ), headers.
      for (let at = 0; at < headersFrom; at++) if (live.has(runs[at]!)) tokens.push(runs[at]!);
      if (body === undefined && text !== null) liveRuns(text, live, tokens);
      for (let at = headersFrom; at < runs.length; at++) if (live.has(runs[at]!)) tokens.push(runs[at]!);
      this.prevRuns = runs;
    }
    const slot = (this.nextId - 1) % this.size;
    // The slot's entry is refilled when it is still as recorded (never read, so nothing else holds it).
    let entry = this.ring[slot];
    if (entry === undefined || 'at' in entry) this.ring[slot] = entry = blankRecorded();
    entry.id = this.nextId++;
    entry.account = arrival.account;
    entry.method = seen.method;
    entry.path = path;
    entry.search = search;
    entry.status = seen.status;
    entry.fault = seen.fault ?? null;
    entry.bodyText = body === undefined ? seen.bodyText : null;
    entry.headers = kept;
    entry.query = query;
    entry.body = body;
    entry.few = few;
    entry.tokens = tokens.length === 0 ? null : prev?.tokens != null && sameList(tokens, prev.tokens) ? prev.tokens : tokens.slice();
    entry.violations = seen.violations;
    while (tokens.length > 0) tokens.pop();
    this.prev = entry;
    this.times[slot * 3] = arrival.realAt;
    this.times[slot * 3 + 1] = arrival.virtualAt;
    this.times[slot * 3 + 2] = Math.round((this.elapsed() - arrival.started) * 10) / 10;
    this.count = Math.min(this.count + 1, this.size);
  }

  /** The entry recorded last (null after a clear), whose parts a new entry shares when equal; the list its live runs are found into. */
  private prev: Recorded | null = null;
  /** The names of `prev`'s headers in order (node's object), read once per headers kept. */
  private prevNames: readonly string[] = [];
  private readonly tokenScratch: string[] = [];

  /** Which token-shaped runs the texts seen last hold (a client sends the same ones again and again). */
  private readonly runs = new TokenRuns();

  /** The token-shaped runs of the entry before's path, query (unless redacted at once, as its equal will be) and headers, in order; null after a clear. */
  private prevRuns: readonly string[] | null = null;

  /** The few-secret list of the last entry recorded (most entries share one list), and the list it is gathered into. */
  private lastFew: readonly string[] = [];
  private readonly fewScratch: string[] = [];

  /** The few-secret list now: the previous one when equal, gathered without a new list (most entries share one). */
  private fewNow(): readonly string[] {
    const few = this.fewScratch;
    const n = this.gatherFew(few);
    const last = this.lastFew;
    let same = n === last.length;
    for (let i = 0; same && i < n; i++) same = few[i] === last[i];
    if (!same) this.lastFew = few.slice(0, n);
    return this.lastFew;
  }

  /** The secrets a part redacted as it is recorded is redacted with: the few-secret list of the moment, and the tokens. */
  private secretsWith(few: readonly string[]): KnownSecrets {
    return { few, isToken: this.isToken };
  }

  /** Whether a token-shaped run is a live token of the world, or shaped like a random credential. */
  private readonly isToken = (run: string): boolean => this.host.tokens.has(run) || RANDOM_CREDENTIAL.test(run);

  /**
   * Writes the few secrets known now (the admin token, and the host's: client secrets, auth keys,
   * passwords) at the start of `few`, over what it held, and returns how many there are: a list kept for
   * this is never emptied or grown again per request (setting an array's length is a call into the runtime).
   */
  private gatherFew(few: string[]): number {
    let n = 0;
    for (const s of this.extraSecrets) few[n++] = s;
    return this.host.gatherFew(few, n);
  }

  /** The entry at `slot` as shown: redacted with the secrets known when it was recorded and those known now. */
  private redacted(r: Recorded, slot: number): RequestLogEntry {
    const now = this.knownSecrets();
    const few = r.few === now.few || r.few.every((s) => now.few.includes(s)) ? now.few : [...new Set([...now.few, ...r.few])];
    const tokens = r.tokens;
    const secrets: KnownSecrets = { few, isToken: (run) => (tokens !== null && tokens.includes(run)) || now.isToken(run) };
    return {
      id: r.id,
      at: new Date(this.times[slot * 3]!).toISOString(),
      virtual_at: formatDateTime(this.times[slot * 3 + 1]!),
      method: r.method,
      path: scrub(r.path, secrets),
      query: r.query ?? redactQuery(r.search, secrets),
      status: r.status,
      duration_ms: this.times[slot * 3 + 2]!,
      account: r.account,
      headers: redactHeaders(Array.isArray(r.headers) ? r.headers : Object.entries(r.headers), secrets),
      body: r.body === undefined ? keptBody(r.bodyText, secrets) : r.body,
      fault: r.fault,
      ...(r.violations !== undefined ? { violations: r.violations.map((v) => scrubViolation(v, secrets)) } : {}),
    };
  }

  /**
   * Up to `limit` entries, newest first, after skipping `offset`, and how many there are in all.
   * Without `since`, the newest; with it, the entries after id `since`, those nearest to it chosen
   * first (so a follower asking again with the largest id it got misses none), still newest first.
   */
  list(limit: number, since?: number, offset = 0): { result: RequestLogEntry[]; total: number } {
    const oldest = this.nextId - this.count;
    const from = since === undefined ? oldest : Math.max(oldest, since + 1);
    const total = Math.max(0, this.nextId - from);
    const newest = this.nextId - 1;
    const last = since === undefined ? newest - offset : Math.min(newest, from + offset + limit - 1);
    const first = since === undefined ? Math.max(from, last - limit + 1) : from + offset;
    const result: RequestLogEntry[] = [];
    for (let id = last; id >= first; id--) {
      const slot = (id - 1) % this.size;
      let entry = this.ring[slot]!;
      if (!('at' in entry)) this.ring[slot] = entry = this.redacted(entry, slot);
      result.push(entry);
    }
    return { result, total };
  }

  /**
   * As `list`, over only the entries with violations (a proxy's that differ from the document; a mock's
   * entries have none). Walks the whole request log, but redacts only the entries it answers.
   */
  listViolations(limit: number, since?: number, offset = 0): { result: RequestLogEntry[]; total: number } {
    const oldest = Math.max(this.nextId - this.count, since === undefined ? 0 : since + 1);
    const ids: number[] = [];
    for (let id = this.nextId - 1; id >= oldest; id--) if ((this.ring[(id - 1) % this.size]!.violations?.length ?? 0) > 0) ids.push(id);
    // Without `since` the newest are chosen first; with it, those nearest to it (the oldest), still shown newest first.
    const chosen =
      since === undefined
        ? ids.slice(offset, offset + limit)
        : ids
            .reverse()
            .slice(offset, offset + limit)
            .reverse();
    const result = chosen.map((id) => {
      const slot = (id - 1) % this.size;
      let entry = this.ring[slot]!;
      if (!('at' in entry)) this.ring[slot] = entry = this.redacted(entry, slot);
      return entry;
    });
    return { result, total: ids.length };
  }

  /** Forgets every entry (ids keep increasing); returns how many there were. */
  clear(): number {
    const n = this.count;
    this.count = 0;
    this.ring.fill(undefined);
    this.prev = null;
    this.prevRuns = null;
    return n;
  }

  /** The Authorization header read last and the bearer token it names (a client sends the same one again and again). */
  private lastAuthorization: string | null = null;
  private lastBearer: string | null = null;

  /** The account a bearer token the mock issued acts for (expired or not), else null. */
  private accountOf(authorization: string | null | undefined): string | null {
    const text = authorization ?? '';
    // The token a header names is a function of its text, kept; whether it is live is asked each time.
    if (text !== this.lastAuthorization) {
      this.lastBearer = /^\s*bearer\s+(\S+)\s*$/i.exec(text)?.[1] ?? null;
      this.lastAuthorization = text;
    }
    const token = this.lastBearer === null ? undefined : this.host.tokens.get(this.lastBearer);
    return token?.kind === 'access' ? token.accountId : null;
  }

  /** What the mock knows to be secret now: client secrets, auth keys, the admin token, its tokens, and anything shaped like a random credential. */
  private knownSecrets(): KnownSecrets {
    const tokens = this.host.tokens;
    const few: string[] = [];
    this.gatherFew(few);
    return { few, isToken: (run) => tokens.has(run) || RANDOM_CREDENTIAL.test(run) };
  }
}

/**
 * A read the dashboard made of an admin route and got (GET, 200, its header): not recorded, or the
 * request log it shows would fill with its own polling. A refused one, or any other request, still is.
 */
function dashboardRead(seen: Seen): boolean {
  if (seen.method !== 'GET' || seen.status !== 200) return false;
  // The header first: on every other GET (a listings search) one property read ends it, no pattern is run.
  const h = seen.headers;
  const value = h instanceof Headers ? h.get(DASHBOARD_HEADER) : h[DASHBOARD_HEADER];
  return value !== null && value !== undefined && isAdminPath(seen.path);
}

function headerPairs(headers: Headers): [string, string][] {
  const pairs: [string, string][] = [];
  headers.forEach((value, name) => pairs.push([name, value]));
  return pairs;
}

function keptBody(text: string | null, secrets: KnownSecrets): unknown {
  if (text === null || text.trim() === '') return null;
  if (text.length > MAX_KEPT_BODY) return `(${Buffer.byteLength(text)} bytes, not kept)`;
  try {
    return redactJson(JSON.parse(text) as unknown, secrets);
  } catch {
    return null; // not JSON after all: unparsed text is not kept (it could hold anything)
  }
}

/** A difference with the secrets among `secrets` taken out of what it quotes of the exchange. */
function scrubViolation(v: ExchangeViolation, secrets: KnownSecrets): ExchangeViolation {
  return { ...v, operation: scrub(v.operation, secrets), field: scrub(v.field, secrets), problem: scrub(v.problem, secrets) };
}
