/**
 * A secret a command takes (`mock serve --admin-token`, `--webhook-secret`) from one of three places:
 * the flag itself, which `ps` and the shell history show to others; a file only its owner can read
 * (`--admin-token-file PATH`); or the environment (`MKT_MOCK_ADMIN_TOKEN`). The flag and the file are
 * the user's explicit choice and may not both be given; the environment is read when neither is.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { UsageError } from '../errors.js';

/** The longest secret file read: a token is a line, never a document. */
const MAX_SECRET_FILE = 4096;

/** Where a secret may come from, and the names a message uses for each. */
export interface SecretSources {
  /** The flag's name (`--admin-token`) and its value as given. */
  flag: string;
  value: string | undefined;
  /** The file flag's name (`--admin-token-file`) and the path given. */
  fileFlag: string;
  file: string | undefined;
  /** The environment variable's name and the environment. */
  envName: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** A secret read, and where it came from (a message may name the source, never the value). */
export interface ReadSecret {
  value: string;
  from: 'flag' | 'file' | 'env';
}

/**
 * The secret from the flag, the file or the environment (in that order; flag and file together are
 * exit 2), or undefined when none holds one. A file must be a regular file that only its owner may
 * read or write (mode 0600 or 0400: refused otherwise, exit 2 naming its mode and the chmod that fixes
 * it), holding one line (a final line break is not part of the secret).
 */
export function readSecret(s: SecretSources): ReadSecret | undefined {
  if (s.value !== undefined && s.file !== undefined) throw new UsageError(`${s.flag} and ${s.fileFlag} both give the secret; give one`);
  if (s.value !== undefined) return { value: s.value, from: 'flag' };
  if (s.file !== undefined) return { value: readSecretFile(s.fileFlag, s.file), from: 'file' };
  const env = s.env[s.envName];
  return env === undefined || env === '' ? undefined : { value: env, from: 'env' };
}

/** The secret held in `path` (see readSecret); a UsageError naming `flag`, the path and what is wrong otherwise. */
export function readSecretFile(flag: string, path: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    const code = (err as { code?: string }).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES'
          ? 'cannot be read (permission denied)'
          : `cannot be opened (${code ?? (err as Error).message})`;
    throw new UsageError(`${flag} ${path} ${why}`);
  }
  try {
    // The file as opened, not the path again: what is checked is what is read.
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UsageError(`${flag} ${path} is not a regular file`);
    const mode = st.mode & 0o777;
    if ((mode & 0o077) !== 0) {
      const octal = mode.toString(8).padStart(4, '0');
      throw new UsageError(
        `${flag} ${path} is open to ${mode & 0o070 ? (mode & 0o007 ? 'group and others' : 'its group') : 'others'} (mode ${octal}); a secret file must be readable by its owner only`,
        `run chmod 600 ${path}`,
      );
    }
    if (st.size > MAX_SECRET_FILE)
      throw new UsageError(`${flag} ${path} is ${st.size} bytes; a secret file holds one line (at most ${MAX_SECRET_FILE} bytes)`);
    const buf = Buffer.alloc(MAX_SECRET_FILE + 1);
    const n = readSync(fd, buf, 0, buf.length, 0);
    if (n > MAX_SECRET_FILE) throw new UsageError(`${flag} ${path} is larger than ${MAX_SECRET_FILE} bytes; a secret file holds one line`);
    const text = buf
      .subarray(0, n)
      .toString('utf8')
      .replace(/\r?\n$/, '');
    if (text === '') throw new UsageError(`${flag} ${path} is empty`);
    if (/[\r\n]/.test(text)) throw new UsageError(`${flag} ${path} holds more than one line; a secret file holds the secret alone`);
    return text;
  } finally {
    closeSync(fd);
  }
}
