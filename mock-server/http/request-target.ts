/**
 * The one reading of a request target. The adapter normalises each target once, and that URL is what
 * the router (router.ts, then msw), the admin-access decision and fault matching all see, so no spelling
 * of a path (`/v1/../__mock`, `//x/__mock`, `%2e%2e`, `\`, an absolute-form target) can mean one thing
 * to the access check and another to the router.
 *
 * Which spellings reach the same route: the router, router.ts, compares the normalised path exactly,
 * letter case included, after the `--base-path` prefix, itself normalised this way. The path is read
 * by normalisePath (src/contract/request-path.ts, which lists its rules and refusals; the CLI's request log
 * key reads base URLs with it too); the target around it:
 * - an absolute-form target `http://AUTHORITY/p?q` (scheme in any case, http or https; an
 *   authority WHATWG URL cannot read is refused) is `/p?q`: this server is the only host, so the
 *   authority is not routed on, only checked as a Host is (host-check.ts); a fragment
 *   `#…` is dropped;
 * - the query goes on as WHATWG URL reads it (escaping `"`, `'`, `<`, `>`); no route is chosen by it;
 * - refused with a 400 naming the problem: a character outside printable ASCII, what normalisePath
 *   refuses, and a target that is neither `/…` nor an absolute http URL.
 */

import { normalisePath } from '../../src/contract/request-path.js';

export { normalisePath };

/**
 * A normalised target and the authority an absolute-form target names (null for origin-form: the Host
 * line names the host then; host-check.ts reads either), or the reason it cannot be read (a 400 naming it).
 * `path` and `search` are the URL's pathname and search, read once: each read of a URL's makes a new text, and a
 * target read again (TargetMemo) hands the same texts to every step that compares them with the last request's.
 */
export type TargetResult = { ok: true; url: URL; authority: string | null; path: string; search: string } | { ok: false; problem: string };

function fail(problem: string): TargetResult {
  return { ok: false, problem: `request target: ${problem}` };
}

/** Scheme, slashes and authority of an absolute-form target, as WHATWG URL delimits them for http. */
const ABSOLUTE_HEAD = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*[^/\\?#]*/;

/** Paths longer than this are read afresh each time (a memo of long paths would hold a lot of text). */
const MEMO_PATH_CHARS = 200;
/** Paths a memo holds; it starts over when full. */
const MEMO_PATHS = 256;

/**
 * normalisePath's readings of the raw paths a server saw last (a pure function of the text, so a path
 * asked again is not read again: clients ask the same few paths). Kept by whoever reads the targets
 * (the HTTP adapter, one per server) and dropped with it.
 */
export class PathMemo {
  private readonly paths = new Map<string, ReturnType<typeof normalisePath>>();

  /** `normalisePath(raw)`, kept. */
  normalise(raw: string): ReturnType<typeof normalisePath> {
    if (raw.length > MEMO_PATH_CHARS) return normalisePath(raw);
    let norm = this.paths.get(raw);
    if (norm === undefined) {
      norm = normalisePath(raw);
      if (this.paths.size >= MEMO_PATHS) this.paths.clear();
      this.paths.set(raw, norm);
    }
    return norm;
  }
}

/** Targets a memo holds; it starts over when full (clients ask the same few again and again). */
const MEMO_TARGETS = 256;

/**
 * normaliseTarget's readings of the raw targets a server saw last, each kept with the URL it made: a
 * target asked again is neither read nor parsed again (a URL is ~1 µs a request, the reading more). The
 * URL is shared by the requests of one target, so it is read, never changed (no route changes it); one
 * that was changed anyway (its text no longer the text it was made from) is made again, never handed on.
 * Kept by whoever reads the targets (the HTTP adapter, one per server, for one origin) and dropped with it.
 */
export class TargetMemo {
  private readonly targets = new Map<string, { result: TargetResult; href: string }>();
  private readonly paths = new PathMemo();
  private origin = '';

  /** `normaliseTarget(raw, origin)`, kept. */
  read(raw: string, origin: string): TargetResult {
    if (raw.length > MEMO_PATH_CHARS) return normaliseTarget(raw, origin, this.paths);
    if (origin !== this.origin) {
      this.targets.clear();
      this.origin = origin;
    }
    const kept = this.targets.get(raw);
    if (kept !== undefined && (!kept.result.ok || kept.result.url.href === kept.href)) return kept.result;
    const result = normaliseTarget(raw, origin, this.paths);
    if (this.targets.size >= MEMO_TARGETS) this.targets.clear();
    this.targets.set(raw, { result, href: result.ok ? result.url.href : '' });
    return result;
  }
}

/**
 * Reads a raw request target (origin-form `/p?q` or absolute-form `http://h/p?q`; the authority of an
 * absolute-form target is handed back for the Host check and not routed on: this server is the only host) into a URL on
 * `origin`. The path of either form is read by normalisePath from the bytes as sent (through `memo`
 * when given). Never throws.
 */
export function normaliseTarget(raw: string, origin: string, memo?: PathMemo): TargetResult {
  // By code unit, not by code point (this runs on every request): the first unit outside printable
  // ASCII is where the code point that holds it starts, named whole in the problem.
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f) {
      const ch = String.fromCodePoint(raw.codePointAt(i)!);
      return fail(
        `contains ${JSON.stringify(ch)} (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}); only printable ASCII is allowed`,
      );
    }
  }
  const hash = raw.indexOf('#');
  let target = hash < 0 ? raw : raw.slice(0, hash);
  let authority: string | null = null;
  if (target.charCodeAt(0) !== 0x2f && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(target)) {
    let abs: URL;
    try {
      abs = new URL(target);
    } catch {
      return fail(`'${raw}' is not a valid absolute URL`);
    }
    if (abs.protocol !== 'http:' && abs.protocol !== 'https:') return fail(`scheme '${abs.protocol.slice(0, -1)}' is not http`);
    authority = abs.host;
    // The path as sent, not abs.pathname: WHATWG would escape some characters a path may not hold.
    target = target.slice(ABSOLUTE_HEAD.exec(target)![0].length);
    if (!target.startsWith('/')) target = `/${target}`;
  } else if (!target.startsWith('/')) {
    return fail(`'${raw}' must start with '/' or be an absolute http URL`);
  }
  const q = target.indexOf('?');
  const rawPath = q < 0 ? target : target.slice(0, q);
  const search = q < 0 ? '' : target.slice(q);
  const norm = memo ? memo.normalise(rawPath) : normalisePath(rawPath);
  if ('problem' in norm) return fail(norm.problem);
  try {
    // The path starts with one '/' and holds no '\', so the parser cannot read an authority into it.
    // Read whole rather than against a base URL, which is the same URL for such a path and cheaper.
    const url = new URL(origin + norm.path + search);
    return { ok: true, url, authority, path: url.pathname, search: url.search };
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
  // `__` has no other case: a path without it (most requests) is told without the pattern.
  return path.includes('__') && /(^|\/)__mock(\/|$)/i.test(path);
}
