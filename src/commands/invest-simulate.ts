/** `mkt invest simulate STRATEGY --months N`: the strategy run daily over months of an in-process mock, then the portfolio report. */
import type { Command } from '@commander-js/extra-typings';
import type * as AsciiChart from 'asciichart';
import type { CommandContext } from '../context.js';
import { EXIT, UsageError } from '../errors.js';
import { readInput } from '../input.js';
import type { MonthRow, Simulation } from '../invest/simulate.js';
import type { Strategy } from '../invest/strategy.js';
import { writeOut } from '../io.js';
import { requireCommonJs } from '../os/require-common-js.js';
import { money } from '../output/columns.js';
import { render, type Output } from '../output/render.js';
import { parseCount } from './options.js';

const MONTH_COLUMNS = [
  'month',
  'date',
  'bid',
  'cash',
  'pending',
  'invested',
  'account_value',
  'notes',
  'received',
  'earned',
  'defaults',
  'written_off',
  'realised_return',
  'expected_return',
] satisfies (keyof MonthRow)[];
/** The month columns a narrow terminal keeps first. */
const MONTH_PRIORITY = ['month', 'date', 'account_value', 'realised_return', 'expected_return', 'received', 'defaults', 'cash', 'invested'];
const MAX_MONTHS = 120;
const MAX_LISTINGS = 100_000;
const MAX_CASH = 10_000_000;

/** A strategy's text checked (every problem reported, then exit 2), as `invest check` does. */
export type StrategyCheck = (text: string, source: string) => Strategy;

function parseCash(text: string): number {
  const t = text.trim();
  if (/^-\d*\.?\d+$/.test(t) && Number(t) < 0) {
    throw new UsageError(`--cash ${t} is negative: the starting cash is an amount above 0 and at most ${MAX_CASH} with at most 2 decimals`);
  }
  if (!/^\d+(\.\d{1,2})?$/.test(t) || Number(t) <= 0 || Number(t) > MAX_CASH) {
    throw new UsageError(`--cash must be an amount above 0 and at most ${MAX_CASH} with at most 2 decimals, got '${text}'`);
  }
  return Number(t);
}

function bounded(flag: string, text: string, min: number, max: number): number {
  const n = parseCount(flag, text, min);
  if (n > max) throw new UsageError(`${flag} must be at most ${max}, got '${text}'`);
  return n;
}

/** A line chart of the account value, month 0 (the cash) to the last, stretched to `width` columns. */
async function valueChart(sim: Simulation, cash: number, width: number): Promise<string> {
  const { plot } = requireCommonJs<typeof AsciiChart>('asciichart');
  const values = [cash, ...sim.months.map((m) => m.account_value)];
  const columns = Math.max(values.length, Math.min(72, width - 16));
  const series = Array.from({ length: columns }, (_, i) => {
    const x = (i / (columns - 1)) * (values.length - 1);
    const lo = Math.floor(x);
    const hi = Math.min(values.length - 1, lo + 1);
    return values[lo]! + (values[hi]! - values[lo]!) * (x - lo);
  });
  return `account value, month 0 to ${sim.months.length}\n${plot(series, { height: 10, format: (v) => v.toFixed(0).padStart(10) })}\n`;
}

/** Every month's statement against the account, one line; then each month that differs, one line each. */
function reconciliationLines(sim: Simulation): string[] {
  const r = sim.reconciliation;
  if (r.differing.length === 0) {
    return [
      `every month's statement reconciles with the account's ledger (${r.months} of ${r.months} months, ${r.from} to ${r.to}: ${money(r.statement_cash)} from payments, ${money(r.ledger_cash)} credited)`,
    ];
  }
  return [
    `${r.differing.length} of ${r.months} months' statements differ from the account's ledger (${money(r.difference)} in all): a fault of the simulation, not of the strategy`,
    ...r.differing.map(
      (d) =>
        `  month ${d.month} (${d.from} to ${d.to}): ${money(d.statement_cash)} from payments, ${money(d.ledger_cash)} credited, difference ${money(d.difference)}`,
    ),
  ];
}

