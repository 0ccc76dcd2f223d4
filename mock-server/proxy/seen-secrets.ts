/**
 * The secrets a proxy learns from the traffic it passes, so that its request log (request-log/request-log.ts) hides
 * them wherever they appear, as a mock's request log hides the secrets of its world: the tokens the token
 * endpoint issues (access and refresh), the bearer tokens clients send, and the client secrets, auth
 * keys, refresh tokens and passwords of token requests. Names that speak of a secret, and any run
 * shaped like a random credential, are hidden by the request log's own rules whatever was learnt here.
 */
import type { RequestLogHost } from '../request-log/request-log.js';

/** At most this many tokens are kept, the oldest forgotten first (a long run must not grow without end). */
const MAX_TOKENS = 10_000;
/** At most this many other secrets: each is searched for in every text of an entry when it is read. */
const MAX_FEW = 500;
/** The token endpoint, in the spellings the document and the router accept. */
const TOKEN_PATH = /\/oauth\/token\/?$/i;
/** Form fields of a token request that are secrets. */
const SECRET_FIELDS = ['client_secret', 'auth_key', 'code', 'authorization_key', 'refresh_token', 'password'];

/** A token as the request log's host lists it: the proxy knows no account. */
const SEEN_TOKEN = { kind: 'seen', accountId: null } as const;

/** What the proxy has learnt is secret; the request log's host. */
export class SeenSecrets implements RequestLogHost {
  readonly tokens = new Map<string, typeof SEEN_TOKEN>();
  private readonly few = new Set<string>();

  /** The proxy has no virtual clock: its request log's virtual time is the real time. */
  constructor(readonly virtualNow: () => number = Date.now) {}

  gatherFew(few: string[], from: number): number {
    let n = from;
    for (const s of this.few) few[n++] = s;
    return n;
  }

  /** Learns from a request: its bearer token, and a token request's secret fields. */
  learnRequest(path: string, authorization: string | undefined, contentType: string | undefined, body: string): void {
    const bearer = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (bearer) this.addToken(bearer[1]!);
    if (!TOKEN_PATH.test(path) || body === '') return;
    const fields = /json/i.test(contentType ?? '') ? jsonFields(body) : new URLSearchParams(body);
    for (const name of SECRET_FIELDS) {
      const value = fields.get(name);
      if (value) this.addFew(value);
    }
  }

  /** Learns from an answer of the token endpoint: the tokens it issued. */
  learnAnswer(path: string, body: string | undefined): void {
    if (!TOKEN_PATH.test(path) || body === undefined) return;
    const fields = jsonFields(body);
    for (const name of ['access_token', 'refresh_token']) {
      const value = fields.get(name);
      if (value) this.addToken(value);
    }
  }

  private addToken(value: string): void {
    this.tokens.delete(value);
    this.tokens.set(value, SEEN_TOKEN);
    if (this.tokens.size > MAX_TOKENS) this.tokens.delete(this.tokens.keys().next().value!);
  }

  private addFew(value: string): void {
    // A short value (a one-letter password) would be scrubbed out of every text: the name rules hide it where it is sent.
    if (value.length < 4) return;
    this.few.delete(value);
    this.few.add(value);
    if (this.few.size > MAX_FEW) this.few.delete(this.few.values().next().value!);
  }
}

/** The string fields of a JSON object text, or none. */
function jsonFields(text: string): Map<string, string> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object') return new Map();
    return new Map(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return new Map();
  }
}
