/**
 * The files mkt keeps for itself (config, credentials, journals, locks) and the directories that hold
 * them, read and created so that nothing can hang: a FIFO opened for reading waits for a writer, a
 * device never ends, and Node's recursive mkdir loops forever under /proc (mkdir says ENOENT, its
 * parent exists). Anything but a regular file or a directory is refused by path, exit 2.
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, statSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { systemErrorWords, UsageError } from './errors.js';

/** The hint of every state-dir problem. */
const STATE_HINT = 'set MKT_STATE_DIR to a directory mkt may write to (default ~/.local/state/mkt)';

/** What a file is, in words, for a message. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFile()) return 'a regular file';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

const codeOf = (err: unknown): unknown => (err as { code?: unknown } | null)?.code;

/**
 * Reads `path` whole as UTF-8, or undefined when it does not exist. Opened without blocking and checked
 * with fstat before any read: a FIFO, device, socket or directory is a UsageError naming `what` and the
 * path. Other system errors are thrown as they are, for the caller's own words.
 */
export function readRegularFile(path: string, what: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return undefined;
    if (codeOf(err) === 'EISDIR') throw new UsageError(`${what} ${path} is a directory, not a file`);
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw new UsageError(
        `${what} ${path} is ${kindOf(st)}, not a regular file; mkt does not read it`,
        'remove it, or point mkt elsewhere',
      );
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Throws a UsageError when `path` exists and is not a regular file (reading it could hang); returns
 * whether it exists.
 */
export function checkRegularFile(path: string, what: string): boolean {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return false;
    throw new UsageError(`cannot use ${what} ${path}: ${systemErrorWords(err)}`);
  }
  if (!st.isFile())
    throw new UsageError(`${what} ${path} is ${kindOf(st)}, not a regular file; mkt does not read it`, 'remove it, or point mkt elsewhere');
  return true;
}

/**
 * Creates `dir` and its missing parents (mode 0700), one level at a time: what is in the way (a file,
 * /dev/null) or cannot be created (anything under /proc) is a UsageError naming the path, where
 * `mkdir -p` would fail with a bug's exit code or never return.
 */
export function makeDirs(dir: string, what = 'directory', hint?: string): void {
  const missing: string[] = [];
  for (let p = resolve(dir); ; p = dirname(p)) {
    let st: Stats | undefined;
    try {
      st = statSync(p);
    } catch (err) {
      // ENOTDIR: a file somewhere above; going up finds it and names it.
      if (codeOf(err) !== 'ENOENT' && codeOf(err) !== 'ENOTDIR')
        throw new UsageError(`cannot use ${what} ${dir}: ${systemErrorWords(err)}`, hint);
    }
    if (st?.isDirectory()) break;
    if (st) {
      const where = p === resolve(dir) ? `${what} ${dir} is ${kindOf(st)}` : `${what} ${dir} cannot be created: ${p} is ${kindOf(st)}`;
      throw new UsageError(`${where}, not a directory`, hint);
    }
    missing.push(p);
    if (dirname(p) === p) break;
  }
  for (const p of missing.reverse()) {
    try {
      mkdirSync(p, { mode: 0o700 });
    } catch (err) {
      if (codeOf(err) === 'EEXIST' && statSync(p).isDirectory()) continue;
      throw new UsageError(`cannot create ${what} ${p}: ${systemErrorWords(err)}`, hint);
    }
  }
}

/** Refuses (exit 2) a state directory that exists and is not a directory; a missing one is fine (nothing to read). */
export function checkStateDir(stateDir: string): void {
  let st: Stats;
  try {
    st = statSync(stateDir);
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return;
    throw new UsageError(`cannot use the state directory ${stateDir}: ${systemErrorWords(err)}`, STATE_HINT);
  }
  if (!st.isDirectory()) throw new UsageError(`the state directory ${stateDir} is ${kindOf(st)}, not a directory`, STATE_HINT);
}

/**
 * Before the order desk opens the journal in `account` (journal.ts accountDir): the state directory
 * and the journal's directories exist (created here, 0700), and every file the desk reads is a
 * regular file or absent. The file names are the journal's (journal.ts): kept in step with it.
 */
export function prepareDeskFiles(stateDir: string, profile: string, account: string): void {
  makeDirs(stateDir, 'the state directory', STATE_HINT);
  makeDirs(join(stateDir, profile), 'the state directory', STATE_HINT);
  makeDirs(account, 'the state directory', STATE_HINT);
  for (const file of [
    join(stateDir, profile, 'accounts'),
    join(stateDir, profile, 'journal.jsonl'),
    join(account, 'journal.jsonl'),
    join(account, 'submit.lock'),
  ]) {
    checkRegularFile(file, 'the state file');
  }
}

/**
 * Before `mkt order journal` reads a profile's journals (journal.ts profileEntries): the state
 * directory is one, and the profile's index and every journal it names are regular files or absent.
 */
export function checkProfileJournals(stateDir: string, profile: string): void {
  checkStateDir(stateDir);
  const index = readRegularFile(join(stateDir, profile, 'accounts'), 'the state file') ?? '';
  checkRegularFile(join(stateDir, profile, 'journal.jsonl'), 'the state file');
  for (const name of index
    .split('\n')
    .map((l) => l.trim())
    .filter((n) => /^[0-9a-f]{32}$/.test(n))) {
    checkRegularFile(join(stateDir, 'accounts', name, 'journal.jsonl'), 'the state file');
  }
}
