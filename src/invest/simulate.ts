/**
 * `mkt invest simulate`: a strategy run once a virtual day for N months against an in-process mock
 * whose clock stands still between runs. A fresh investor is funded with the cash asked for; each day
 * the real `invest run` (gather, plan, place through the order desk, its journal in memory: the world
 * ends with the process) runs through the mock's request handler, then the clock moves 24 hours and the mock
 * processes orders, funds and originates listings and services loans. At each month's end the account,
 * the notes and their payments (GET /loans/payments) are read back and summed up: the realised and
 * expected returns from the payments, and the month's statement (src/flows/statement.ts), whose cash
 * the simulated account's ledger must show. Nothing reads the real time or Math.random: a seed gives
 * the same report.
 */
import { tmpdir } from 'node:os';
import { createMarketplace, type Marketplace } from '../../mock-server/library/index.js';
import { platform } from '../api/accounts.js';
import { ApiClient } from '../api/client.js';
import { HttpClient, type HttpRequest, type HttpResponse } from '../api/http.js';
import { addMonths } from '../contract/amortisation.js';
import { LOAN_STATUS, PAGINATION, READ_WRITE_SCOPES } from '../contract/enums.js';
import type { Note } from '../contract/resources.js';
import { OrderDesk } from '../orders/desk.js';
import { identifyMarketplace } from '../orders/marketplace.js';
import { MemoryJournal } from '../orders/memory-journal.js';
import { ordersApi } from '../orders/open-desk.js';
import { formatDay } from '../contract/calendar.js';
import { PaymentsSoFar } from '../flows/gather.js';
import { noteLedgers } from '../flows/note-ledger.js';
import { statement, type Statement } from '../flows/statement.js';
import { portfolioReport, type Portfolio } from '../portfolio/model.js';
import { CliError } from '../errors.js';
import type { ListingHold } from '../orders/journal.js';
import { investRun, marketReads, type RunDesk } from './run.js';
import { ordersStillCounting } from './simulate-orders.js';
import type { Strategy } from './strategy.js';

const DAY = 86_400_000;
/** Where every simulation starts (virtual time): fixed, so a seed gives the same world and the same report; midnight UTC, so that its months are whole days (the statements' days). */
export const SIMULATION_START = Date.parse('2026-01-05T00:00:00Z');
const INVESTOR = 'simulated';
/** The origin the in-process mock answers as (no socket is opened). */
const ORIGIN = 'http://127.0.0.1';

/**
 * The HTTP client with the mock's request handler for a network: the same handlers, routes, JSON and
 * decoders as over 127.0.0.1, without a socket, undici and node:http in between (a third of the time).
 */
export class InProcessHttp extends HttpClient {
  constructor(private readonly app: Pick<Marketplace, 'handle'>) {
    super({ maxRetries: 0 });
  }

  override async send(req: HttpRequest): Promise<HttpResponse> {
    const url = new URL(req.url);
    if (req.query) for (const [k, v] of req.query) url.searchParams.append(k, v);
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    if (req.json !== undefined) headers['content-type'] = 'application/json';
    const body = req.json === undefined ? undefined : JSON.stringify(req.json);
    const res = await this.app.handle(new Request(url, { method: req.method, headers, ...(body === undefined ? {} : { body }) }));
    const text = await res.text();
    const json = text !== '' && /json/i.test(res.headers.get('content-type') ?? '');
    const answerHeaders: Record<string, string> = {};
    res.headers.forEach((value, name) => (answerHeaders[name] = value));
    return { status: res.status, headers: answerHeaders, data: json ? JSON.parse(text) : text };
  }
}

/**
 * Rows a page of a day's search asks for: twice the bids the rule can still make, at least a default
 * page. Each row costs the mock its rendering and the client its decoding, a round trip next to nothing
 * in process; 500 rows a day for 20 bids were half the time of a year's simulation.
 */
const simulatedPageRows = (bids: number): number => Math.max(PAGINATION.listings.default, 2 * bids);

/** What to simulate. */
export interface SimulateOptions {
  months: number;
  seed: number;
  cash: number;
  listings: number;
  /** Told after each month, for progress on stderr. */
  progress?: (row: MonthRow) => void;
  /** Given the world at the end, before it closes (tests look into it). */
  atEnd?: (world: { market: Marketplace; client: ApiClient; accountId: string }) => Promise<void>;
}

/** One month of the simulation, at its end. */
export interface MonthRow {
  month: number;
  date: string;
  /** Money bid this month (placed bids may still expire and come back). */
  bid: number;
  cash: number;
  pending: number;
  /** Outstanding principal on notes. */
  invested: number;
  account_value: number;
  notes: number;
  /** Principal, interest and late fees received this month, less fees: the net cash of the month's statement (its payment rows). */
  received: number;
  /** What of `received` is interest and late fees less fees: the money the account earned. */
  earned: number;
  /** What the account's ledger credited for payments (less fees) over the same days: equal to `received`, or the month does not reconcile. */
  ledger_cash: number;
  /** `received` − `ledger_cash`: 0 when the month reconciles. */
  difference: number;
  /** Notes that defaulted or were charged off this month. */
  defaults: number;
  /** Principal lost to charge-offs this month. */
  written_off: number;
  /** Net annualised return from the start to this month's end (null when there is none yet): the realised return. */
  return_to_date: number | null;
  /** Realised and expected returns from the payments to this month's end (src/flows/returns.ts). */
  realised_return: number | null;
  expected_return: number | null;
}

