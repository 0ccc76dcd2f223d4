/** `mkt invest check|run STRATEGY`: check a strategy file, or plan from it and place through the order desk. */
import { describeNextRelease } from '../contract/releases.js';
import type { Command } from '@commander-js/extra-typings';
import { resolveSettings } from '../config/settings.js';
import type { CommandContext } from '../context.js';
import { CliError, EXIT, systemErrorWords, UsageError } from '../errors.js';
import { readInput } from '../input.js';
import type { Decision } from '../invest/planner.js';
import { appendLog, below, digest, hookName, hookUrl, logLine, post, tail, type RunReport } from '../invest/report.js';
import type { RunOutcome } from '../invest/run.js';
import { formatProblem, parseStrategy, type Strategy } from '../invest/strategy.js';
import type { DeskBid } from '../orders/desk-api.js';
import { WAIT_DEFAULTS } from '../orders/resume.js';
import { money } from '../output/columns.js';
import { render, type Output } from '../output/render.js';
import { groupCommand } from './groups.js';
import { addSimulateCommand } from './invest-simulate.js';
import { progressOn, waitLock, waitPlan } from './order-wait.js';

/** Largest strategy file read: a hand-written file is a few kB. */
const MAX_STRATEGY_FILE = 1 << 20;
const DECISION_COLUMNS = ['listing_id', 'rule', 'action', 'amount', 'reason'];

/** Checks a strategy's text; every problem goes to `info` as FILE:LINE: key: message, then exit 2. */
function checkStrategy(ctx: CommandContext, text: string, source: string, info: (l: string) => void): Strategy {
  const g = ctx.globals();
  // Date filters read as `listings search` reads them; only the time zone setting is needed (and checked).
  const zone = g.timezone ?? resolveSettings(ctx.io.env, g.profile, {}, ['timezone']).timezone;
  const parsed = parseStrategy(text, source, zone);
  if ('strategy' in parsed) return parsed.strategy;
  for (const p of parsed.problems) info(formatProblem(source, p));
  const n = parsed.problems.length;
  throw new UsageError(`${source}: ${n} problem${n > 1 ? 's' : ''} in the strategy; nothing was sent`);
}

/** Asks on the terminal before placing; off a terminal --yes is required (checked before anything is read). */
async function confirmPlan(ctx: CommandContext, bids: readonly DeskBid[], total: number): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts');
  return confirm(
    { message: `Place ${bids.length} bid${bids.length > 1 ? 's' : ''} for a total of ${money(total)}?`, default: false },
    { input: ctx.io.stdin, output: ctx.io.stderr },
  );
}

/** Bids and amount per rule and per rating, as rows for a small table on stderr. */
function totals(outcome: RunOutcome): Record<string, unknown>[] {
  const rows = new Map<string, { by: string; name: string; bids: number; cents: number }>();
  const add = (by: string, name: string, d: Decision): void => {
    const r = rows.get(`${by}\0${name}`) ?? { by, name, bids: 0, cents: 0 };
    r.bids++;
    r.cents += Math.round((d.amount ?? 0) * 100);
    rows.set(`${by}\0${name}`, r);
  };
  for (const d of outcome.decisions) {
    if (d.action !== 'bid') continue;
    add('rule', d.rule, d);
    add('rating', outcome.ratings.get(d.listing_id) ?? '?', d);
  }
  return [...rows.values()].map((r) => ({ by: r.by, name: r.name, bids: r.bids, amount: (r.cents / 100).toFixed(2) }));
}

