/**
 * Following an approval that needs no human, for a login with no browser to open: the bundled mock
 * started with `--auto-approve USER` answers the authorization URL with a redirect straight to this
 * login's loopback catcher. Asked only of an authorization server on a loopback address (the local
 * mock); a real marketplace answers a consent or sign-in page, which is left to a person. The redirect is
 * read by `readCallback`, so its `state` is checked exactly as the catcher checks a browser's.
 */
import type { HttpClient } from '../api/http.js';
import { readCallback, type CallbackOutcome } from './redirect-catcher.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Whether `hostname` (as URL.hostname gives it) is this machine: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The redirect's origin and path, to compare with the catcher's. */
function target(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/**
 * Asks a loopback authorization server for `authorizationUrl` once, without following anything. When it
 * answers a redirect to `redirectUri` with this login's `state`, the outcome (a key, or a cancellation);
 * otherwise null: a page for a person, another place, or a state that is not this login's.
 */
export async function followAutoApproval(
  http: Pick<HttpClient, 'send'>,
  authorizationUrl: string,
  redirectUri: string,
  state: string,
): Promise<Exclude<CallbackOutcome, { kind: 'mismatch' }> | null> {
  const url = new URL(authorizationUrl);
  if (!isLoopbackHost(url.hostname)) return null;
  const res = await http.send({ method: 'GET', url: url.href, headers: { accept: 'text/html' } });
  const location = res.headers.location;
  if (!REDIRECTS.has(res.status) || typeof location !== 'string') return null;
  let to: URL;
  try {
    to = new URL(location, url);
  } catch {
    return null;
  }
  if (target(to) !== target(new URL(redirectUri))) return null;
  const outcome = readCallback(to.searchParams, state);
  return outcome.kind === 'mismatch' ? null : outcome;
}
