/**
 * The one reading of a request target. The adapter normalises each target once, and that URL is what
 * the router (routes.ts, then msw), the admin-access decision and fault matching all see, so no spelling
 * of a path (`/v1/../__mock`, `//x/__mock`, `%2e%2e`, `\`, an absolute-form target) can mean one thing
 * to the access check and another to the router.
 *
 * Which spellings reach the same route (the router, routes.ts, then compares the normalised path
 * exactly, letter case included, after the `--base-path` prefix, itself normalised this way; anything
 * another reader of paths, such as a journal key, must reproduce), each step applied once:
 * - an absolute-form target `http://ANY-AUTHORITY/p?q` (scheme in any case, http or https; an
 *   authority WHATWG URL cannot read is refused) is `/p?q`: this server is the only host; a fragment
 *   `#…` is dropped;
 * - `\` is `/` (as WHATWG URL reads it for http);
 * - empty segments are dropped: `//v1///loans` is `/v1/loans`; so is a trailing slash (`/v1/loans/`),
 *   and a path of slashes alone is `/`;
 * - an escape of an unreserved character (`A-Z a-z 0-9 - . _ ~`) is that character, in either hex
 *   case (`%76%31` is `v1`, `%2e` is `.`); every other escape stays an escape, its hex upper-cased
 *   (`%2f` is `%2F` and never `/`, `%5c` is `%5C` and never `\`, `%3a` is `%3A` and never `:`); decoded
 *   once: `%252e` stays `%252e`;
 * - `.` segments are dropped and `..` removes the segment before it, never above the root, after the
 *   escapes are decoded (`/v1/x/%2E%2E/loans` is `/v1/loans`, `/../v1` is `/v1`);
 * - every other character is kept as sent: `/V1/loans` is not `/v1/loans`, `/v1/loans;x` is not
 *   `/v1/loans`. The query goes on as WHATWG URL reads it (escaping `"`, `'`, `<`, `>`); no route is chosen by it.
 * Refused with a 400 naming the problem: a character outside printable ASCII; in the path, `[` and `]`
 * (RFC 3986 allows them only around an IP literal in the authority, so `//[zz]/v1/loans` is a host
 * glued onto a path, not a path) and `"`, `<`, `>`, `^`, a backquote, `{`, `|`, `}` (allowed nowhere in
 * a URI); a malformed escape or escapes that are not UTF-8; a target that is neither `/…` nor an absolute http URL.
 */

/** A normalised target, or the reason it cannot be read (a 400 naming it). */
export type TargetResult = { ok: true; url: URL } | { ok: false; problem: string };

const UNRESERVED = /[A-Za-z0-9\-._~]/;

function fail(problem: string): TargetResult {
  return { ok: false, problem: `request target: ${problem}` };
}