/**
 * The months' statements against the simulated account: each month's payment rows (its statement's net
 * cash: principal, interest and late fees less service and collection fees) and what the account's ledger
 * credited for payments over the same days. Every month reconciles, or the simulation says which did not.
 */
export interface Reconciliation {
  /** The first month's first day and the last month's last. */
  from: string;
  to: string;
  /** Months whose statement and ledger agree to the cent, of `months`. */
  months_reconciled: number;
  months: number;
  /** Over every month: the statements' net cash, the ledger's payments, and their difference. */
  statement_cash: number;
  ledger_cash: number;
  difference: number;
  /** The months that differ (empty when every month reconciles). */
  differing: { month: number; from: string; to: string; statement_cash: number; ledger_cash: number; difference: number }[];
}

/** The simulation's answer (`-o json` prints it as is). */
export interface Simulation {
  months: MonthRow[];
  portfolio: Portfolio;
  /** The last month's statement, from the payments. */
  statement: Statement;
  /** Every month's statement against the account's ledger. */
  reconciliation: Reconciliation;
}

/** Running totals the month rows are differences of. */
interface Totals {
  defaulted: number;
  writtenOff: number;
}

function totals(notes: readonly Note[]): Totals {
  const t: Totals = { defaulted: 0, writtenOff: 0 };
  for (const n of notes) {
    if (n.note_status === LOAN_STATUS.DEFAULTED || n.note_status === LOAN_STATUS.CHARGEOFF) t.defaulted++;
    if (n.note_status === LOAN_STATUS.CHARGEOFF) t.writtenOff += n.note_ownership_amount - n.principal_paid_pro_rata_share;
  }
  return t;
}

const round = (x: number): number => Math.round(x * 100) / 100;

