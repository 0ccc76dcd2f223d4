/**
 * `mkt doctor`'s checks of this machine's files: the order journals read whole, the lock files and
 * who holds them, and which `mkt` a cron job's PATH finds. Read only: doctor repairs nothing.
 */
import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { accountDir, profileJournals, readJournalFile } from '../orders/journal.js';
import { checkJournals, type JournalProblem } from '../orders/open-desk.js';
import { alive, fileLockPath, parseHolder, type LockMechanism } from '../os/exclusive-lock.js';
import { readRegularFile } from '../state-files.js';
import { fail, failure, ok, warn, type Check } from './check.js';
import type { OtherJournal } from './state-dirs.js';

/** The journal files of a profile, plus the account's own when the marketplace said which account that is. */
function journalFiles(stateDir: string, profile: string, accountKey?: string): string[] {
  const own = accountKey === undefined ? [] : [join(accountDir(stateDir, accountKey), 'journal.jsonl')];
  return [...new Set([...profileJournals(stateDir, profile), ...own])];
}

/** The problems of the account's journal when the profile's index does not name it (another profile wrote it). */
function otherProblems(file: string): JournalProblem[] {
  try {
    const read = readJournalFile(file);
    return read.bad.map((b) => ({ file, line: b.line, problem: b.what, fatal: true }));
  } catch (err) {
    return [{ file, line: 0, problem: failure(err).message, fatal: true }];
  }
}

/** Other state directories' journals for the account, in words; '' when there are none. */
function othersWords(others: readonly OtherJournal[]): string {
  return others
    .map(
      (o) =>
        `${o.stateDir} (${o.from}) holds an order journal for this account too${o.lastSent ? ` (${o.batches} order${o.batches === 1 ? '' : 's'}, the last sent ${o.lastSent})` : ' (unreadable)'}`,
    )
    .join('; ');
}

/**
 * Every journal the profile's submits read, read whole from disk as `order submit` reads it before
 * sending; a warning when `others` (state-dirs.ts) names another state directory with a journal for
 * the same account: never bidding twice holds within one state directory.
 */
export function checkJournal(stateDir: string, profile: string, accountKey?: string, others: readonly OtherJournal[] = []): Check {
  const files = journalFiles(stateDir, profile, accountKey);
  const indexed = new Set(profileJournals(stateDir, profile));
  const problems = [...checkJournals(stateDir, profile), ...files.filter((f) => !indexed.has(f)).flatMap(otherProblems)];
  const present = files.filter((f) => existsSync(f));
  const fatal = problems.filter((p) => p.fatal);
  if (fatal.length > 0) {
    const named = fatal
      .slice(0, 3)
      .map((p) => `${p.file}${p.line ? ` line ${p.line}` : ''}: ${p.problem}`)
      .join('; ');
    return fail(
      'journal',
      `${fatal.length} damaged line${fatal.length === 1 ? '' : 's'}: ${named}${fatal.length > 3 ? '; …' : ''}; order submit and invest run refuse to send until it is repaired`,
      '`mkt order journal --check` lists every damaged line; `mkt order journal --repair` keeps a copy of the file, cuts it at the first damaged line and restores pending orders from the marketplace',
    );
  }
  const where =
    present.length === 0
      ? `no journal yet under ${stateDir} (nothing submitted from profile ${profile})`
      : `${present.join(', ')} read whole`;
  const torn = problems.find((p) => !p.fatal);
  const apart = others.length === 0 ? '' : `; ${othersWords(others)}, which runs using ${stateDir} do not read`;
  const oneDir = `use one state directory for this account on this machine — set MKT_STATE_DIR to the same folder for every run (the crontab line and the shell), or unset it everywhere: a run under another state directory has its own journal and lock, so it can bid again for an order whose answer this one lost`;
  if (torn)
    return warn(
      'journal',
      `${where}, but ${torn.file} line ${torn.line}: ${torn.problem}${apart}`,
      `nothing to do by hand: the next \`mkt order submit\` or \`mkt invest run\` reconciles it before sending${others.length ? `; and ${oneDir}` : ''}`,
    );
  if (others.length > 0) return warn('journal', `${where}${apart}`, oneDir);
  return ok('journal', where);
}

/** The command line of a running process where /proc tells it (Linux), else undefined. */
function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return undefined;
  }
}

/**
 * What one lock file says: nothing when absent or free; a held lock with its holder. A file naming a pid
 * that is not running is a lock the kernel already let go (its run was killed): harmless, said as such.
 * Only where the platform has no kernel lock is such a file a lock that stays until removed.
 */