/** Adds `simulate` to the invest group. */
export function addSimulateCommand(ctx: CommandContext, invest: Command, check: StrategyCheck): void {
  invest
    .command('simulate')
    .description(
      'run a strategy once a virtual day for N months of an in-process mock (funding, origination, payments, late payments, defaults), then report the portfolio and each month',
    )
    .argument('<strategy>', 'strategy file, or - for standard input')
    .requiredOption('--months <n>', `virtual months to run (1 to ${MAX_MONTHS})`)
    .option('--seed <n>', 'seed of the simulated world: the same seed gives the same report', '1')
    .option('--cash <amount>', "the fresh investor's starting cash", '10000')
    .option('--listings <n>', 'active listings the world starts with (new ones arrive every day)', '2000')
    .addHelpText(
      'after',
      `
Each virtual day runs \`mkt invest run\` (through the order desk, with a throw-away journal)
against the mock, then moves its clock 24 hours. Each month's end reads the account, the
notes and their payments: realised_return and expected_return are the two returns of
\`mkt portfolio\` to that day (see \`mkt portfolio --help\`; return_to_date, in JSON, is the
realised one). Every month's statement (\`mkt statement\` of its days) is checked against the
simulated account: the cash its payment rows moved (principal, interest and late fees less
service and collection fees: the month's received) against what the account's ledger
credited for payments in those days (ledger_cash, difference). A month that differs is
named, and the exit code is 1. JSON: {"months": [...], "portfolio": {...}, "statement":
{...}, "reconciliation": {...}}, the portfolio as \`mkt portfolio -o json\` gives it.
`,
    )
    .action(
      ctx.action(async (file, opts): Promise<Output> => {
        const o = {
          months: bounded('--months', opts.months, 1, MAX_MONTHS),
          seed: parseCount('--seed', opts.seed, 0),
          cash: parseCash(opts.cash),
          listings: bounded('--listings', opts.listings, 1, MAX_LISTINGS),
        };
        const input = await readInput(ctx.io, file, 1 << 20);
        const strategy = check(input.text, input.source);
        const { simulate } = await import('../invest/simulate.js');
        const progress = ctx.showsProgress()
          ? (m: MonthRow) => ctx.info(`month ${m.month}/${o.months} (${m.date}): account value ${money(m.account_value)}, ${m.notes} notes`)
          : undefined;
        const sim = await simulate(strategy, { ...o, ...(progress ? { progress } : {}) });
        // A month whose payment rows and ledger part is a bug of the mock or of mkt's figures: said, and exit 1.
        if (sim.reconciliation.differing.length > 0) {
          ctx.exitCode = EXIT.BUG;
          if (ctx.format() !== 'table') for (const line of reconciliationLines(sim)) ctx.info(line);
        }
        const format = ctx.format();
        if (format === 'json') return { kind: 'item', item: { ...sim } };
        const rows = {
          kind: 'rows',
          rows: sim.months as unknown as Record<string, unknown>[],
          columns: MONTH_COLUMNS,
          priority: MONTH_PRIORITY,
        } as const;
        if (format !== 'table') return rows;
        const { portfolioLines } = await import('../portfolio/text.js');
        const tty = ctx.io.stdoutIsTTY;
        const width = ctx.tableWidth() ?? 100;
        await writeOut(ctx.io.stdout, `${portfolioLines(sim.portfolio, { bars: tty, width }).join('\n')}\n\n`);
        await render(ctx.io.stdout, rows, 'table', { color: ctx.color(), width: ctx.tableWidth() });
        await writeOut(ctx.io.stdout, `\n${reconciliationLines(sim).join('\n')}\n`);
        if (tty) await writeOut(ctx.io.stdout, `\n${await valueChart(sim, o.cash, width)}`);
        return { kind: 'none' };
      }, MONTH_COLUMNS),
    );
}