/** Runs `strategy` daily for `o.months` months of a fresh mock world; the month rows and the final portfolio report. */
export async function simulate(strategy: Strategy, o: SimulateOptions): Promise<Simulation> {
  if (!(o.months >= 1)) throw new RangeError('a simulation runs at least one month');
  // The mock through its public entry (mkt/mock), as anyone's tests use it: a frozen clock, moved by the days below.
  const mock = createMarketplace({ seed: o.seed, listings: o.listings, start: SIMULATION_START, investor: { id: INVESTOR, cash: o.cash } });
  const clock = { now: () => mock.clock.now().getTime(), advance: (ms: number) => mock.clock.advance(ms) };
  const end = addMonths(SIMULATION_START, o.months);
  // The investor's token, granted and exchanged without a login: it lasts the whole simulation.
  const token = await mock.tokenFor(INVESTOR, { scopes: READ_WRITE_SCOPES, expiresIn: end + 2 * DAY - SIMULATION_START });
  // The investor's one account, as the mock names it (docs/mock-library.md): asking (GET /__mock/state) checks every book of the seeded world first.
  const accountId = `${INVESTOR}-1`;
  const books = mock.account(accountId);
  const http = new InProcessHttp(mock);
  try {
    const client = new ApiClient(
      http,
      {
        profile: 'simulate',
        baseUrl: `${ORIGIN}/v1`,
        rootUrl: ORIGIN,
        authUrl: ORIGIN,
        clientId: 'mkt-demo',
        redirectUri: '',
        timezone: undefined,
        output: undefined,
        configDir: tmpdir(),
        stateDir: tmpdir(),
      },
      { accessToken: async () => token },
    );
    const virtual = { now: () => clock.now(), sleep: async () => {} };
    const quiet = (): void => {};
    // No lock: no one else can reach this world's account.
    // The desk looks at the orders before it places, as the run reads them: from the first that may still count (simulate-orders.ts says why that is all it needs).
    const desk = new OrderDesk({
      api: { ...ordersApi(client), list: ordersStillCounting(client, virtual.now) },
      journal: new MemoryJournal(),
      lock: (fn) => fn(),
      clock: virtual,
      market: await identifyMarketplace(client),
      info: quiet,
    });
    // A listing the marketplace refuses a whole order over (ORD0037 on a listing whose type a search does
    // not show) is left out of later days, as a person would after the first refusal: held, as if by the
    // journal, so that the planner passes it by while the search's pages keep their rows and their ends.
    const refused = new Map<number, ListingHold>();
    const run: RunDesk = {
      session: (fn) => desk.session(fn),
      place: (bids, opts) => desk.place(bids, opts),
      holds: () => {
        const holds = desk.holds();
        for (const [id, hold] of refused) if (!holds.has(id)) holds.set(id, hold);
        return holds;
      },
    };
    // The orders from the first a run may still count (simulate-orders.ts): a year's orders every day were a tenth of the time.
    const reads = { ...marketReads(client), orders: ordersStillCounting(client, virtual.now) };
    const deps = { reads, desk: run, now: virtual.now, info: quiet, pageRows: simulatedPageRows };
    const runDay = async (): Promise<number> => {
      for (;;) {
        try {
          return (await investRun(strategy, deps, { dryRun: false })).total_bid;
        } catch (err) {
          const listing = err instanceof CliError ? /bid_requests\[\d+\]: listing (\d+)/.exec(err.message)?.[1] : undefined;
          if (listing === undefined || refused.has(Number(listing))) throw err;
          refused.set(Number(listing), { listingId: Number(listing), state: 'unknown', orderId: null, batch: 'refused' });
        }
      }
    };
    const months: MonthRow[] = [];
    let before: Totals = { defaulted: 0, writtenOff: 0 };
    const differing: Reconciliation['differing'] = [];
    const sums = { statement: 0, ledger: 0 };
    let firstDay = '';
    let bid = 0;
    let last: { portfolio: Portfolio; statement: Statement } | undefined;
    const payments = new PaymentsSoFar();
    const read = async (monthStart: number) => {
      const account = await platform(client);
      // The notes as GET /notes/ shows them, in one pass (in-process.ts says why).
      const notes = books.notes();
      const today = Date.parse(`${formatDay(clock.now())}T00:00:00Z`);
      // Each month end asks only for the payments since the last (and a new note's loan for all of its own).
      const ledgers = noteLedgers(
        notes,
        await payments.read(
          client,
          notes.map((n) => n.loan_number),
          clock.now(),
        ),
      );
      // The month's statement: its first day to today, its last (read at its last instant, nothing of today is still to come).
      const first = Date.parse(`${formatDay(monthStart)}T00:00:00Z`);
      return { portfolio: portfolioReport(account, notes, today, today, ledgers), notes, statement: statement(ledgers, first, today) };
    };
    for (let month = 1; month <= o.months; month++) {
      const monthStart = addMonths(SIMULATION_START, month - 1);
      const monthEnd = addMonths(SIMULATION_START, month);
      // The month is read at its last instant, the millisecond before the next begins: a tick at the next
      // month's midnight (a payment due then) is the next month's, as its statement's first day holds it.
      while (clock.now() < monthEnd - 1) {
        bid += await runDay();
        await clock.advance(Math.min(DAY, monthEnd - 1 - clock.now()));
      }
      const { portfolio, notes, statement: monthStatement } = await read(monthStart);
      await clock.advance(1);
      const now = totals(notes);
      // The month's payment rows (its statement) against the ledger over the same days: its first day's midnight to the midnight after its last.
      const t = monthStatement.total;
      const ledgerCash = books.credited(Date.parse(`${monthStatement.from}T00:00:00Z`), Date.parse(`${monthStatement.to}T00:00:00Z`) + DAY);
      const difference = round(t.net_cash - ledgerCash);
      if (difference !== 0)
        differing.push({
          month,
          from: monthStatement.from,
          to: monthStatement.to,
          statement_cash: t.net_cash,
          ledger_cash: ledgerCash,
          difference,
        });
      sums.statement += Math.round(t.net_cash * 100);
      sums.ledger += Math.round(ledgerCash * 100);
      firstDay ||= monthStatement.from;
      // A report of today: the account's figures are there (null only on a past day).
      const row: MonthRow = {
        month,
        date: formatDay(clock.now()),
        bid: round(bid),
        cash: portfolio.available_cash_balance ?? 0,
        pending: portfolio.pending_bids ?? 0,
        invested: portfolio.outstanding_principal,
        account_value: portfolio.account_value ?? 0,
        notes: portfolio.notes,
        received: t.net_cash,
        earned: round(t.net_cash - t.principal_received),
        ledger_cash: ledgerCash,
        difference,
        defaults: now.defaulted - before.defaulted,
        written_off: round(now.writtenOff - before.writtenOff),
        return_to_date: portfolio.annualized_return,
        realised_return: portfolio.realised_return,
        expected_return: portfolio.expected_return,
      };
      months.push(row);
      o.progress?.(row);
      before = now;
      bid = 0;
      last = { portfolio, statement: monthStatement };
    }
    const s = last!.statement;
    await o.atEnd?.({ market: mock, client, accountId });
    return {
      months,
      portfolio: last!.portfolio,
      statement: s,
      reconciliation: {
        from: firstDay,
        to: s.to,
        months_reconciled: months.length - differing.length,
        months: months.length,
        statement_cash: sums.statement / 100,
        ledger_cash: sums.ledger / 100,
        difference: (sums.statement - sums.ledger) / 100,
        differing,
      },
    };
  } finally {
    await http.close();
    await mock.close();
  }
}
