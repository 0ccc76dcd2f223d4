/**
 * Which credential store a run uses. Lookup order (DESIGN.md): MKT_ACCESS_TOKEN (handled by the
 * token provider) > keychain > the 0600 file. The file is used only by choice: `--insecure-storage`
 * or MKT_CREDENTIAL_STORE=file for writing, and for reading when the profile's last login chose it
 * (every host) or it holds the profile and the keychain does not. `mkt login` writing to the file says
 * so on stderr, once; later reads stay quiet.
 */
import { UsageError } from '../errors.js';
import type { CredentialStore, Credentials } from './credentials.js';
import { FileStore } from './file-store.js';
import { KEYCHAIN_TIMEOUT_MS, KeychainError, KeychainStore } from './keychain-store.js';

/** What the user asked for: one store, or keychain first with the file as a chosen fallback. */
export type StorePreference = 'keychain' | 'file' | 'auto';

type Env = Readonly<Record<string, string | undefined>>;

/** Reads MKT_CREDENTIAL_STORE and --insecure-storage (exit 2 on an unknown store name). */
export function storePreference(env: Env, insecureStorage = false): StorePreference {
  const v = env.MKT_CREDENTIAL_STORE?.trim().toLowerCase();
  if (v && v !== 'keychain' && v !== 'file')
    throw new UsageError(`MKT_CREDENTIAL_STORE must be keychain or file, got '${env.MKT_CREDENTIAL_STORE}'`);
  if (insecureStorage) {
    if (v === 'keychain') throw new UsageError('--insecure-storage contradicts MKT_CREDENTIAL_STORE=keychain');
    return 'file';
  }
  return (v as StorePreference | undefined) ?? 'auto';
}

/** Keychain call timeout: MKT_KEYCHAIN_TIMEOUT seconds, else the default; a bad value is exit 2, not silently the default. */
export function keychainTimeoutMs(env: Env): number {
  const text = env.MKT_KEYCHAIN_TIMEOUT?.trim();
  if (!text) return KEYCHAIN_TIMEOUT_MS;
  const s = Number(text);
  // Capped: a timer past 2^31 ms fires at once in Node, which would report the keychain as unreachable.
  if (!/^\d+(\.\d+)?$/.test(text) || !(s > 0) || s > 3600) {
    throw new UsageError(`MKT_KEYCHAIN_TIMEOUT must be a number of seconds above 0 and at most 3600, got '${env.MKT_KEYCHAIN_TIMEOUT}'`);
  }
  return s * 1000;
}

/** The stores of one run, built on first use, with the file-store warning printed once. */
export class Stores {
  private kc?: CredentialStore;
  private fs?: FileStore;
  private warned = false;

  constructor(
    readonly preference: StorePreference,
    private readonly opts: { configDir: string; keychainTimeoutMs?: number; warn: (line: string) => void; keychain?: CredentialStore },
  ) {}

  /** The keychain store. */
  keychain(): CredentialStore {
    this.kc ??= this.opts.keychain ?? new KeychainStore(this.opts.keychainTimeoutMs);
    return this.kc;
  }

  /** The plain-file store; `warn` says so on stderr (once per run). */
  file(warn = true): FileStore {
    this.fs ??= new FileStore(this.opts.configDir);
    if (warn && !this.warned) {
      this.warned = true;
      this.opts.warn(`mkt: warning: credentials are kept in a plain file, ${this.fs.location} (mode 0600), not in the OS keychain`);
    }
    return this.fs;
  }

  /** Where `mkt login` writes when nothing else is known: the store asked for, else the keychain. */
  forWriting(): CredentialStore {
    return this.preference === 'file' ? this.file() : this.keychain();
  }

  /**
   * Where `mkt login` of `profile` writes: the store asked for (flag or MKT_CREDENTIAL_STORE), else the one
   * the profile's last login chose. A file-store profile stays one after `mkt logout` (which keeps the
   * choice), so the bare `mkt login` every hint names works where no keychain answers.
   */
  async forLogin(profile: string): Promise<CredentialStore> {
    if (this.preference !== 'auto' || !(await this.file(false).chosenBy(profile))) return this.forWriting();
    this.opts.warn(
      `mkt: profile ${profile} chose the file store at its last login: logging in there again (MKT_CREDENTIAL_STORE=keychain mkt login moves it to the keychain)`,
    );
    return this.file();
  }

  /** Finds the credentials of `account`; a keychain failure is reported unless the chosen file holds them. */
  async locate(account: string): Promise<{ store: CredentialStore; credentials: Credentials } | null> {
    // MKT_CREDENTIAL_STORE=file is an explicit, lasting choice: reads stay quiet (cron mail), writes warn.
    if (this.preference === 'file') return found(this.file(false), await this.file(false).load(account));
    if (this.preference === 'keychain') return found(this.keychain(), await this.keychain().load(account));
    const file = this.file(false);
    // The file chosen at this profile's last login holds its credentials for every host: a keychain
    // (absent under cron, or without its binding) has nothing to say, so "not logged in at" or
    // "cannot reach" stay the answer at a host the file does not hold.
    if (await file.chosenBy(profileOf(account))) return found(file, await file.load(account));
    let failure: KeychainError | undefined;
    let inKeychain: Credentials | null = null;
    try {
      inKeychain = await this.keychain().load(account);
    } catch (err) {
      if (!(err instanceof KeychainError)) throw err;
      failure = err;
    }
    const inFile = await file.load(account);
    // Both hold the profile when the user switched stores between logins: the newer login wins. Reading
    // the file the user chose at login stays quiet: the warning was said once, when it was written.
    if (inFile && (!inKeychain || inFile.loggedInAt > inKeychain.loggedInAt)) return { store: file, credentials: inFile };
    if (inKeychain) return { store: this.keychain(), credentials: inKeychain };
    // A file-store user who logged out is not logged in; a keychain they never used has nothing to say.
    if (failure && !(await file.loggedOut(account))) throw failure;
    return null;
  }
}

/** The hosts (host:port) `profile` holds credentials for in the stores this run may read; best effort, never throws. */
export async function hostsOf(stores: Stores, profile: string, configDir: string): Promise<string[]> {
  const file = new FileStore(configDir);
  const lists: Array<Promise<string[]>> = [file.accounts()];
  const fileChosen = stores.preference === 'file' || (await file.chosenBy(profile).catch(() => false));
  if (!fileChosen) lists.push(stores.keychain().accounts?.() ?? Promise.resolve([]));
  const names = (await Promise.all(lists.map((l) => l.catch(() => [] as string[])))).flat();
  const prefix = `${profile}@`;
  return [...new Set(names.filter((n) => n.startsWith(prefix)).map((n) => n.slice(prefix.length)))].sort();
}

/** The profile of a store account name `PROFILE@HOST` (a host never holds '@'). */
export function profileOf(account: string): string {
  const at = account.lastIndexOf('@');
  return at < 0 ? account : account.slice(0, at);
}

function found(store: CredentialStore, credentials: Credentials | null) {
  return credentials ? { store, credentials } : null;
}
