/**
 * The one reading of a URL path, shared by the mock's router (mock-server/http/request-target.ts, then
 * router.ts) and the CLI (the address it sends to and the order journal's key, src/orders/marketplace.ts):
 * what one reads as the same path the other must too, or two spellings of one marketplace could be
 * two journals. Pure and dependency-free, so the CLI loads it without the mock.
 *
 * Which spellings are the same path, each step applied once:
 * - `\` is `/` (as WHATWG URL reads it for http);
 * - empty segments are dropped: `//v1///loans` is `/v1/loans`; so is a trailing slash (`/v1/loans/`),
 *   and a path of slashes alone is `/`;
 * - an escape of an unreserved character (`A-Z a-z 0-9 - . _ ~`) is that character, in either hex
 *   case (`%76%31` is `v1`, `%2e` is `.`); every other escape stays an escape, its hex upper-cased
 *   (`%2f` is `%2F` and never `/`, `%5c` is `%5C` and never `\`, `%3a` is `%3A` and never `:`); decoded
 *   once: `%252e` stays `%252e`;
 * - `.` segments are dropped and `..` removes the segment before it, never above the root, after the
 *   escapes are decoded (`/v1/x/%2E%2E/loans` is `/v1/loans`, `/../v1` is `/v1`);
 * - every other character is kept as sent: `/V1/loans` is not `/v1/loans`, `/v1/loans;x` is not `/v1/loans`.
 * Refused, naming the problem: in the path, `[` and `]` (RFC 3986 allows them only around an IP literal
 * in the authority, so `//[zz]/v1/loans` is a host glued onto a path, not a path) and `"`, `<`, `>`, `^`,
 * a backquote, `{`, `|`, `}` (allowed nowhere in a URI); a malformed escape or escapes that are not UTF-8.
 */

const UNRESERVED = /[A-Za-z0-9\-._~]/;

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
    return {
      problem: `'${odd[0]}' in the path '${raw.slice(0, 100)}' ${why}; percent-encode it (%${odd[0].charCodeAt(0).toString(16).toUpperCase()})`,
    };
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
