/**
 * `mkt doctor`: other state directories that hold an order journal for the same marketplace account.
 * The never-twice guarantee covers one state directory: a run under another one (a crontab line with
 * its own MKT_STATE_DIR, a shell without it) keeps its own journal and lock, so it neither sees what
 * this one sent in doubt nor waits for it. The directories looked at are the ones mkt itself would pick
 * for this user: $MKT_STATE_DIR when set, $XDG_STATE_HOME/mkt when set, and ~/.local/state/mkt. A
 * folder named only in another environment (another user, another MKT_STATE_DIR) cannot be found.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { readJournal } from '../orders/journal.js';
import type { Marketplace } from '../orders/marketplace.js';

type Env = Readonly<Record<string, string | undefined>>;

/** One other state directory with a journal for the account. */
export interface OtherJournal {
  stateDir: string;
  /** Where it came from: MKT_STATE_DIR, XDG_STATE_HOME or the default. */
  from: string;
  /** Orders it records for the account, and when the last was sent. */
  batches: number;
  lastSent: string | null;
}

/** The state directories mkt would use for this user, each with where it comes from. */
export function candidateStateDirs(env: Env): Array<{ dir: string; from: string }> {
  const home = env.HOME || homedir();
  const out = [{ dir: join(home, '.local', 'state', 'mkt'), from: 'the default, ~/.local/state/mkt' }];
  if (env.XDG_STATE_HOME) out.push({ dir: join(env.XDG_STATE_HOME, 'mkt'), from: '$XDG_STATE_HOME/mkt' });
  if (env.MKT_STATE_DIR) out.push({ dir: env.MKT_STATE_DIR, from: 'MKT_STATE_DIR' });
  return out;
}

/** A directory's real path when it exists (a symlink is the same folder), else its absolute path. */
function same(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

/** The other state directories (not `stateDir`) whose journals record orders for `market`, as `profile` would read them. */
export function otherJournals(
  env: Env,
  stateDir: string,
  profile: string,
  market: Pick<Marketplace, 'key' | 'account' | 'baseUrl'>,
): OtherJournal[] {
  const mine = same(stateDir);
  const seen = new Set([mine]);
  const out: OtherJournal[] = [];
  for (const { dir, from } of candidateStateDirs(env)) {
    const real = same(dir);
    if (seen.has(real)) continue;
    seen.add(real);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
    let batches;
    try {
      batches = readJournal(dir, profile, market).batches(market);
    } catch {
      // A journal there that cannot be read whole is still one: a run there refuses until it is repaired.
      out.push({ stateDir: dir, from, batches: 0, lastSent: null });
      continue;
    }
    if (batches.length > 0) out.push({ stateDir: dir, from, batches: batches.length, lastSent: batches.at(-1)!.at });
  }
  return out;
}
