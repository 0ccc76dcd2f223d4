/**
 * `mkt doctor`: checks, one line each, what a cron job needs — settings and where they come from, the
 * marketplace reachable, credentials present and renewable, the clock, the journal and its lock, and
 * `mkt` on PATH. Exit 0 when every check passes (a warning passes), 1 otherwise.
 */
import { dirname } from 'node:path';
import type { CommandContext } from '../context.js';
import type { Check } from '../doctor/check.js';
import type { Marketplace } from '../orders/marketplace.js';
import { writeOut } from '../io.js';
import type { Output } from '../output/render.js';
import { groupCommand } from './groups.js';

/** The columns of `-o json|ndjson|csv`. */
const COLUMNS = ['check', 'status', 'detail', 'fix'];

/** Seconds one request of doctor may take: a cron job's checks should not hang on a silent host. */
const REQUEST_TIMEOUT_MS = 10_000;

/** Runs every check in order; a check that needs an earlier one's result is skipped when that failed. */
async function runChecks(ctx: CommandContext): Promise<Check[]> {
  const [{ skip }, { checkSettings, fileSettings }, market, files, { HttpClient }, { otherJournals }] = await Promise.all([
    import('../doctor/check.js'),
    import('../doctor/settings-check.js'),
    import('../doctor/market-checks.js'),
    import('../doctor/file-checks.js'),
    import('../api/http.js'),
    import('../doctor/state-dirs.js'),
  ]);
  const env = ctx.io.env;
  const now = () => ctx.io.now();
  const checks: Check[] = [];
  const { check, settings } = checkSettings(env, ctx.globals().profile);
  checks.push(check);
  let account: Marketplace | undefined;
  if (!settings) {
    checks.push(skip('marketplace', 'settings'), skip('clock', 'settings'), skip('credentials', 'settings'));
  } else {
    const trace = ctx.globals().verbose ? (line: string) => ctx.info(line) : undefined;
    // No retries: doctor says at once what a run would meet, rather than riding out a failure.
    const http = new HttpClient({ timeoutMs: REQUEST_TIMEOUT_MS, maxRetries: 0, trace, sleep: ctx.io.sleep, pacer: await ctx.pacer() });
    try {
      const reach = await market.checkMarketplace(settings, http, now);
      checks.push(reach.check);
      if (!reach.answer) {
        checks.push(skip('clock', 'marketplace'), skip('credentials', 'marketplace'));
      } else {
        checks.push(market.checkClock(settings, reach.answer));
        const creds = await market.checkCredentials(settings, env, http, now, (l) => ctx.info(l));
        checks.push(creds.check);
        account = creds.market;
      }
    } finally {
      await http.close();
    }
  }
  const where = fileSettings(env, ctx.globals().profile);
  if (where) {
    // Other state directories are found only for an account the marketplace named: their journals are read by its key.
    const others = account ? otherJournals(env, where.stateDir, where.profile, account) : [];
    checks.push(
      files.checkJournal(where.stateDir, where.profile, account?.key, others),
      files.checkLocks(where.stateDir, where.profile, account?.key),
    );
  } else {
    checks.push(skip('journal', 'settings'), skip('lock', 'settings'));
  }
  // The file this run was started as, and the node running it: an install PATH does not hold is found by them.
  const candidates = files.installCandidates(env, process.argv[1], process.execPath);
  checks.push(
    files.checkPath(env.PATH, files.packageRoot(import.meta.filename) ?? import.meta.dirname, candidates, dirname(process.execPath)),
  );
  return checks;
}

/** One line per check, for a person: status, name, what was found and, when something is to be done, what. */
function textLines(checks: readonly Check[], color: boolean): string {
  const paint: Record<Check['status'], (s: string) => string> = color
    ? { ok: (s) => `\x1b[32m${s}\x1b[39m`, warn: (s) => `\x1b[33m${s}\x1b[39m`, fail: (s) => `\x1b[31m${s}\x1b[39m`, skip: (s) => s }
    : { ok: (s) => s, warn: (s) => s, fail: (s) => s, skip: (s) => s };
  const width = Math.max(...checks.map((c) => c.check.length));
  const lines = checks.map(
    (c) => `${paint[c.status](c.status.padEnd(4))}  ${c.check.padEnd(width)}  ${c.detail}${c.fix ? ` — to fix: ${c.fix}` : ''}\n`,
  );
  const failed = checks.filter((c) => c.status === 'fail' || c.status === 'skip').map((c) => c.check);
  lines.push(
    failed.length === 0
      ? `all ${checks.length} checks passed\n`
      : `${failed.length} of ${checks.length} checks did not pass: ${failed.join(', ')}\n`,
  );
  return lines.join('');
}

/** The `doctor` command. */
export function makeDoctorCommand(ctx: CommandContext) {
  return groupCommand('doctor')
    .addHelpText(
      'after',
      '\nIt renews the stored credentials, as a run would, and changes nothing else.\nExit status: 0 when every check passes (a warning passes), 1 otherwise.',
    )
    .action(async () => {
      const checks = await runChecks(ctx);
      const { allPassed } = await import('../doctor/check.js');
      if (!allPassed(checks)) ctx.exitCode = 1;
      let format: string | undefined;
      try {
        format = ctx.format();
      } catch {
        // A config file that cannot be read: the settings check has said so; print as with no setting.
        format = undefined;
      }
      if (format === undefined ? ctx.io.stdoutIsTTY : format === 'table' && ctx.globals().columns === undefined) {
        await writeOut(ctx.io.stdout, textLines(checks, ctx.color()));
      } else if (format === undefined) {
        await writeOut(ctx.io.stdout, `${JSON.stringify(checks, null, 2)}\n`);
      } else {
        await ctx.action(async (): Promise<Output> => ({ kind: 'rows', rows: checks.map((c) => ({ ...c })), columns: COLUMNS }), COLUMNS)();
      }
    });
}