function lockFinding(
  path: string,
  mechanism: LockMechanism,
): { path: string; status: 'held' | 'stale' | 'left'; words: string } | undefined {
  let text: string | undefined;
  try {
    text = readRegularFile(path, 'the lock file');
  } catch (err) {
    return { path, status: 'stale', words: failure(err).message };
  }
  const holder = text === undefined ? null : parseHolder(text);
  if (holder === null) return undefined;
  const since = holder.since !== undefined && holder.since > 0 ? ` since ${new Date(holder.since).toISOString()}` : '';
  const kernel = mechanism === 'kernel';
  const cmd = alive(holder.pid) ? commandLine(holder.pid) : undefined;
  // A pid the system gave to another program since: the lock outlived its run.
  const gone = !alive(holder.pid)
    ? 'is not running'
    : cmd !== undefined && !/mkt/.test(cmd)
      ? `is now \`${cmd.slice(0, 60)}\`, not mkt`
      : undefined;
  if (gone === undefined)
    return { path, status: 'held', words: `${path} is held by pid ${holder.pid}${since}${cmd ? ` (${cmd.slice(0, 80)})` : ''}` };
  if (kernel)
    return {
      path,
      status: 'left',
      words: `${path} names pid ${holder.pid}${since}, which ${gone}: that run ended without clearing it, and the lock died with it`,
    };
  return { path, status: 'stale', words: `stale lock ${path}: pid ${holder.pid}${since} ${gone}` };
}

/**
 * The submit locks of the profile's accounts, a dead holder named with its pid. (The credentials lock
 * is left out: this very check renews under it.)
 */
export function checkLocks(stateDir: string, profile: string, accountKey?: string): Check {
  const dirs = journalFiles(stateDir, profile, accountKey)
    .map(dirname)
    .filter((d) => basename(dirname(d)) === 'accounts');
  const files = [...new Set(dirs.map((d) => join(d, 'submit.lock')))];
  // The file mechanism's lock beside each (where the kernel's does not serve).
  const found = files.flatMap((f) => [lockFinding(f, 'kernel'), lockFinding(fileLockPath(f), 'file')]).filter((f) => f !== undefined);
  const stale = found.filter((f) => f.status === 'stale');
  if (stale.length > 0) {
    return fail(
      'lock',
      stale.map((f) => f.words).join('; '),
      `a run of mkt ended without freeing it (killed, or the machine stopped), and without the kernel's lock here nothing frees it: remove it (rm ${stale.map((f) => f.path).join(' ')}); the next run reconciles any order whose answer that run lost`,
    );
  }
  const held = found.filter((f) => f.status === 'held');
  if (held.length > 0)
    return warn(
      'lock',
      `${held.map((f) => f.words).join('; ')}: a run is in progress`,
      'a run started now stops at the lock: let this one finish',
    );
  const left = found.filter((f) => f.status === 'left');
  if (left.length > 0)
    return ok('lock', `no lock held; ${left.map((f) => f.words).join('; ')} (the next run reconciles any order whose answer it lost)`);
  return ok(
    'lock',
    files.length === 0 ? 'no account lock yet (nothing submitted from this profile)' : `no lock held (${files.join(', ')})`,
  );
}

/** The first executable regular file `name` on `path`, as `sh` finds it. */
export function onPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not there, or not executable: the shell goes on to the next directory.
    }
  }
  return undefined;
}

