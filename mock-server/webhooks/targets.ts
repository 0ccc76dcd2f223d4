/**
 * The receivers of `mock serve --webhook URL` and its secret, read once: the CLI (exit 2) and an
 * in-process mock (MockSetupError) refuse the same things with the same words.
 */
import { randomBase64url } from '../kit/digest.js';
import { isSecretName, REDACTED } from '../http/redact.js';

/** `text` as a receiver URL, or why it cannot be one. */
export function readWebhookUrl(text: string): { url: URL } | { problem: string } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { problem: `'${text}' is not a URL (give one such as http://127.0.0.1:8080/hooks)` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `'${text}' is not an http or https URL` };
  if (url.hostname === '') return { problem: `'${text}' names no host` };
  // A fragment never reaches a server; dropped so the URL shown is the one requested.
  url.hash = '';
  return { url };
}

/** A webhook secret given (`--webhook-secret`), or why it is refused. */
export function webhookSecretProblem(secret: string): string | null {
  return secret.trim() === '' ? 'must not be empty' : null;
}

/** A fresh secret for a mock started without one (printed once at start). */
export function randomWebhookSecret(): string {
  return `whsec_${randomBase64url(24)}`;
}

/** The URL as GET /__mock/webhooks shows it: a password and secret-named query parameters as ***. */
export function shownUrl(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password !== '') shown.password = REDACTED;
  for (const name of [...new Set(shown.searchParams.keys())]) if (isSecretName(name)) shown.searchParams.set(name, REDACTED);
  return shown.href;
}

/** The URL without its user and password (they go in a header: basicAuthorization). */
export function withoutCredentials(url: URL): URL {
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  return bare;
}

/** `Basic …` for a URL's user:password@, or null without one. */
export function basicAuthorization(url: URL): string | null {
  if (url.username === '' && url.password === '') return null;
  const pair = `${unescaped(url.username)}:${unescaped(url.password)}`;
  return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}

/** A percent-escaped URL part as text; as it is when an escape is malformed. */
function unescaped(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
