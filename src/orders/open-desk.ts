/**
 * The order desk wired to the real world: the HTTP client, the account's journal and lock files
 * under the state dir, and the clock the command runs on. Commands reach the journal and the lock
 * only through here.
 */
import { platform } from '../api/accounts.js';
import { toNumber } from '../contract/decode.js';
import type { ApiClient } from '../api/client.js';
import * as orders from '../api/orders.js';
import type { Clock } from '../clock.js';
import type { Io } from '../io.js';
import { CliError, EXIT } from '../errors.js';
import { withLock } from '../lock-file.js';
import { OrderDesk } from './desk.js';
import { type DeskDeps, type OrdersApi } from './desk-api.js';
import type { ClockWatch } from './still-clock.js';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  accountDir,
  cutJournal,
  openJournal,
  profileEntries,
  profileJournals,
  readJournal,
  readJournalFile,
  type JournalCut,
} from './journal.js';
import { lookUp } from './market-holds.js';
import { checkStateDir, prepareDeskFiles } from '../state-files.js';
import { identifyMarketplace } from './marketplace.js';
import { readOtherJournals } from './other-addresses.js';

/** Where a profile keeps its state, the clock, and where messages go. */
export interface DeskSetting {
  stateDir: string;
  profile: string;
  /** The command's clock; when it is the command's Io, its stop signal (Ctrl-C) interrupts a --wait. */
  clock: Clock & Partial<Pick<Io, 'stopSignal'>>;
  info(line: string): void;
  /** Where lines about what went as asked go (DeskDeps.progress); `info` when absent. */
  progress?(line: string): void;
  /** Who may hold the lock, for the busy message (default 'order submit'). */
  holder?: string;
  /**
   * How long to wait for another run holding the account's lock (`--wait-lock`), in ms. Absent: the
   * command offers no such flag, and does not wait either. A run never waits unasked: one that waited
   * would then plan and bid as a second run of its own.
   */
  waitLockMs?: number;
  /** The settle window of a batch sent without an answer (config/timeouts.ts settleWindowMs); the desk's default when absent. */
  settleMs?: number;
  /** The client's answer timeout (config/timeouts.ts httpTimeoutMs), journalled with each order; the desk's default when absent. */
  httpTimeoutMs?: number;
}

/** The desk's marketplace calls over the HTTP client. */
export function ordersApi(client: ApiClient): OrdersApi {
  return {
    prepare: () => client.prepare(),
    submit: (bids) => orders.submit(client, bids),
    get: (id) => orders.get(client, id),
    list: () => orders.listAll(client),
    lookUp: (ids) => lookUp(client, ids, () => client.marketNow()),
    availableCash: async () => toNumber((await platform(client)).available_cash_balance) ?? 0,
    clockWatch: clockWatchOf(client),
  };
}

/**
 * The answers' `Date`, and the bundled mock's word on its clock (GET /__mock/clock on a loopback mock needs
 * no token): asked only once the `Date` stood still, which a real service's never does.
 */
export function clockWatchOf(client: ApiClient): ClockWatch {
  return {
    heard: () => client.market.lastDate(),
    frozen: async () => {
      const { readClock } = await import('../api/mock-admin.js');
      return (await readClock({ http: client.http, rootUrl: client.settings.rootUrl })).frozen === true;
    },
  };
}

/**
 * The desk of the account `client` acts for. Asks the marketplace which account that is first
 * (`GET /accounts/platform`): journal and lock belong to the account, whatever the URL's spelling
 * or the profile, and when it cannot be told nothing is sent.
 */
export async function openDesk(client: ApiClient, setting: DeskSetting): Promise<OrderDesk> {
  const market = await identifyMarketplace(client);
  prepareDeskFiles(setting.stateDir, setting.profile, accountDir(setting.stateDir, market.key));
  const { journal, lock } = openJournal(setting.stateDir, setting.profile, market);
  const { clock } = setting;
  return new OrderDesk({
    api: ordersApi(client),
    journal,
    market,
    clock,
    info: setting.info,
    ...(setting.progress ? { progress: setting.progress } : {}),
    ...(clock.stopSignal ? { stopSignal: clock.stopSignal } : {}),
    ...windowsOf(setting),
    otherJournals: () => readOtherJournals(setting.stateDir, market.key),
    lock: (fn) => {
      const what = `for account ${market.account} at ${market.baseUrl} (from this or another profile or address); nothing was sent`;
      // The account's own lock first, then its journal's: a second name or address of the same marketplace
      // (another journal) waits for the first run too, and every run takes the two in the same order.
      return accountLock(accountIdLock(setting.stateDir, market.account), () => accountLock(lock, fn, setting, what), setting, what);
    },
  });
}

/** The setting's settle window and answer timeout, as the desk takes them (absent: the desk's defaults). */
function windowsOf(setting: DeskSetting): Pick<DeskDeps, 'settleMs' | 'httpTimeoutMs'> {
  return {
    ...(setting.settleMs === undefined ? {} : { settleMs: setting.settleMs }),
    ...(setting.httpTimeoutMs === undefined ? {} : { httpTimeoutMs: setting.httpTimeoutMs }),
  };
}