/** The package root above `file` (the folder whose package.json names mkt), or undefined. */
export function packageRoot(file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'mkt') return dir;
    } catch {
      // No package.json here, or not mkt's: look higher.
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** A package's version and build (dist/help/BUILD: version, code hash, commander), in words. */
function buildOf(root: string): string {
  try {
    return readFileSync(join(root, 'dist', 'help', 'BUILD'), 'utf8').trim();
  } catch {
    return 'unknown build';
  }
}

/** Cron's PATH when the crontab sets none. */
const CRON_PATH = ['/usr/bin', '/bin'];

/**
 * Where an `mkt` may be installed that PATH does not hold: the file this run was started as (a link named
 * `mkt`), `~/.local/bin` (the README's `--prefix ~/.local`), npm's prefix from the environment, and the
 * directory of the node running this (npm's default global prefix puts `mkt` beside `node`).
 */
export function installCandidates(
  env: Readonly<Record<string, string | undefined>>,
  startedAs: string | undefined,
  nodePath: string,
): string[] {
  const prefixes = [env.npm_config_prefix, env.NPM_CONFIG_PREFIX].filter((p): p is string => !!p);
  return [
    ...(startedAs && basename(startedAs) === 'mkt' ? [startedAs] : []),
    ...(env.HOME ? [join(env.HOME, '.local', 'bin', 'mkt')] : []),
    ...prefixes.map((p) => join(p, 'bin', 'mkt')),
    join(dirname(nodePath), 'mkt'),
  ];
}

/** The first of `candidates` that is an executable `mkt` of this package (`root`), else of any mkt package. */
function installedOffPath(candidates: readonly string[], root: string): string | undefined {
  const installs = candidates.filter((file) => onPath(basename(file), dirname(file)) === file);
  const rootOf = (file: string) => {
    try {
      return packageRoot(realpathSync(file));
    } catch {
      // Removed since it was found: not an install any more.
      return undefined;
    }
  };
  const mine = realpathSync(root);
  return installs.find((file) => rootOf(file) === mine) ?? installs.find((file) => rootOf(file) !== undefined);
}

/**
 * The lines that put `dir` on PATH: for the crontab (cron's own PATH is CRON_PATH) and for a shell profile,
 * with the directory of `node` (which `mkt`'s first line runs) when neither `dir` nor CRON_PATH holds one.
 */
function pathLines(dir: string, nodeDir: string): { crontab: string; profile: string } {
  const dirs = onPath('node', [dir, ...CRON_PATH].join(delimiter)) ? [dir] : [dir, nodeDir];
  return { crontab: `PATH=${[...dirs, ...CRON_PATH].join(delimiter)}`, profile: `export PATH="${dirs.join(delimiter)}:$PATH"` };
}

/**
 * Which `mkt` (and `node`, which its first line runs) the PATH finds, and whether it is this one (`root`).
 * An `mkt` installed where PATH does not look (`--prefix ~/.local`, one of `candidates`) gets the PATH line
 * to add; reinstalling would not help it. `nodeDir`: where the node running this is.
 */
export function checkPath(path: string | undefined, root: string, candidates: readonly string[] = [], nodeDir?: string): Check {
  const found = onPath('mkt', path);
  const install = `in the clone, after \`npm ci\`, run \`npm install -g --ignore-scripts .\` (it links ${join('$(npm prefix -g)', 'bin', 'mkt')} to ${join(root, 'bin', 'mkt.cjs')}), or call that file by its full path in the crontab line`;
  if (!found) {
    const off = installedOffPath(candidates, root);
    const missing = `no mkt on PATH (${path ?? 'unset'}): a crontab line calling \`mkt\` fails with "mkt: not found" (exit 127)`;
    if (!off) return fail('path', missing, install);
    const lines = pathLines(dirname(off), nodeDir ?? dirname(off));
    return fail(
      'path',
      `${missing}; mkt is installed at ${off}, a directory PATH does not hold`,
      `put \`${lines.crontab}\` at the top of the crontab, and add \`${lines.profile}\` to your shell profile (~/.profile)`,
    );
  }
  const node = onPath('node', path);
  if (!node) {
    const lines = nodeDir ? pathLines(dirname(found), nodeDir) : undefined;
    return fail(
      'path',
      `${found} is on PATH, but node is not: its first line runs \`/usr/bin/env node\``,
      lines
        ? `put \`${lines.crontab}\` at the top of the crontab, and add \`${lines.profile}\` to your shell profile (~/.profile)`
        : 'put the directory of node on PATH (in the crontab: PATH=DIR:/usr/bin:/bin)',
    );
  }
  const real = realpathSync(found);
  const theirs = packageRoot(real);
  const cron = CRON_PATH.includes(dirname(found))
    ? ''
    : `; cron's own PATH is ${CRON_PATH.join(':')}, so a crontab needs PATH=${dirname(found)}:${CRON_PATH.join(':')} above the line`;
  if (theirs !== undefined && realpathSync(theirs) === realpathSync(root))
    return ok('path', `${found} is this mkt (${real}), run by ${node}${cron}`);
  const mine = buildOf(root);
  if (theirs !== undefined && buildOf(theirs) === mine)
    return ok('path', `${found} is another copy of this build (${mine}) at ${theirs}, run by ${node}${cron}`);
  return warn(
    'path',
    `${found} is ${theirs ? `mkt ${buildOf(theirs)} at ${theirs}` : real}, not this one (${mine} at ${root}): a cron job runs that one`,
    `${install}; or put this one's directory first on PATH`,
  );
}
