/**
 * Batches in doubt under another address of the same account. The order journal is kept per account
 * and address (marketplace.ts: a forwarder on another port, another host name of the same server are
 * other journals), so a batch sent without an answer through one address is not in the journal a run
 * through another reads; the account's own lock (open-desk.ts accountIdLock) makes such runs take
 * turns, and this makes the later one hold what the earlier left in doubt. Read only: each journal is
 * settled, and written, by the runs through its own address.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { MAX_SETTLE_WINDOW_MS } from '../config/timeouts.js';
import { UsageError } from '../errors.js';
import type { JournalRead } from './journal-file.js';
import { accountDir, readJournalFile, type MarketplaceRef } from './journal.js';
import { MemoryJournal } from './memory-journal.js';
import { doubtEnds, settlesAt, stamp, type Doubt, type Windows } from './reconcile.js';

/** Another journal under the state dir, as read from disk. */
export interface OtherJournal {
  path: string;
  /** Its entries and damaged lines; null when the file cannot be read at all (`error` says why). */
  read: JournalRead | null;
  error?: string;
  /** When it was last written (epoch ms): no batch in it is in doubt longer than the longest window after that. */
  modifiedAt: number;
}

/** A batch of the account sent through another address and still in doubt, with the listings it holds. */
export interface OtherDoubt extends Doubt {
  /** The address it was sent through, as the journal key has it. */
  address: string;
  listings: number[];
}

/** Every journal under `stateDir` but the one of `ownKey`; none when there is no accounts directory. */
export function readOtherJournals(stateDir: string, ownKey: string): OtherJournal[] {
  const root = join(stateDir, 'accounts');
  const own = basename(accountDir(stateDir, ownKey));
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    // No accounts directory yet (or none to read): no journal of another address either.
    return [];
  }
  return names
    .filter((n) => /^[0-9a-f]{32}$/.test(n) && n !== own)
    .flatMap((n): OtherJournal[] => {
      const path = join(root, n, 'journal.jsonl');
      let modifiedAt: number;
      try {
        modifiedAt = lstatSync(path).mtimeMs;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        // Cannot even be looked at: taken as written just now, so it stops a run only if it may be this account's.
        modifiedAt = Number.POSITIVE_INFINITY;
      }
      try {
        return [{ path, read: readJournalFile(path), modifiedAt }];
      } catch (err) {
        return [{ path, read: null, error: err instanceof Error ? err.message : String(err), modifiedAt }];
      }
    });
}

/**
 * The listings that batches of `market`'s account, sent through another address and still in doubt
 * at `now`, hold; each batch's window is its own, else `windows`. A journal that cannot be read whole
 * stops the run (exit 2) only when it may hold such a batch: nothing readable in it says it is another
 * account's, and it was written within the longest settle window (24 h). Otherwise it is passed over,
 * saying so on `info` when it is this account's.
 */
export function otherDoubts(
  files: readonly OtherJournal[],
  market: MarketplaceRef,
  windows: Windows,
  now: number,
  info: (line: string) => void,
): Map<number, OtherDoubt> {
  // The key is `${encodeURIComponent(account)}@address`: an encoded id holds no '@', so the prefix is the account's alone.
  const prefix = `${encodeURIComponent(market.account)}@`;
  const held = new Map<number, OtherDoubt>();
  for (const file of files) {
    const journal = new MemoryJournal();
    journal.list.push(...(file.read?.entries ?? []));
    const batches = journal.allBatches(market.account);
    const mine = batches.filter((b) => b.key !== null && b.key !== market.key && b.key.startsWith(prefix));
    const bad = file.read === null ? { line: 0, what: file.error ?? 'unreadable' } : file.read.bad[0];
    if (bad) {
      const address = mine[0]?.key?.slice(prefix.length);
      const anothers = batches.some((b) => b.key !== null && !b.key.startsWith(prefix));
      const where = bad.line > 0 ? ` is damaged at line ${bad.line}: ${bad.what}` : `: ${bad.what}`;
      if (mine.length === 0 && anothers) continue;
      if (now - file.modifiedAt < MAX_SETTLE_WINDOW_MS) {
        const whose = address ? `this account's journal under ${address}` : 'a journal of an address this run cannot tell';
        throw new UsageError(
          `the order journal ${file.path} (${whose})${where}; an order sent through it in the last 24 h may still be in doubt and cannot be read, so nothing was sent`,
          `\`mkt order journal --check\` and \`mkt order journal --repair\` under the profile that submits through ${address ?? 'that address'} repair it (a copy is kept); --allow-duplicate sends anyway`,
        );
      }
      if (address)
        info(
          `note: the order journal ${file.path} (this account under ${address})${where}; last written over 24 h ago, it holds no order still in doubt`,
        );
    }
    for (const b of mine) {
      const until = doubtEnds(b, windows);
      if (b.status !== 'unknown' || until <= now) continue;
      const doubt = {
        batch: b.batch,
        sentAt: settlesAt(b.at, 0),
        until,
        address: b.key!.slice(prefix.length),
        listings: b.bids.map((x) => x.listing_id),
      };
      for (const id of doubt.listings) if (!held.has(id)) held.set(id, doubt);
    }
  }
  return held;
}

/** Why a bid on a listing `d` holds is refused, in the words of the refusal. */
export function otherDoubtReason(d: OtherDoubt): string {
  return `in doubt under another address: sent in batch ${d.batch} through ${d.address} at ${stamp(d.sentAt)} without an answer, and the marketplace does not show that order yet; not sent again before ${stamp(d.until)}`;
}
