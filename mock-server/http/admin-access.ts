/**
 * Who may reach the admin routes (/__mock/*): a pure decision over the normalised path, the peer, the
 * bound host, the request headers and the admin token, so it is tested without sockets. Bound to a
 * loopback address, loopback callers may; bound to any other address, every caller (loopback too)
 * must present the admin token. A refused caller sees the same 404 as for a path that does not exist.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ADMIN_TOKEN_HEADER } from '../../src/contract/mock-admin.js';
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
  return randomBytes(24).toString('base64url');
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

/** Compares in constant time: both sides are hashed first so that their lengths leak nothing either. */
function sameToken(given: string, expected: string): boolean {
  const h = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(h(given), h(expected));
}

/** Whether the request may go on: true for every non-admin path; for admin paths, the rules above. */
export function adminAccessAllowed(input: AdminAccessInput): boolean {
  if (!isAdminPath(input.path)) return true;
  if (isLoopbackAddress(input.boundHost) && isLoopbackAddress(input.peer)) return true;
  const token = input.adminToken;
  if (token === null || token === '') return false;
  // Every presented value is compared (no early exit), so timing says nothing about which matched.
  let ok = false;
  for (const given of presented(input.headers)) ok = sameToken(given, token) || ok;
  return ok;
}
