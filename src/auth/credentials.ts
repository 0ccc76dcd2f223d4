/**
 * What `mkt login` stores per profile, and the interface every credential store implements.
 * A store keeps one JSON record per account name `PROFILE@HOST` (HOST = host:port of base_url).
 */

/** The stored credentials of one profile. Secrets: clientSecret, authKey, refreshToken, accessToken. */
export interface Credentials {
  clientId: string;
  clientSecret: string;
  /** The auth key (never expires; replaced by a new login). */
  authKey: string;
  /** Scopes granted with the key. */
  scopes: string[];
  refreshToken?: string;
  /** Epoch ms, local clock. */
  refreshExpiresAt?: number;
  accessToken?: string;
  /** Epoch ms, local clock. */
  accessExpiresAt?: number;
  /** When the key was obtained (epoch ms). */
  loggedInAt: number;
}

/** Where credentials live. */
export type StoreKind = 'keychain' | 'file';

/** A place that keeps credentials. Every method may throw a CliError naming what is wrong with the store. */
export interface CredentialStore {
  readonly kind: StoreKind;
  /** Human-readable location, for `mkt auth status` (never a secret). */
  readonly location: string;
  /** The credentials stored under `account`, or null. */
  load(account: string): Promise<Credentials | null>;
  /** Stores (replaces) the credentials of `account`. */
  save(account: string, credentials: Credentials): Promise<void>;
  /** Removes `account`; true when something was removed. */
  remove(account: string): Promise<boolean>;
  /** Proves the store can be written now (a locked keyring fails here, before any browser work). */
  check(): Promise<void>;
  /** Every account name the store holds, for "you have credentials for another host" (optional: best effort). */
  accounts?(): Promise<string[]>;
}

/** The store account name of a profile: `PROFILE@HOST`. */
export function credentialAccount(profile: string, baseUrl: string): string {
  let host: string;
  try {
    host = new URL(baseUrl).host;
  } catch {
    host = baseUrl;
  }
  return `${profile}@${host}`;
}

/** Parses a stored record; null when it is not credentials (a foreign or torn value). */
export function parseCredentials(text: string): Credentials | null {
  try {
    const v = JSON.parse(text) as Partial<Credentials>;
    if (typeof v !== 'object' || v === null) return null;
    if (typeof v.clientId !== 'string' || typeof v.clientSecret !== 'string' || typeof v.authKey !== 'string') return null;
    return { scopes: [], loggedInAt: 0, ...v } as Credentials;
  } catch {
    return null;
  }
}