/** The `invest` command group, typed by its definitions. */
export function investCommand(ctx: CommandContext): Command {
  const invest = groupCommand('invest');

  invest
    .command('check')
    .description('check a strategy file (JSON or YAML): exit 0, or exit 2 with every problem as FILE:LINE: key: message')
    .argument('<strategy>', 'strategy file, or - for standard input')
    .action(
      ctx.action(async (file): Promise<Output> => {
        const { text, source } = await readInput(ctx.io, file, MAX_STRATEGY_FILE);
        const strategy = checkStrategy(ctx, text, source, (l) => ctx.info(l));
        ctx.info(`${file}: ok (${strategy.rules.length} rule${strategy.rules.length > 1 ? 's' : ''})`);
        // For a cron line: run a few minutes after a release, when the new listings are there (README, cron).
        ctx.info(describeNextRelease(ctx.io.now()));
        return { kind: 'none' };
      }),
    );

  invest
    .command('run')
    .description('plan from a strategy file against the live marketplace, then place the bids through the order desk')
    .argument('<strategy>', 'strategy file, or - for standard input')
    .option('--dry-run', 'plan against the live marketplace and send nothing')
    .option('-y, --yes', 'place without asking (required off a terminal)')
    .option('--wait', 'follow the orders until every bid has a result (see --until)')
    .option('--until <what>', 'with --wait: processed or completed', WAIT_DEFAULTS.until)
    .option('--timeout <seconds>', 'with --wait: give up after this many seconds', String(WAIT_DEFAULTS.timeoutSeconds))
    .option(
      '--wait-lock <seconds>',
      'wait up to this many seconds for another run or submit on the account to finish (default: exit 2 at once, bidding nothing)',
    )
    .option('--notify <url>', 'POST the JSON report to this webhook after the run (also after a dry run or a failure)')
    .option('--healthcheck <url>', "ping a dead-man's switch: URL/start before, URL on success, URL/fail with the messages on failure")
    .option('--log <file>', 'append one JSON line per run: time, strategy sha256, decisions by reason, orders, exit code')
    .action(
      ctx.action(
        async (file, opts): Promise<Output> => {
          // Every flag is checked before anything is read or sent.
          const notify = opts.notify === undefined ? undefined : hookUrl('--notify', opts.notify);
          const health = opts.healthcheck === undefined ? undefined : hookUrl('--healthcheck', opts.healthcheck);
          const wait = opts.wait ? waitPlan(opts, ctx.settings().profile) : undefined;
          const waitLockMs = waitLock(opts.waitLock);
          const format = ctx.format();
          const messages: string[] = [];
          const info = (l: string): void => {
            messages.push(l);
            ctx.info(l);
          };
          const hook = async (what: string, url: URL, body: string, type: string): Promise<void> => {
            try {
              await post(url, body, type);
            } catch (err) {
              // A hook that fails is reported, never a reason to change what the run did.
              ctx.info(`mkt: ${what} to ${hookName(url)} failed: ${systemErrorWords(err)}`);
            }
          };
          if (health) await hook('healthcheck start ping', below(health, 'start'), '', 'text/plain');

          let text = '';
          let outcome: RunOutcome | undefined;
          let failure: unknown;
          try {
            if (!opts.dryRun && !opts.yes && !(ctx.io.stdinIsTTY && ctx.io.stderrIsTTY)) {
              throw new UsageError(
                'not on a terminal: nothing was sent',
                'add --yes to place bids without a prompt (or --dry-run to see the plan)',
              );
            }
            const input = await readInput(ctx.io, file, MAX_STRATEGY_FILE);
            text = input.text;
            const strategy = checkStrategy(ctx, text, input.source, info);
            const [{ investRun, marketReads }, { openDesk }, client, { deskWindows }] = await Promise.all([
              import('../invest/run.js'),
              import('../orders/open-desk.js'),
              ctx.api(),
              import('../config/timeouts.js'),
            ]);
            const settings = ctx.settings();
            const desk = await openDesk(client, {
              stateDir: settings.stateDir,
              profile: settings.profile,
              clock: ctx.io,
              info,
              holder: 'invest run or order submit',
              waitLockMs,
              ...deskWindows(ctx.io.env),
            });
            outcome = await investRun(
              strategy,
              { reads: marketReads(client), desk, now: () => client.marketNow(), zone: settings.timezone, info },
              {
                dryRun: opts.dryRun === true,
                ...(opts.yes ? {} : { confirm: (bids, total) => confirmPlan(ctx, bids, total) }),
                ...(wait ? { wait: { ...wait, progress: progressOn(ctx) } } : {}),
              },
            );
          } catch (err) {
            failure = err;
            messages.push(`mkt: ${err instanceof Error ? err.message : String(err)}`);
          }

          const report: RunReport = {
            decisions: outcome?.decisions ?? [],
            orders: outcome?.orders ?? [],
            total_bid: outcome?.total_bid ?? 0,
            dry_run: opts.dryRun === true,
            reason: outcome?.reason ?? null,
          };
          const exitCode = outcome?.exitCode ?? (failure instanceof CliError ? failure.exitCode : EXIT.BUG);
          const error = failure === undefined ? undefined : failure instanceof Error ? failure.message : String(failure);
          const line = logLine(ctx.io.now(), digest(text), report, exitCode, error);
          if (opts.log) {
            try {
              await appendLog(opts.log, line);
            } catch (err) {
              ctx.info(`mkt: could not append to --log ${opts.log}: ${systemErrorWords(err)}`);
            }
          }
          if (notify)
            await hook(
              'notification',
              notify,
              JSON.stringify({ ...report, exit_code: exitCode, ...(error ? { error } : {}) }),
              'application/json',
            );
          if (health) {
            if (exitCode === EXIT.OK) await hook('healthcheck ping', health, JSON.stringify(line), 'application/json');
            else await hook('healthcheck fail ping', below(health, 'fail'), tail(messages), 'text/plain');
          }
          if (failure !== undefined) throw failure;

          ctx.exitCode = exitCode;
          // A run that bid nothing says why, whatever the format (cron mails stderr): caps used up, nothing matched, all skipped.
          if (report.reason !== null) ctx.info(`${report.dry_run ? 'dry run: nothing would be bid' : 'nothing was bid'}: ${report.reason}`);
          if (format === 'json') return { kind: 'item', item: { ...report } };
          const rows = { kind: 'rows', rows: report.decisions as unknown as Record<string, unknown>[], columns: DECISION_COLUMNS } as const;
          if (format !== 'table') return rows;
          await render(ctx.io.stdout, rows, 'table', { color: ctx.color(), width: ctx.tableWidth() });
          const sums = totals(outcome!);
          if (sums.length > 0)
            await render(ctx.io.stderr, { kind: 'rows', rows: sums, columns: ['by', 'name', 'bids', 'amount'] }, 'table', false);
          const bids = report.decisions.filter((d) => d.action === 'bid').length;
          if (bids > 0)
            ctx.info(
              `${report.dry_run ? 'dry run: would bid' : 'bid'} ${money(report.total_bid)} in ${bids} bid${bids === 1 ? '' : 's'}; orders: ${report.orders.join(', ') || 'none'}`,
            );
          return { kind: 'none' };
        },
        [...DECISION_COLUMNS, 'decisions', 'orders', 'total_bid', 'dry_run'],
      ),
    );

  addSimulateCommand(ctx, invest, (text, source) => checkStrategy(ctx, text, source, (l) => ctx.info(l)));
  return invest;
}
