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
import { OrderDesk, type OrdersApi } from './desk.js';
import { accountDir, openJournal, profileEntries } from './journal.js';
import { prepareDeskFiles } from '../state-files.js';
import { identifyMarketplace } from './marketplace.js';

/** Where a profile keeps its state, the clock, and where messages go. */
export interface DeskSetting {
  stateDir: string;
  profile: string;
  /** The command's clock; when it is the command's Io, its stop signal (Ctrl-C) interrupts a --wait. */
  clock: Clock & Partial<Pick<Io, 'stopSignal'>>;
  info(line: string): void;
  /** Who may hold the lock, for the busy message (default 'order submit'). */
  holder?: string;
}

/** The desk's marketplace calls over the HTTP client. */
export function ordersApi(client: ApiClient): OrdersApi {
  return {
    submit: (bids) => orders.submit(client, bids),
    get: (id) => orders.get(client, id),
    list: () => orders.listAll(client),
    availableCash: async () => toNumber((await platform(client)).available_cash_balance) ?? 0,
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
    api: ordersApi(client), journal, market, clock, info: setting.info,
    ...(clock.stopSignal ? { stopSignal: clock.stopSignal } : {}),
    // A submit may hold the lock through a long --wait: only a dead owner makes it stale, never its age.
    lock: (fn) => withLock(lock, fn, {
      timeoutMs: 5000, staleMs: Number.POSITIVE_INFINITY, sleep: clock.sleep, now: clock.now,
      busy: (path) => new CliError(
        `another mkt ${setting.holder ?? 'order submit'} is running for account ${market.account} at ${market.baseUrl} (from this or another profile); nothing was sent`,
        EXIT.USAGE, `wait for it to finish, or remove ${path} if no mkt process is running`,
      ),
    }),
  });
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
    at: e.at, event: e.t, batch: 'batch' in e ? e.batch : '',
    order_id: 'order_id' in e ? e.order_id : '',
    bids: 'bids' in e ? e.bids.length : '',
    detail: e.t === 'rejected' ? `${e.code ?? e.status}` : e.t === 'lost' || e.t === 'unsent' ? e.error : e.t === 'intent' ? (e.market ?? e.base_url) : '',
  }));
}