/**
 * The lock of a marketplace account by its external_user_id alone, whatever address it was reached at:
 * `account-locks/DIGEST.lock`, beside `accounts/` (whose folders are journals). Held around the journal's own lock by
 * every submit.
 */
export function accountIdLock(stateDir: string, account: string): string {
  return join(stateDir, 'account-locks', `${createHash('sha256').update(`account:${account}`).digest('hex').slice(0, 32)}.lock`);
}

/**
 * The desk of the account `client` acts for, to read only (`--dry-run`): nothing is created or written
 * under the state dir, and it holds no lock (its `place` is never called; `review` needs none).
 */
export async function openDeskToRead(client: ApiClient, setting: DeskSetting): Promise<OrderDesk> {
  const market = await identifyMarketplace(client);
  checkStateDir(setting.stateDir);
  const journal = readJournal(setting.stateDir, setting.profile, market);
  return new OrderDesk({
    api: ordersApi(client),
    journal,
    market,
    clock: setting.clock,
    info: setting.info,
    ...windowsOf(setting),
    otherJournals: () => readOtherJournals(setting.stateDir, market.key),
    lock: () => Promise.reject(new Error('a desk opened to read places nothing')),
  });
}

/**
 * Runs `fn` holding an account's submit lock file `path`; `what` ends the message when another run
 * holds it: exit 2 at once, naming the holder's pid, unless `setting.waitLockMs` asks to wait.
 */
function accountLock<T>(path: string, fn: () => Promise<T>, setting: DeskSetting, what: string): Promise<T> {
  const { clock, waitLockMs } = setting;
  // A submit may hold the lock through a long --wait: the kernel frees it when its holder ends, never by age.
  return withLock(path, fn, {
    timeoutMs: waitLockMs ?? 0,
    sleep: clock.sleep,
    now: clock.now,
    busy: (held, holder, mechanism) => {
      const pid = holder ? ` (pid ${holder.pid})` : '';
      const running = waitLockMs ? `still running after ${Math.round(waitLockMs / 1000)} s` : 'running';
      const offer = waitLockMs === undefined ? '' : `run again with --wait-lock SECONDS to wait for it${waitLockMs ? ' longer' : ''}`;
      // The kernel's lock is held only by a running process: there is nothing to remove by hand.
      const remove = mechanism === 'file' ? `remove ${held} if no mkt process is running` : '';
      const hint = [offer, remove].filter(Boolean).join(', or ');
      return new CliError(
        `another mkt ${setting.holder ?? 'order submit'}${pid} is ${running} ${what}`,
        EXIT.USAGE,
        `wait for it to finish${hint ? `, or ${hint}` : ''}`,
      );
    },
  });
}

/** One finding of `order journal --check`: a damaged line (fatal) or a torn last line (reconciled at the next submit). */
export type JournalProblem = { file: string; line: number; problem: string; fatal: boolean };

/** Every damaged or torn line of the journals a profile uses, read from disk only. */
export function checkJournals(stateDir: string, profile: string): JournalProblem[] {
  return profileJournals(stateDir, profile).flatMap((file): JournalProblem[] => {
    try {
      const read = readJournalFile(file);
      const bad = read.bad.map((b) => ({ file, line: b.line, problem: b.what, fatal: true }));
      return read.torn
        ? [
            ...bad,
            {
              file,
              line: read.torn.line,
              problem: `${read.torn.what}: its order is reconciled with the marketplace at the next submit`,
              fatal: false,
            },
          ]
        : bad;
    } catch (err) {
      return [{ file, line: 0, problem: err instanceof Error ? err.message : String(err), fatal: true }];
    }
  });
}

/**
 * `order journal --repair`, on disk: every damaged journal of the profile is copied beside itself and
 * cut at its first damaged line, each under its account's lock (a submit may be appending).
 */
export async function cutDamagedJournals(setting: DeskSetting): Promise<JournalCut[]> {
  const cuts: JournalCut[] = [];
  for (const file of profileJournals(setting.stateDir, setting.profile)) {
    if (!existsSync(file)) continue;
    const cut = await accountLock(
      join(dirname(file), 'submit.lock'),
      async () => cutJournal(file, new Date(setting.clock.now()).toISOString()),
      setting,
      `on ${file}; nothing was repaired`,
    );
    if (cut) cuts.push(cut);
  }
  return cuts;
}

/** One line of `order journal`. */
export type JournalRow = {
  at: string;
  event: string;
  batch: string;
  order_id: string | null;
  bids: number | '';
  detail: string;
};

/**
 * What was sent for every account a profile submits to, by time. Read from disk only: the journal
 * matters most when the marketplace cannot be reached.
 */
export function journalRows(stateDir: string, profile: string): JournalRow[] {
  return profileEntries(stateDir, profile).map((e) => ({
    at: e.at,
    event: e.t,
    batch: 'batch' in e ? e.batch : '',
    order_id: 'order_id' in e ? e.order_id : '',
    bids: 'bids' in e ? e.bids.length : '',
    detail:
      e.t === 'rejected'
        ? `${e.code ?? e.status}`
        : e.t === 'lost' || e.t === 'unsent'
          ? e.error
          : e.t === 'intent'
            ? (e.market ?? e.base_url)
            : '',
  }));
}
