/**
 * Which marketplace account an order goes to. The journal and its lock are keyed by the account the
 * credentials act for at a normalised address, never by how the URL happens to be spelt: two
 * spellings of one marketplace that were two journals would let a retry bid twice.
 */
import { platform } from '../api/accounts.js';
import type { ApiClient } from '../api/client.js';
import { CliError, EXIT, UsageError } from '../errors.js';

/** The account an order is placed for, as the journal knows it. */
export interface Marketplace {
  /** The base URL as configured (kept in journal entries for people to read). */
  baseUrl: string;
  /** The account's external_user_id. */
  account: string;
  /** `marketplaceKey(baseUrl, account)`. */
  key: string;
}

/** Every spelling of the local machine, one loopback: the mock answers on all of them alike. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '[::ffff:7f00:1]']);
/** RFC 3986 unreserved characters: %-escaping them does not change the URL. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** Longest external_user_id taken: ids are UUIDs; the key is written into every journal entry. */
const MAX_ACCOUNT_ID = 256;

/**
 * The one normaliser of the journal key: the account's external_user_id and the base URL with
 * scheme and host in lower case, the default port, user info, fragment and trailing slashes dropped,
 * unreserved %-escapes decoded, and `localhost`, `127.0.0.1` and `[::1]` as one loopback.
 * Throws a UsageError naming a base URL that is not an http(s) URL.
 */
export function marketplaceKey(baseUrl: string, account: string): string {
  let u: URL;
  try {
    u = new URL(baseUrl.trim());
  } catch {
    throw new UsageError(`base URL '${baseUrl}' is not a valid URL`, 'set base_url (or MKT_BASE_URL) to an address such as https://host/v1');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new UsageError(`base URL '${baseUrl}' is not an http or https URL`, 'set base_url (or MKT_BASE_URL) to an address such as https://host/v1');
  }
  // WHATWG parsing already lower-cases scheme and host, drops the default port and reads 127.1 as 127.0.0.1.
  const dns = u.hostname.endsWith('.') ? u.hostname.slice(0, -1) : u.hostname;
  const host = LOOPBACK.has(dns) ? '127.0.0.1' : dns;
  const path = u.pathname
    .replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
      const ch = String.fromCharCode(parseInt(hex, 16));
      return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
    })
    .replace(/\/+$/, '');
  return `${encodeURIComponent(account)}@${u.protocol}//${host}${u.port ? `:${u.port}` : ''}${path}${u.search}`;
}

/** The key an old journal entry (base URL only) would have for `account`; null when its URL is unreadable. */
export function legacyKey(baseUrl: unknown, account: string): string | null {
  if (typeof baseUrl !== 'string') return null;
  try {
    return marketplaceKey(baseUrl, account);
  } catch {
    // An entry whose URL does not parse was never sent anywhere by the old version.
    return null;
  }
}

/**
 * Asks the marketplace which account the credentials act for (`GET /accounts/platform`). Run before
 * anything is sent: when it fails, nothing is sent, with the exit code of the failure.
 */
export async function identifyMarketplace(client: ApiClient): Promise<Marketplace> {
  const baseUrl = client.settings.baseUrl;
  let answer: unknown;
  try {
    answer = await platform(client);
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    throw new CliError(`could not tell which marketplace account the bids are for: ${err.message}; nothing was sent`, err.exitCode, err.hint);
  }
  const id = answer && typeof answer === 'object' ? (answer as Record<string, unknown>).external_user_id : undefined;
  // Refused rather than keyed by profile and address: one account's journal split by profile (or
  // re-keyed once the id appears) is how a retry or another profile would bid twice.
  if (id === undefined || id === null) {
    throw new CliError(
      'the account answer (GET /accounts/platform) has no external_user_id, and the journal that keeps a bid from being sent twice is kept per account: mkt does not submit without it; nothing was sent',
      EXIT.UNREACHABLE,
      'older answers of the marketplace leave the id out; its current answer has it: check base_url points at the current API (`mkt account -o json` shows the answer)',
    );
  }
  if (typeof id !== 'string' || id.trim() === '' || id.length > MAX_ACCOUNT_ID || /[\p{Cc}\p{Cs}]/u.test(id)) {
    throw new CliError(
      'the marketplace answered GET /accounts/platform without a usable external_user_id; nothing was sent',
      EXIT.UNREACHABLE,
      'the journal that prevents double bids is kept per account: check base_url points at the marketplace API',
    );
  }
  return { baseUrl, account: id, key: marketplaceKey(baseUrl, id) };
}
