/**
 * Who may reach the admin routes (/__mock/*, the dashboard among them): pure decisions over the
 * normalised path, the peer, the bound host, the request headers and the admin token, so they are
 * tested without sockets. Bound to a loopback address, loopback callers may; bound to any other
 * address, every caller (loopback too) must present the admin token. A refused caller sees the same
 * 404 as for a path that does not exist.
 *
 * A caller that may is then asked where its request comes from (adminRequestRefusal): a page of
 * another origin, open in the browser of the person running the mock, is on loopback too, and a
 * `fetch(..., {mode: 'no-cors'})` needs no preflight. So a request whose `Sec-Fetch-Site` is other
 * than `same-origin` or `none`, or whose `Origin` is not the host it was sent to (or a name given with
 * `--allow-host`), is 403; and a write whose body is not declared JSON is 415 (a missing type too),
 * which no page can send cross-origin without a preflight the mock never answers. Clients that send
 * neither header (curl, mkt) are not browsers, and go on.
 */
import { ADMIN_TOKEN_HEADER } from '../../src/contract/mock-admin.js';
import { randomBase64url, sameSecret } from '../kit/digest.js';
import { canonicalName, type NamedHost, type ServedHosts } from './host-check.js';
import { isAdminPath } from './request-target.js';

export { ADMIN_TOKEN_HEADER };

/** What the decision reads. `path` is the normalised path (request-target.ts). */
export interface AdminAccessInput {
  path: string;
  /** The caller's address as the socket reports it. */
  peer: string | undefined;
  /** The address the server is bound to. */
  boundHost: string;
  headers: Record<string, string | string[] | undefined>;
  /** The token admin callers must present off loopback; null: none set. */
  adminToken: string | null;
}

/** Whether an address is a loopback one (127/8, ::1, or 127/8 mapped into IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  return a.startsWith('127.') || a === '::1' || a.startsWith('::ffff:127.') || a === 'localhost';
}

/** A fresh random admin token (for a non-loopback bind without --admin-token). */
export function randomAdminToken(): string {
  return randomBase64url(24);
}

function presented(headers: AdminAccessInput['headers']): string[] {
  const out: string[] = [];
  const add = (v: string | string[] | undefined, strip: boolean) => {
    for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) {
      if (!strip) out.push(one.trim());
      else {
        const m = /^bearer\s+(\S+)\s*$/i.exec(one);
        if (m) out.push(m[1]!);
      }
    }
  };
  add(headers[ADMIN_TOKEN_HEADER], false);
  add(headers.authorization, true);
  return out;
}

/** Whether the request may go on: true for every non-admin path; for admin paths, the rules above. */
export function adminAccessAllowed(input: AdminAccessInput): boolean {
  if (!isAdminPath(input.path)) return true;
  if (isLoopbackAddress(input.boundHost) && isLoopbackAddress(input.peer)) return true;
  const token = input.adminToken;
  if (token === null || token === '') return false;
  // Every presented value is compared (no early exit), so timing says nothing about which matched.
  let ok = false;
  for (const given of presented(input.headers)) ok = sameSecret(given, token) || ok;
  return ok;
}

/** What the origin and content-type decision reads. */
export interface AdminRequestInput {
  /** The normalised path (request-target.ts). */
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  /** The host the request named (host-check.ts; already one the server serves), null when it named none. */
  host: NamedHost | null;
  served: ServedHosts;
}

/** Why an admin request is refused although its caller may reach admin routes. */
export interface AdminRefusal {
  status: 403 | 415;
  body: { code: string; message: string };
}

/** What a browser says of where a request comes from that lets it reach admin routes: its own page, or the person (typed URL, bookmark). */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);
/** A JSON content type: application/json or a `+json` kin, with parameters. */
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;
/** What follows every 403: who is answered. */
const WHO = "admin routes and the dashboard answer only pages of the mock's own origin, and clients that send no Origin (curl, mkt)";

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(', ') : v);

/**
 * Whether `origin` (an Origin header) is the origin of the host the request was sent to: the same name
 * and port (a Host without a port is on the default port of the origin's scheme), or a name given
 * with --allow-host (the public name of a proxy in front, whatever its port).
 */
function isOwnOrigin(origin: string, host: NamedHost | null, served: ServedHosts): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:')
    || url.username !== ''
    || url.password !== ''
    || url.pathname !== '/'
    || url.search !== ''
    || url.hash !== ''
  )
    return false;
  const name = canonicalName(url.hostname);
  if (name === null) return false;
  if (served.allowed.has(name)) return true;
  if (host === null) return false;
  const defaultPort = url.protocol === 'https:' ? 443 : 80;
  const port = url.port === '' ? defaultPort : Number(url.port);
  return name === host.name && port === (host.port ?? defaultPort);
}

/** The origin a Host stands for, as a message shows it. */
function shownOrigin(host: NamedHost | null): string {
  return host === null ? 'none: the request named no Host' : `http://${host.name}${host.port === null ? '' : `:${host.port}`}`;
}

/**
 * Why an admin request from a caller that may reach admin routes is refused (null: it goes on): 403
 * for a page of another origin (by `Sec-Fetch-Site`, then `Origin`), 415 for a write whose body is not
 * declared JSON. Decided on the headers, before any body is read.
 */
export function adminRequestRefusal(input: AdminRequestInput): AdminRefusal | null {
  if (!isAdminPath(input.path)) return null;
  const site = one(input.headers['sec-fetch-site'])?.trim().toLowerCase();
  if (site !== undefined && !OWN_FETCH_SITES.has(site)) {
    return forbidden(`sec-fetch-site: '${site.slice(0, 40)}': the browser says this request comes from a page of another origin; ${WHO}`);
  }
  const origin = one(input.headers.origin)?.trim();
  if (origin !== undefined && !isOwnOrigin(origin, input.host, input.served)) {
    return forbidden(
      `origin: '${origin.slice(0, 100)}' is not this mock's own (${shownOrigin(input.host)}); ${WHO}. A proxy in front with a name of its own needs mkt mock serve --allow-host NAME`,
    );
  }
  if (input.method !== 'GET' && input.method !== 'HEAD') {
    const framed = input.headers['transfer-encoding'] !== undefined || Number(input.headers['content-length'] ?? 0) > 0;
    const type = one(input.headers['content-type'])?.trim() ?? '';
    if (framed && !JSON_TYPE.test(type)) {
      return {
        status: 415,
        body: {
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: `content-type: ${type === '' ? 'none' : `'${type.slice(0, 100)}'`} is not accepted on admin routes; send the body as application/json (or send none)`,
        },
      };
    }
  }
  return null;
}

function forbidden(message: string): AdminRefusal {
  return { status: 403, body: { code: 'FORBIDDEN_ORIGIN', message } };
}
