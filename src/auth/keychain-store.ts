/**
 * The OS keychain store through `@github/keytar` (service `mkt`, account `PROFILE@HOST`). The
 * native binding is imported lazily, every call runs under a timeout (a locked keyring can wait
 * forever for a password), and a missing, unreachable or locked keyring is reported as such.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CliError, EXIT } from '../errors.js';
import { requireCommonJs } from '../os/require-common-js.js';
import { parseCredentials, type CredentialStore, type Credentials } from './credentials.js';

/** The keychain service name. */
export const KEYCHAIN_SERVICE = 'mkt';
/** The account of the probe entry `check` writes and removes at once. */
const PROBE_ACCOUNT = '__mkt_probe__';
/** Default time a keychain call may take. */
export const KEYCHAIN_TIMEOUT_MS = 5000;

const FALLBACK_HINT =
  'unlock or start your keyring (a Secret Service such as gnome-keyring), or choose the file store with `mkt login --insecure-storage` or MKT_CREDENTIAL_STORE=file';

/** The keychain cannot be used: unreachable, locked, missing, or too slow. Exit 3, never "not logged in". */
export class KeychainError extends CliError {
  constructor(
    message: string,
    override readonly cause?: unknown,
    hint = FALLBACK_HINT,
  ) {
    super(message, EXIT.AUTH, hint);
  }
}

/** The part of keytar this store uses. */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials?(service: string): Promise<Array<{ account: string }>>;
}

/**
 * Why the binding's native addon does not load, in dlopen's words: keytar's own loader swallows them
 * ("Failed to load keytar native addon, checked …"), so each place it looks is tried again here.
 */
export function addonLoadErrors(platform = process.platform, arch = process.arch): string[] {
  try {
    const req = createRequire(import.meta.url);
    const dir = dirname(req.resolve('@github/keytar/package.json'));
    const errors: string[] = [];
    for (const sub of ['build/Release', `prebuilds/${platform}-${arch}`]) {
      try {
        req(join(dir, sub, 'keytar.node'));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') errors.push((err as Error).message.split('\n')[0] ?? '');
      }
    }
    return errors;
  } catch {
    return [];
  }
}

/** Loads the keychain binding; a shared library it lacks is named with the package that provides it. */
export async function loadKeytar(
  importer: () => Promise<unknown> = async () => requireCommonJs<unknown>('@github/keytar'),
  diagnose: () => string[] = addonLoadErrors,
): Promise<KeytarApi> {
  try {
    const mod = (await importer()) as { default?: KeytarApi } & KeytarApi;
    return mod.default ?? mod;
  } catch (err) {
    const first = (err as Error)?.message?.split('\n')[0] ?? String(err);
    // dlopen's words: "libsecret-1.so.0: cannot open shared object file: No such file or directory".
    if ([first, ...diagnose()].some((why) => /libsecret-1\.so/.test(why))) {
      throw new KeychainError(
        'the keychain needs libsecret-1-0 (apt install libsecret-1-0); or use --insecure-storage',
        err,
        'on a system without apt, install the package that provides libsecret-1.so.0; or set MKT_CREDENTIAL_STORE=file',
      );
    }
    throw new KeychainError(`the OS keychain is not available: cannot load the keychain binding (${first})`, err);
  }
}

/** Turns a keytar failure into a message that says what is wrong with the keychain. */
export function describeKeychainFailure(err: unknown): KeychainError {
  const msg = (err as Error)?.message ?? String(err);
  if (/could not connect|cannot autolaunch|no such file|connection refused|dbus|not provided by any \.service|ServiceUnknown/i.test(msg)) {
    return new KeychainError(`the OS keychain is not reachable: no Secret Service answered on the session bus (${msg})`, err);
  }
  if (/locked|prompt|dismiss|cancel|does not exist at path|no such (secret )?collection|not unlocked/i.test(msg)) {
    return new KeychainError(`the OS keychain is locked or has no default keyring (${msg})`, err);
  }
  return new KeychainError(`the OS keychain failed: ${msg}`, err);
}

/** Credentials in the OS keychain. */
export class KeychainStore implements CredentialStore {
  readonly kind = 'keychain' as const;
  readonly location = `OS keychain (service ${KEYCHAIN_SERVICE})`;
  private api?: Promise<KeytarApi>;

  constructor(
    private readonly timeoutMs = KEYCHAIN_TIMEOUT_MS,
    private readonly loader: () => Promise<KeytarApi> = loadKeytar,
  ) {}

  private async call<T>(what: string, fn: (api: KeytarApi) => Promise<T>): Promise<T> {
    this.api ??= this.loader();
    const api = await this.api;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new KeychainError(
              `the OS keychain did not answer within ${Math.round(this.timeoutMs / 100) / 10} s while trying to ${what} (is it locked and waiting for a password?)`,
            ),
          ),
        this.timeoutMs,
      );
      timer.unref();
    });
    try {
      return await Promise.race([fn(api), timeout]);
    } catch (err) {
      throw err instanceof KeychainError ? err : describeKeychainFailure(err);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The credentials stored under `account`, or null. */
  async load(account: string): Promise<Credentials | null> {
    const text = await this.call('read credentials', (k) => k.getPassword(KEYCHAIN_SERVICE, account));
    return text === null ? null : parseCredentials(text);
  }

  /** Every account name under the `mkt` service. */
  async accounts(): Promise<string[]> {
    const found = await this.call('list credentials', async (k) => (k.findCredentials ? k.findCredentials(KEYCHAIN_SERVICE) : []));
    return found.map((c) => c.account).filter((a) => a !== PROBE_ACCOUNT);
  }

  /** Stores the credentials of `account`. */
  async save(account: string, credentials: Credentials): Promise<void> {
    await this.call('store credentials', (k) => k.setPassword(KEYCHAIN_SERVICE, account, JSON.stringify(credentials)));
  }

  /** Removes `account`. */
  async remove(account: string): Promise<boolean> {
    return this.call('remove credentials', (k) => k.deletePassword(KEYCHAIN_SERVICE, account));
  }

  /** Writes and removes a probe entry: a locked or absent keyring fails here. */
  async check(): Promise<void> {
    await this.call('write a test entry', async (k) => {
      await k.setPassword(KEYCHAIN_SERVICE, PROBE_ACCOUNT, 'probe');
      await k.deletePassword(KEYCHAIN_SERVICE, PROBE_ACCOUNT);
    });
  }
}
