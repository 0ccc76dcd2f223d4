/**
 * Redaction of what the request log keeps. Two rules, both applied everywhere (headers, query,
 * JSON body, path): a value under a name that speaks of a secret (token, secret, password, code, key,
 * auth, cookie, session…) is replaced by `***` (Authorization keeps its scheme: `Bearer ***`); and any
 * secret the mock itself knows (an access or refresh token it issued, a client secret, an auth key,
 * the admin token) is replaced wherever it appears, whatever the name around it. Pure, so it is
 * property-tested without a server.
 */

/** The mark that stands for a removed secret. */
export const REDACTED = '***';

/** A name (header, query parameter, JSON field) whose value is a secret. */
const SECRET_NAME = /token|secret|passw|pwd|code|key|auth|cookie|session|signature|credential/i;

/** Runs of base64url characters: every token the mock issues is one. */
export const TOKEN_RUN = /[A-Za-z0-9_-]{8,}/g;

/** Nesting deeper than this is not walked (a hostile body must not exhaust the stack). */
const MAX_DEPTH = 32;

/** What the mock knows to be secret: a few values checked as substrings, and its tokens looked up by value. */
export interface KnownSecrets {
  /** Client secrets, auth keys, the admin token: few, each searched for in every string. */
  few: readonly string[];
  /** Whether a base64url run is a token the mock issued (its token map has it). */
  isToken(value: string): boolean;
}

/** No secrets known (name rules only). */
export const NO_SECRETS: KnownSecrets = { few: [], isToken: () => false };

/** Whether a value under `name` is to be hidden whatever it is. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** `text` with every known secret in it replaced. */
export function scrub(text: string, secrets: KnownSecrets): string {
  let out = text;
  for (const s of secrets.few) if (s.length > 0 && out.includes(s)) out = out.split(s).join(REDACTED);
  return out.replace(TOKEN_RUN, (run) => (secrets.isToken(run) ? REDACTED : run));
}

/** One header's value as kept: the scheme of an authorization header, `***` for any secret-named one, else scrubbed. */
export function redactHeader(name: string, value: string, secrets: KnownSecrets): string {
  if (/authorization$/i.test(name)) {
    const m = /^\s*([A-Za-z][\w.+-]*)\s+\S/.exec(value);
    return m ? `${m[1]} ${REDACTED}` : REDACTED;
  }
  return isSecretName(name) ? REDACTED : scrub(value, secrets);
}

/** Request headers as kept: names in lower case, repeated ones joined with `, `. */
export function redactHeaders(
  headers: Iterable<[string, string | readonly string[] | undefined]>,
  secrets: KnownSecrets,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, raw] of headers) {
    if (raw === undefined) continue;
    const name = rawName.toLowerCase();
    const value = typeof raw === 'string' ? raw : raw.join(', ');
    const kept = redactHeader(name, value, secrets);
    out[name] = name in out ? `${out[name]}, ${kept}` : kept;
  }
  return out;
}

/** A query string (no `?`) as kept: secret-named parameters `***`, the others scrubbed. */
export function redactQuery(search: string, secrets: KnownSecrets): string {
  const text = search.startsWith('?') ? search.slice(1) : search;
  if (text === '') return '';
  const out = new URLSearchParams();
  for (const [k, v] of new URLSearchParams(text)) out.append(scrub(k, secrets), isSecretName(k) ? REDACTED : scrub(v, secrets));
  return out.toString();
}

/** A parsed JSON value as kept: secret-named fields `***`, strings scrubbed, nesting past MAX_DEPTH cut. */
export function redactJson(value: unknown, secrets: KnownSecrets, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactJson(v, secrets, depth + 1));
  // fromEntries makes own properties even of a key named __proto__.
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [
      scrub(k, secrets),
      isSecretName(k) ? REDACTED : redactJson(v, secrets, depth + 1),
    ]),
  );
}