/** Printable ASCII that RFC 3986 allows in no path: `[` `]` only in an authority, the rest in no URI at all. */
const NOT_IN_PATH = /[[\]"<>^`{|}]/;

/**
 * Normalises a path (no query) as the header above says: `\` is `/`, empty segments collapse, escapes
 * of unreserved characters are decoded, `.` and `..` segments are resolved (never above the root), and
 * a trailing slash is dropped. A problem instead on a character RFC 3986 keeps out of a path, a
 * malformed escape, or escapes that are not UTF-8.
 */
export function normalisePath(raw: string): { path: string } | { problem: string } {
  const text = raw.replace(/\\/g, '/');
  const odd = NOT_IN_PATH.exec(text);
  if (odd) {
    const why = odd[0] === '[' || odd[0] === ']' ? 'is allowed only around an IP address in the authority' : 'is allowed nowhere in a URL';
    return { problem: `'${odd[0]}' in the path '${raw.slice(0, 100)}' ${why}; percent-encode it (%${odd[0].charCodeAt(0).toString(16).toUpperCase()})` };
  }
  const bad = /%(?![0-9A-Fa-f]{2})(.{0,2})/s.exec(text);
  if (bad) return { problem: `malformed percent-escape '%${bad[1]}' in the path` };
  // msw decodes route parameters with decodeURIComponent: escapes that are not UTF-8 would throw there.
  for (const run of text.match(/(%[0-9A-Fa-f]{2})+/g) ?? []) {
    try {
      decodeURIComponent(run);
    } catch {
      return { problem: `percent-escapes '${run}' in the path are not UTF-8` };
    }
  }
  const decoded = text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
  const out: string[] = [];
  for (const seg of decoded.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return { path: `/${out.join('/')}` };
}

/** Scheme, slashes and authority of an absolute-form target, as WHATWG URL delimits them for http. */
const ABSOLUTE_HEAD = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*[^/\\?#]*/;

/**
 * Reads a raw request target (origin-form `/p?q` or absolute-form `http://h/p?q`; the authority of an
 * absolute-form target is checked and then ignored: this server is the only host) into a URL on
 * `origin`. The path of either form is read by normalisePath from the bytes as sent. Never throws.
 */
export function normaliseTarget(raw: string, origin: string): TargetResult {
  for (const ch of raw) {
    const c = ch.codePointAt(0)!;
    if (c <= 0x20 || c >= 0x7f) return fail(`contains ${JSON.stringify(ch)} (U+${c.toString(16).toUpperCase().padStart(4, '0')}); only printable ASCII is allowed`);
  }
  let target = raw.split('#')[0]!;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(target)) {
    let abs: URL;
    try {
      abs = new URL(target);
    } catch {
      return fail(`'${raw}' is not a valid absolute URL`);
    }
    if (abs.protocol !== 'http:' && abs.protocol !== 'https:') return fail(`scheme '${abs.protocol.slice(0, -1)}' is not http`);
    // The path as sent, not abs.pathname: WHATWG would escape some characters a path may not hold.
    target = target.slice(ABSOLUTE_HEAD.exec(target)![0].length);
    if (!target.startsWith('/')) target = `/${target}`;
  } else if (!target.startsWith('/')) {
    return fail(`'${raw}' must start with '/' or be an absolute http URL`);
  }
  const q = target.indexOf('?');
  const rawPath = q < 0 ? target : target.slice(0, q);
  const search = q < 0 ? '' : target.slice(q);
  const norm = normalisePath(rawPath);
  if ('problem' in norm) return fail(norm.problem);
  try {
    // The path starts with one '/' and holds no '\', so the parser cannot read an authority into it.
    return { ok: true, url: new URL(norm.path + search, origin) };
  } catch {
    return fail(`'${raw}' cannot be read as a URL`);
  }
}

/**
 * Reads `--base-path` (the prefix a proxy puts the mock behind): it starts with `/`, holds no `..`
 * segment, no `__mock` segment (the admin check would take every route for an admin one), no query
 * or fragment, and what normalisePath refuses in a path. Returned normalised (`/p/` is `/p`), `/` as
 * '' (no prefix); a problem names what is wrong.
 */
export function parseBasePath(raw: string): { basePath: string } | { problem: string } {
  if (!raw.startsWith('/')) return { problem: `must start with '/', got '${raw}'` };
  if (/[?#]/.test(raw)) return { problem: `must be a path alone, without '?' or '#', got '${raw}'` };
  if (/[^\x21-\x7e]/.test(raw)) return { problem: `must be printable ASCII without spaces, got '${raw}'` };
  if (/(^|[/\\])(\.|%2e){2}([/\\]|$)/i.test(raw)) return { problem: `must not hold a '..' segment, got '${raw}'` };
  const norm = normalisePath(raw);
  if ('problem' in norm) return { problem: norm.problem.replace(/ the path /, ' ') };
  if (isAdminPath(norm.path)) return { problem: `must not hold a '__mock' segment (the admin routes' own), got '${raw}'` };
  return { basePath: norm.path === '/' ? '' : norm.path };
}

/**
 * Whether a normalised path may reach an admin handler. Wider than the router on purpose (which
 * matches `{base path}/__mock/…` exactly): any `__mock` segment, in any case, under any prefix, so
 * no base path or later route can open a spelling the access check does not cover.
 */
export function isAdminPath(path: string): boolean {
  return /(^|\/)__mock(\/|$)/i.test(path);
}
