/**
 * `mkt mock requests` and `mkt mock outbox`: what the running mock (at root_url) saw and sent — its
 * request log and the notification emails of its outbox. `requests --follow` polls for new
 * entries until Ctrl-C (exit 130, quietly) or until the reader of its output goes away.
 */
import type { Command } from '@commander-js/extra-typings';
import type { MockAdminTarget } from '../api/mock-admin.js';
import type { CommandContext } from '../context.js';
import { MOCK_ADMIN_PREFIX } from '../contract/mock-admin.js';
import { INSPECT_PAGE, type RequestLogEntry } from '../contract/mock-inspect.js';
import { EXIT, UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { ADMIN_TOKEN_HELP, adminTarget } from './mock-admin-target.js';
import { parseCount, parseLimit } from './options.js';

/** Columns of the request log and outbox tables. */
const REQUEST_COLUMNS = ['at', 'method', 'path', 'status', 'duration_ms', 'account'];
/** With --violations: the differences, one `direction field: problem` each, in the table's last column. */
const VIOLATION_COLUMNS = ['at', 'method', 'path', 'status', 'problems'];

/** An entry with its violations also as one line of text (`problems`), for the table. */
function withProblems(e: RequestLogEntry): Record<string, unknown> {
  const problems = (e.violations ?? []).map((v) => `${v.direction} ${v.field || '(whole)'}: ${v.problem}`).join('; ');
  return { ...e, problems };
}
const OUTBOX_COLUMNS = ['sent_at', 'to', 'kind', 'order_id', 'subject'];
/** How often --follow asks for new entries. */
const FOLLOW_POLL_MS = 500;

/**
 * The request log's new entries, oldest first, from after `since` on, until Ctrl-C or SIGTERM: each poll
 * takes every entry waiting (page after page), then waits FOLLOW_POLL_MS. A gap in the ids means the
 * request log dropped entries before they were read; it is said on stderr.
 */
async function* follow(
  ctx: CommandContext,
  to: MockAdminTarget,
  since: number,
  onlyViolations = false,
  row = (e: RequestLogEntry): Record<string, unknown> => ({ ...e }),
): AsyncGenerator<Record<string, unknown>> {
  const { listRequests } = await import('../api/mock-admin.js');
  const stop = new AbortController();
  void ctx.io.stopSignal(stop.signal).then(() => stop.abort());
  let last = since;
  try {
    while (!stop.signal.aborted) {
      const query = new URLSearchParams({ since: String(last), limit: String(INSPECT_PAGE.max) });
      if (onlyViolations) query.set('violations', 'true');
      const page = await listRequests(to, query);
      const fresh = [...page.result].reverse();
      const missed = fresh.length > 0 ? fresh[0]!.id - last - 1 : 0;
      // With --violations the ids between two entries are the conforming exchanges, not a gap.
      if (missed > 0 && last > 0 && !onlyViolations)
        ctx.info(`mkt: ${missed} request(s) left the request log before they were read (raise mock serve --request-log-size)`);
      for (const entry of fresh) {
        last = entry.id;
        yield row(entry);
      }
      if (page.total_count > page.result_count) continue;
      await ctx.io.sleep(FOLLOW_POLL_MS, stop.signal);
    }
    ctx.exitCode = EXIT.INTERRUPTED;
  } finally {
    stop.abort(); // stops listening for the signal, so its default comes back
  }
}

/** The newest page first printed by --follow (oldest first, as a log reads), then what follows it. */
async function* backlogThenFollow(
  ctx: CommandContext,
  to: MockAdminTarget,
  backlog: readonly RequestLogEntry[],
  since: number,
  onlyViolations: boolean,
  row: (e: RequestLogEntry) => Record<string, unknown>,
) {
  for (const entry of [...backlog].reverse()) yield row(entry);
  yield* follow(ctx, to, backlog[0]?.id ?? since, onlyViolations, row);
}

/** The page query of `--limit` and `--offset`. */
function pageOf(opts: { limit?: string; offset?: string }): URLSearchParams {
  const q = new URLSearchParams();
  if (opts.limit !== undefined) q.set('limit', String(parseLimit(opts.limit, INSPECT_PAGE)));
  if (opts.offset !== undefined) q.set('offset', String(parseCount('--offset', opts.offset, 0)));
  return q;
}

/** Adds `requests` and `outbox` to the `mock` group. */
export function addInspectCommands(mock: Command, ctx: CommandContext): void {
  mock
    .command('requests')
    .description(`the requests the running mock answered, newest first (its request log, ${MOCK_ADMIN_PREFIX}/requests)`)
    .option('--limit <n>', `how many (default ${INSPECT_PAGE.default}, at most ${INSPECT_PAGE.max})`)
    .option('--offset <n>', 'how many of the newest to skip')
    .option('--follow', 'then print new requests as they come, oldest first, until Ctrl-C')
    .option(
      '--violations',
      "only exchanges that differ from the OpenAPI document (the request log of `mkt mock proxy`; a mock's own entries have none)",
    )
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .action(
      ctx.action(async (opts): Promise<Output> => {
        // --follow goes on from the newest request: a page further back would leave a gap before it.
        if (opts.follow && opts.offset !== undefined) throw new UsageError('--follow starts from the newest request: leave out --offset');
        const q = pageOf(opts);
        if (opts.violations) q.set('violations', 'true');
        const columns = opts.violations ? VIOLATION_COLUMNS : REQUEST_COLUMNS;
        const [{ listRequests }, to] = await Promise.all([import('../api/mock-admin.js'), adminTarget(ctx, opts.adminToken)]);
        const page = await listRequests(to, q);
        const row = (e: RequestLogEntry) => (opts.violations ? withProblems(e) : { ...e });
        if (!opts.follow) return { kind: 'page', envelope: { ...page, result: page.result.map(row) }, columns };
        return { kind: 'stream', items: backlogThenFollow(ctx, to, page.result, 0, opts.violations === true, row), columns, live: true };
      }),
    );
  mock
    .command('outbox')
    .description(`the emails the running mock sent investors, newest first (${MOCK_ADMIN_PREFIX}/outbox)`)
    .option('--limit <n>', `how many (default ${INSPECT_PAGE.default}, at most ${INSPECT_PAGE.max})`)
    .option('--offset <n>', 'how many of the newest to skip')
    .option('--to <email>', "only those to this investor's address")
    .option('--order-id <id>', 'only those about this order')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .action(
      ctx.action(async (opts): Promise<Output> => {
        const q = pageOf(opts);
        if (opts.to !== undefined) q.set('to', opts.to);
        if (opts.orderId !== undefined) q.set('order_id', opts.orderId);
        const [{ listOutbox }, to] = await Promise.all([import('../api/mock-admin.js'), adminTarget(ctx, opts.adminToken)]);
        const page = await listOutbox(to, q);
        return { kind: 'page', envelope: { ...page, result: page.result.map((m) => ({ ...m })) }, columns: OUTBOX_COLUMNS };
      }),
    );
}
