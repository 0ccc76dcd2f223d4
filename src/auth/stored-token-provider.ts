/**
 * Unattended tokens from stored credentials: a live access token as it is; an expired one (or one
 * the marketplace refused) replaced through the refresh grant; an expired or refused refresh token
 * through the authorization_key grant with the stored key. Only a refused key sends the user back
 * to `mkt login` (exit 3). Renewal runs under the profile's lock file and re-reads the store first,
 * so concurrent processes renew once and never write over each other.
 */
import { AuthError, CliError } from '../errors.js';
import type { Credentials, CredentialStore } from './credentials.js';
import { TokenError, type TokenEndpoint, type TokenResponse } from './token-endpoint.js';
import type { TokenProvider } from '../api/client.js';
import { checkToken } from './token-provider.js';

/** Renew this long before the recorded expiry, for clock skew and request time. */
export const EXPIRY_MARGIN_MS = 60_000;

/** What the provider needs, injected. */
export interface StoredTokenDeps {
  profile: string;
  /** Store account name (`PROFILE@HOST`). */
  account: string;
  /** Finds the stored credentials (and the store they live in). */
  locate(account: string): Promise<{ store: CredentialStore; credentials: Credentials } | null>;
  endpoint: TokenEndpoint;
  /** Runs `fn` under the profile's cross-process lock. */
  lock<T>(fn: () => Promise<T>): Promise<T>;
  now(): number;
  /** Throws (exit 5) when the marketplace cannot be reached: said before any talk of logins. */
  probe?(): Promise<void>;
  /** The hosts (host:port) this profile holds credentials for, to point at a wrong port or host. */
  knownHosts?(): Promise<string[]>;
}

/** Records a token response in `c` (times on the local clock). */
export function applyTokens(c: Credentials, t: TokenResponse, now: number, refreshSeconds: number | null): Credentials {
  const next: Credentials = { ...c, accessToken: t.access_token, accessExpiresAt: now + t.expires_in * 1000 };
  if (refreshSeconds !== null) {
    next.refreshToken = t.refresh_token;
    next.refreshExpiresAt = now + refreshSeconds * 1000;
  }
  return next;
}

/** A token provider over stored credentials. */
export class StoredTokenProvider implements TokenProvider {
  private given?: string;

  constructor(
    private readonly deps: StoredTokenDeps,
    private readonly refreshSeconds: number,
  ) {}

  private live(c: Credentials, now: number): boolean {
    return !!c.accessToken && (c.accessExpiresAt ?? 0) - EXPIRY_MARGIN_MS > now;
  }

  private async find(): Promise<{ store: CredentialStore; credentials: Credentials }> {
    const found = await this.deps.locate(this.deps.account);
    if (found) return found;
    // A wrong port or host looks like "not logged in": first say whether the marketplace is there at
    // all, then which hosts this profile does hold credentials for.
    const { profile, account } = this.deps;
    const host = account.slice(account.indexOf('@') + 1);
    const hosts = ((await this.deps.knownHosts?.()) ?? []).filter((h) => h !== host);
    const elsewhere = hosts.length > 0 ? `profile ${profile} holds credentials for ${hosts.join(', ')}` : undefined;
    try {
      await this.deps.probe?.();
    } catch (err) {
      if (elsewhere && err instanceof CliError) throw new CliError(err.message, err.exitCode, `is base_url right? ${elsewhere}`);
      throw err;
    }
    if (elsewhere) {
      throw new AuthError(
        `not logged in at ${host} (profile ${profile}): ${elsewhere}, not for ${host}`,
        'check base_url (MKT_ROOT_URL, MKT_BASE_URL, --profile) for a wrong port or host, or run `mkt login` to sign in at this one',
      );
    }
    throw new AuthError(`not logged in (profile ${profile}, ${account})`, 'run `mkt login`, or set MKT_ACCESS_TOKEN');
  }

  /** A token to send; `refresh` when the last one was refused. A malformed one (stored, or given by the token endpoint) is exit 3. */
  async accessToken(opts?: { refresh?: boolean }): Promise<string> {
    const token = await this.obtain(opts);
    return checkToken(token, `the access token of ${this.deps.account}`, 'run `mkt login` again to replace the stored credentials');
  }

  private async obtain(opts?: { refresh?: boolean }): Promise<string> {
    const refused = opts?.refresh ? this.given : undefined;
    if (!opts?.refresh) {
      const { credentials } = await this.find();
      if (this.live(credentials, this.deps.now())) return (this.given = credentials.accessToken!);
    }
    const token = await this.deps.lock(async () => {
      const { store, credentials } = await this.find();
      // Another process may have renewed while this one waited for the lock.
      if (this.live(credentials, this.deps.now()) && credentials.accessToken !== refused) return credentials.accessToken!;
      const renewed = await this.renew(credentials, refused !== undefined);
      await store.save(this.deps.account, renewed);
      return renewed.accessToken!;
    });
    return (this.given = token);
  }

  /** Renews: refresh grant first (unless its token is past its time), else the key. */
  async renew(c: Credentials, accessRefused: boolean): Promise<Credentials> {
    const client = { clientId: c.clientId, clientSecret: c.clientSecret };
    const now = this.deps.now();
    const refreshUsable = !!c.refreshToken && (c.refreshExpiresAt ?? 0) - EXPIRY_MARGIN_MS > now;
    if (refreshUsable) {
      try {
        const t = await this.deps.endpoint.refresh(client, c.refreshToken!);
        const next = applyTokens(c, t, this.deps.now(), null);
        next.refreshToken = t.refresh_token || c.refreshToken;
        return next;
      } catch (err) {
        // A refused refresh token (expired on the server's clock) falls back to the key; anything else is real.
        if (!(err instanceof TokenError && err.code === 'invalid_grant')) throw err;
      }
    }
    try {
      const t = await this.deps.endpoint.exchangeKey(client, c.authKey);
      return applyTokens(c, t, this.deps.now(), this.refreshSeconds);
    } catch (err) {
      if (err instanceof TokenError && (err.code === 'invalid_authkey' || err.code === 'unauthorized')) {
        throw new AuthError(
          `the stored auth key of profile ${this.deps.profile} was refused (replaced by a newer login or revoked)${accessRefused ? ' after the access token was refused' : ''}`,
          'run `mkt login`',
        );
      }
      if (err instanceof TokenError && err.code === 'invalid_client') {
        throw new AuthError(
          `the client credentials stored for profile ${this.deps.profile} were refused (${err.message})`,
          'run `mkt login` with the right client secret',
        );
      }
      throw err;
    }
  }
}
