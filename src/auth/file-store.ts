/**
 * The plain-file store, only by choice (`--insecure-storage` or MKT_CREDENTIAL_STORE=file):
 * `$MKT_CONFIG_DIR/credentials.json`, mode 0600, one record per `PROFILE@HOST`. Every write goes to
 * a 0600 temporary file in the same directory and is renamed over the old one, so a reader never
 * sees a torn file; callers serialise read-modify-write with the profile lock.
 */
import { chmod, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CliError, EXIT, systemErrorWords, UsageError } from '../errors.js';
import { makeDirs, readRegularFile } from '../state-files.js';
import { parseCredentials, type CredentialStore, type Credentials } from './credentials.js';

/** The file's name under the config directory. */
export const CREDENTIALS_FILE = 'credentials.json';

interface FileShape {
  version: 1;
  credentials: Record<string, unknown>;
  /** Accounts removed by `mkt logout`: their user chose this file, so a keychain they never used stays out of "not logged in". */
  logged_out?: string[];
  /** Profiles whose user chose this file at their last `mkt login`: read here for every host, the keychain never asked. */
  chosen_by?: string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((a): a is string => typeof a === 'string') : []);

/** Credentials in a 0600 JSON file. */
export class FileStore implements CredentialStore {
  readonly kind = 'file' as const;
  readonly location: string;

  constructor(readonly dir: string) {
    this.location = join(dir, CREDENTIALS_FILE);
  }

  private async read(): Promise<FileShape> {
    let text: string | undefined;
    try {
      text = readRegularFile(this.location, 'the credentials file');
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw new CliError(`cannot read ${this.location}: ${systemErrorWords(err)}`, EXIT.AUTH);
    }
    if (text === undefined) return { version: 1, credentials: {} };
    try {
      const parsed = JSON.parse(text) as Partial<FileShape>;
      const loggedOut = strings(parsed.logged_out);
      const chosenBy = strings(parsed.chosen_by);
      return {
        version: 1,
        credentials: parsed.credentials && typeof parsed.credentials === 'object' ? parsed.credentials : {},
        ...(loggedOut.length ? { logged_out: loggedOut } : {}),
        ...(chosenBy.length ? { chosen_by: chosenBy } : {}),
      };
    } catch {
      throw new CliError(`credentials file ${this.location} is not valid JSON`, EXIT.AUTH, 'remove it and run `mkt login` again');
    }
  }

  private async write(shape: FileShape): Promise<void> {
    makeDirs(this.dir, 'the config directory');
    const tmp = `${this.location}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const fh = await open(tmp, 'wx', 0o600);
    try {
      await fh.writeFile(`${JSON.stringify(shape, null, 2)}\n`);
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await chmod(tmp, 0o600);
      await rename(tmp, this.location);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /** The credentials stored under `account`, or null. */
  async load(account: string): Promise<Credentials | null> {
    const value = (await this.read()).credentials[account];
    return value === undefined ? null : parseCredentials(JSON.stringify(value));
  }

  /** Every account name in the file. */
  async accounts(): Promise<string[]> {
    return Object.keys((await this.read()).credentials);
  }

  /** Stores the credentials of `account`. */
  async save(account: string, credentials: Credentials): Promise<void> {
    const shape = await this.read();
    shape.credentials[account] = credentials;
    if (shape.logged_out) shape.logged_out = shape.logged_out.filter((a) => a !== account);
    await this.write(shape);
  }

  /** Proves the file can be read (it is written atomically later). */
  async check(): Promise<void> {
    makeDirs(this.dir, 'the config directory');
    await this.read();
  }

  /** Removes `account`. */
  async remove(account: string): Promise<boolean> {
    const shape = await this.read();
    if (!(account in shape.credentials)) return false;
    delete shape.credentials[account];
    shape.logged_out = [...new Set([...(shape.logged_out ?? []), account])];
    await this.write(shape);
    return true;
  }

  /** Whether `profile` chose this file at its last `mkt login` (whatever the host). */
  async chosenBy(profile: string): Promise<boolean> {
    return (await this.read()).chosen_by?.includes(profile) ?? false;
  }

  /**
   * Records the store `profile` chose at login: this file (`true`) or the keychain (`false`). Choosing the
   * keychain writes only a file that already names the profile, so a keychain user gets no file.
   */
  async remember(profile: string, chosen: boolean): Promise<void> {
    const shape = await this.read();
    const had = shape.chosen_by?.includes(profile) ?? false;
    if (had === chosen) return;
    const rest = (shape.chosen_by ?? []).filter((p) => p !== profile);
    shape.chosen_by = chosen ? [...rest, profile] : rest;
    if (!shape.chosen_by.length) delete shape.chosen_by;
    await this.write(shape);
  }

  /** Whether `mkt logout` removed `account` from this file (and no login stored it again since). */
  async loggedOut(account: string): Promise<boolean> {
    return (await this.read()).logged_out?.includes(account) ?? false;
  }
}
