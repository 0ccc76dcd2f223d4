/** `mkt invest check|run STRATEGY`: check a strategy file, or plan from it and place through the order desk. */
import { describeNextRelease } from '../contract/releases.js';
import type { Command } from '@commander-js/extra-typings';
import { resolveSettings } from '../config/settings.js';
import type { CommandContext } from '../context.js';
import { CliError, EXIT, systemErrorWords, UsageError } from '../errors.js';
import { readInput } from '../input.js';
import { appendLog, below, digest, hookName, hookUrl, logLine, post, tail, type RunReport } from '../invest/report.js';
import type { RunOutcome } from '../invest/run.js';
import { formatProblem, parseStrategy, type Strategy } from '../invest/strategy.js';
import type { DeskBid } from '../orders/desk-api.js';
import { WAIT_DEFAULTS } from '../orders/resume.js';
import { writeOut } from '../io.js';
import { money } from '../output/columns.js';
import { render, type Output } from '../output/render.js';
import { groupCommand } from './groups.js';
import { DECISION_COLUMNS, DECISION_FIELDS, decisionTable, totals } from './invest-output.js';
import { addSimulateCommand } from './invest-simulate.js';
import { progressOn, waitLock, waitPlan } from './order-wait.js';

/** Largest strategy file read: a hand-written file is a few kB. */
const MAX_STRATEGY_FILE = 1 << 20;

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
    .option(
      '--show-skipped',
      'in a table, list every skipped listing with its reason (default: the bids, then the skips counted by reason; -o json and csv carry every decision)',
    )
    .action(
      ctx.action(
        async (file, opts): Promise<Output> => {
          // Every flag is checked before anything is read or sent.
          const notify = opts.notify === undefined ? undefined : hookUrl('--notify', opts.notify);
          const health = opts.healthcheck === undefined ? undefined : hookUrl('--healthcheck', opts.healthcheck);
          const wait = opts.wait ? waitPlan(opts, ctx.settings().profile) : undefined;
          const waitLockMs = waitLock(opts.waitLock);
          const format = ctx.format();
          // Every message goes to a failure's healthcheck ping; progress reaches stderr only on a terminal or with --progress.
          const messages: string[] = [];
          const info = (l: string): void => {
            messages.push(l);
            ctx.info(l);
          };
          const progress = (l: string): void => {
            messages.push(l);
            ctx.progress(l);
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
          let strategy: Strategy | undefined;
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
            strategy = checkStrategy(ctx, text, input.source, info);
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
              progress,
              holder: 'invest run or order submit',
              waitLockMs,
              ...deskWindows(ctx.io.env),
            });
            outcome = await investRun(
              strategy,
              { reads: marketReads(client), desk, now: () => client.marketNow(), zone: settings.timezone, info, progress },
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
          // A run that bid nothing says why: on a terminal (or --progress), and always in the report and the --log line.
          if (report.reason !== null)
            ctx.progress(`${report.dry_run ? 'dry run: nothing would be bid' : 'nothing was bid'}: ${report.reason}`);
          if (format === 'json') return { kind: 'item', item: { ...report } };
          const all = report.decisions as unknown as Record<string, unknown>[];
          if (format !== 'table') return { kind: 'rows', rows: all, columns: DECISION_FIELDS };
          const shown = decisionTable(report.decisions, outcome!.ratings, strategy, opts.showSkipped === true);
          const fit = { color: ctx.color(), width: ctx.tableWidth() };
          if (shown.rows.length > 0)
            await render(ctx.io.stdout, { kind: 'rows', rows: shown.rows, columns: DECISION_COLUMNS }, 'table', fit);
          if (shown.skipped.length > 0) {
            if (shown.rows.length > 0) await writeOut(ctx.io.stdout, '\n');
            await render(ctx.io.stdout, { kind: 'rows', rows: shown.skipped, columns: ['skipped', 'listings'] }, 'table', fit);
            ctx.progress(
              `${shown.skips} skipped listing${shown.skips === 1 ? '' : 's'} counted by reason: --show-skipped lists each with its reason (-o json or -o csv: every decision)`,
            );
          }
          const sums = totals(outcome!);
          if (sums.length > 0 && ctx.showsProgress())
            await render(ctx.io.stderr, { kind: 'rows', rows: sums, columns: ['by', 'name', 'bids', 'amount'] }, 'table', false);
          const bids = report.decisions.filter((d) => d.action === 'bid').length;
          if (bids > 0)
            ctx.progress(
              `${report.dry_run ? 'dry run: would bid' : 'bid'} ${money(report.total_bid)} in ${bids} bid${bids === 1 ? '' : 's'}; orders: ${report.orders.join(', ') || 'none'}`,
            );
          return { kind: 'none' };
        },
        [...DECISION_FIELDS, 'decisions', 'orders', 'total_bid', 'dry_run'],
      ),
    );

  addSimulateCommand(ctx, invest, (text, source) => checkStrategy(ctx, text, source, (l) => ctx.info(l)));
  return invest;
}
