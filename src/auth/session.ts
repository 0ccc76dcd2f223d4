/**
 * Everything the auth commands and the token provider share for one profile: the store account
 * name, the stores, the token endpoint and the profile's lock file under the state dir.
 */
import { join } from 'node:path';
import type { HttpClient } from '../api/http.js';
import type { Settings } from '../config/settings.js';
import { REFRESH_TOKEN_SECONDS } from '../contract/enums.js';
import { credentialAccount, type CredentialStore } from './credentials.js';
import { systemClock } from '../clock.js';
import { withLock } from '../lock-file.js';
import { StoredTokenProvider } from './stored-token-provider.js';
import { hostsOf, keychainTimeoutMs, storePreference, Stores } from './stores.js';
import { TokenEndpoint } from './token-endpoint.js';

/** What a session is built from. */
export interface SessionDeps {
  settings: Settings;
  env: Readonly<Record<string, string | undefined>>;
  http: HttpClient;
  /** Messages for the person (stderr). */
  stderr: (line: string) => void;
  /** The clock credentials' expiry is read against (default: the system clock). */
  now?: () => number;
  /** --insecure-storage was given. */
  insecureStorage?: boolean;
  /** A keychain to use instead of the OS one (tests). */
  keychain?: CredentialStore;
}

/** The auth context of one profile. */
export class AuthSession {
  readonly account: string;
  readonly stores: Stores;
  readonly endpoint: TokenEndpoint;
  readonly lockPath: string;
  readonly now: () => number;

  constructor(readonly deps: SessionDeps) {
    const { settings, env } = deps;
    this.account = credentialAccount(settings.profile, settings.baseUrl);
    this.stores = new Stores(storePreference(env, deps.insecureStorage), {
      configDir: settings.configDir,
      keychainTimeoutMs: keychainTimeoutMs(env),
      warn: deps.stderr,
      ...(deps.keychain ? { keychain: deps.keychain } : {}),
    });
    this.endpoint = new TokenEndpoint(deps.http, settings.baseUrl);
    this.lockPath = join(settings.stateDir, settings.profile, 'credentials.lock');
    this.now = deps.now ?? systemClock.now;
  }

  /** Runs `fn` under the profile's cross-process lock. */
  lock<T>(fn: () => Promise<T>): Promise<T> {
    return withLock(this.lockPath, fn, { now: this.now });
  }

  /** The provider of access tokens from the stored credentials. */
  tokenProvider(): StoredTokenProvider {
    return new StoredTokenProvider(
      {
        profile: this.deps.settings.profile,
        account: this.account,
        locate: (account) => this.stores.locate(account),
        endpoint: this.endpoint,
        lock: (fn) => this.lock(fn),
        now: this.now,
        // Any answer at all means the marketplace is there; only a failure to connect throws (exit 5).
        probe: async () => void (await this.deps.http.send({ method: 'GET', url: this.deps.settings.baseUrl })),
        knownHosts: () => hostsOf(this.stores, this.deps.settings.profile, this.deps.settings.configDir),
      },
      REFRESH_TOKEN_SECONDS,
    );
  }
}
