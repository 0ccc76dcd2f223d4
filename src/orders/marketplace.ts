/**
 * Which marketplace account an order goes to. The journal and its lock are keyed by the account the
 * credentials act for at a normalised address, never by how the URL happens to be spelt: two
 * spellings of one marketplace that were two journals would let a retry bid twice.
 */
import { platform } from '../api/accounts.js';
import type { ApiClient } from '../api/client.js';
import { normalisePath } from '../contract/request-path.js';
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
/**
 * The unspecified addresses as WHATWG URL writes every spelling of them (`0`, `0.0.0`, `0x0`, `[0:0::0]`,
 * `[::0.0.0.0]`, `[::ffff:0.0.0.0]`): a server listens on them; a client that sends there reaches
 * whatever the system picks (on Linux, this machine) under a name no other spelling shares.
 */
const BIND_ADDRESSES = new Set(['0.0.0.0', '[::]', '[::ffff:0:0]']);
/** Longest external_user_id taken: ids are UUIDs; the key is written into every journal entry. */
const MAX_ACCOUNT_ID = 256;

const FIX_BASE_URL = "set base_url (`mkt config set base_url URL`, or MKT_BASE_URL) to the marketplace's address, such as https://host/v1";

/**
 * The one normaliser of the address half of the journal key: the base URL with scheme and host in
 * lower case, the default port, user info and fragment dropped, the path read as the marketplace's
 * router reads it (src/contract/request-path.ts: dot segments resolved, repeated and trailing slashes
 * dropped, unreserved escapes decoded, letter case kept), and `localhost`, `127.0.0.1` and `[::1]` as
 * one loopback. Throws a UsageError (exit 2), before anything is sent, for a base URL that is not an
 * http(s) URL, whose path no router reads, or whose host is a bind address (`0.0.0.0`, `::`).
 */
export function marketplaceAddress(baseUrl: string): string {
  let u: URL;
  try {
    u = new URL(baseUrl.trim());
  } catch {
    throw new UsageError(`base URL '${baseUrl}' is not a valid URL`, FIX_BASE_URL);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new UsageError(`base URL '${baseUrl}' is not an http or https URL`, FIX_BASE_URL);
  }
  // WHATWG parsing already lower-cases scheme and host, drops the default port, reads 127.1 as
  // 127.0.0.1 and 0 as 0.0.0.0, and writes an IPv6 address in its one compressed form.
  const dns = u.hostname.endsWith('.') ? u.hostname.slice(0, -1) : u.hostname;
  if (BIND_ADDRESSES.has(dns)) {
    throw new UsageError(
      `base URL '${baseUrl}' names ${dns}, the address a server listens on (every interface), not one a client sends to; nothing was sent`,
      'set base_url (`mkt config set base_url URL`, or MKT_BASE_URL) to the address the server answers on, such as http://127.0.0.1:4010/v1',
    );
  }
  const path = normalisePath(u.pathname);
  if ('problem' in path) throw new UsageError(`base URL '${baseUrl}': ${path.problem}`, FIX_BASE_URL);
  const host = LOOPBACK.has(dns) ? '127.0.0.1' : dns;
  return `${u.protocol}//${host}${u.port ? `:${u.port}` : ''}${path.path === '/' ? '' : path.path}${u.search}`;
}

/**
 * The journal and lock key: the account's external_user_id at the marketplaceAddress of `baseUrl`,
 * so that every spelling the marketplace answers alike is one journal. Throws as marketplaceAddress.
 */
export function marketplaceKey(baseUrl: string, account: string): string {
  return `${encodeURIComponent(account)}@${marketplaceAddress(baseUrl)}`;
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
 * Asks the marketplace which account the credentials act for (`GET /accounts/platform`), once the
 * base URL has a key. Run before anything is sent: when it fails, nothing is sent, with the exit code
 * of the failure.
 */
export async function identifyMarketplace(client: ApiClient): Promise<Marketplace> {
  const baseUrl = client.settings.baseUrl;
  // A base URL the key refuses is refused before the account is asked: nothing goes to a bind address.
  marketplaceAddress(baseUrl);
  let answer: unknown;
  try {
    answer = await platform(client);
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    throw new CliError(
      `could not tell which marketplace account the bids are for: ${err.message}; nothing was sent`,
      err.exitCode,
      err.hint,
    );
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
