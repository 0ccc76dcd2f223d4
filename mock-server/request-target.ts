/**
 * The one reading of a request target. The adapter normalises each target once, and that URL is what
 * the router (msw), the admin-access decision and fault matching all see, so no spelling of a path
 * (`/v1/../__mock`, `//x/__mock`, `%2e%2e`, `\`, an absolute-form target) can mean one thing to the
 * access check and another to the router.
 */

/** A normalised target, or the reason it cannot be read (a 400 naming it). */
export type TargetResult = { ok: true; url: URL } | { ok: false; problem: string };

const UNRESERVED = /[A-Za-z0-9\-._~]/;

function fail(problem: string): TargetResult {
  return { ok: false, problem: `request target: ${problem}` };
}

/**
 * Normalises a path (no query): `\` is `/` (as WHATWG URL reads it), empty segments collapse, escapes
 * of unreserved characters are decoded (`%2e` is `.`, `%5F` is `_`), `.` and `..` segments are
 * resolved (never above the root), and a trailing slash is dropped. A problem instead on a malformed
 * escape or escapes that are not UTF-8.
 */
export function normalisePath(raw: string): { path: string } | { problem: string } {
  const text = raw.replace(/\\/g, '/');
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

/**
 * Reads a raw request target (origin-form `/p?q` or absolute-form `http://h/p?q`; the authority of an
 * absolute-form target is ignored: this server is the only host) into a URL on `origin`. Never throws.
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
    target = abs.pathname + abs.search;
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
 * Whether a normalised path may reach an admin handler. The admin routes are `*\/__mock/…` and msw
 * matches case-insensitively anywhere after the origin, so any `__mock` segment counts, in any case.
 */
export function isAdminPath(path: string): boolean {
  return /(^|\/)__mock(\/|$)/i.test(path);
}
