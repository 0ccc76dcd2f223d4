/** `mkt mock clock advance`: moves the running mock's virtual clock forward, showing the days done as it goes. */
import type { Command } from '@commander-js/extra-typings';
import type { HttpClient } from '../api/http.js';
import type { ClockMove, ClockMoveProgress } from '../api/mock-admin.js';
import type { CommandContext } from '../context.js';
import { parseDuration } from '../contract/duration.js';
import { UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { ADMIN_TOKEN_HELP } from './mock-admin-target.js';

export type { ClockMove };

/** How often a clock move shown as progress is looked at. */
const PROGRESS_EVERY_MS = 250;

/** Following a clock move as it runs: how to wait between looks, and what to do with each look's progress. */
export interface ClockFollow {
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  show(progress: ClockMoveProgress): void;
}

/**
 * Moves the clock of the mock running at `rootUrl` forward by `duration` (`90m`, `24h`, `15d`, `PT1H`):
 * POST {root_url}/__mock/clock (see mockAdminUrl), with the admin token when given (a mock bound off loopback needs it),
 * waiting as long as the move takes. With `follow`, the move's progress (GET /__mock/clock) is handed
 * to it until the move is answered. A bad duration is a UsageError before anything is sent.
 */
export async function advanceMockClock(
  http: HttpClient,
  rootUrl: string,
  duration: string,
  adminToken?: string,
  follow?: ClockFollow,
): Promise<ClockMove> {
  if (parseDuration(duration) === null) throw new UsageError(`DURATION must look like 90m, 24h, 15d or PT1H, got '${duration}'`);
  const { moveClock, readClock } = await import('../api/mock-admin.js');
  const target = { http, rootUrl, adminToken };
  const move = moveClock(target, duration);
  if (!follow) return await move;
  let done = false;
  // The answer ends the wait between looks at once (no timer left to keep the process alive).
  const answered = new AbortController();
  void move
    .then(
      () => undefined,
      () => undefined,
    )
    .finally(() => {
      done = true;
      answered.abort();
    });
  const watch = async (): Promise<void> => {
    while (!done) {
      await follow.sleep(PROGRESS_EVERY_MS, answered.signal);
      if (done) return;
      // A look that fails (an older mock without GET) only ends the watching; the move's own answer decides.
      const state = await readClock(target).catch(() => null);
      if (!state) return;
      if (state.move && !done) follow.show(state.move);
    }
  };
  const watching = watch();
  try {
    return await move;
  } finally {
    await watching;
  }
}

/** A span in words, largest units first: "15 days", "1 day 2 hours", "90 seconds" is "1 minute 30 seconds". */
export function durationWords(ms: number): string {
  const units: Array<[string, number]> = [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
    ['second', 1000],
  ];
  const parts: string[] = [];
  let left = Math.round(ms);
  for (const [name, size] of units) {
    const n = Math.floor(left / size);
    left -= n * size;
    if (n > 0) parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
  }
  if (left > 0 || parts.length === 0) parts.push(`${left} ms`);
  return parts.join(' ');
}

/** Adds `clock advance` to the `mock` group. */
export function addClockCommands(mock: Command, ctx: CommandContext): void {
  mock
    .command('clock')
    .description("the mock's virtual clock")
    .command('advance')
    .description('move the clock of the running mock (at root_url) forward')
    .argument('<duration>', 'how far: 90m, 24h, 15d or ISO 8601 (PT1H)')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .action(
      ctx.action(async (duration, opts): Promise<Output> => {
        const token = opts.adminToken ?? (ctx.io.env.MKT_MOCK_ADMIN_TOKEN || undefined);
        // The days done while the mock moves (a long move takes a while), when progress is shown (--progress, --verbose, a
        // terminal): on a terminal redrawn in place and cleared at the end; elsewhere a line each time the count moves.
        let drawn = false;
        let last = -1;
        const tty = ctx.io.stderrIsTTY;
        const follow: ClockFollow | undefined = ctx.showsProgress()
          ? {
              sleep: ctx.io.sleep,
              show: (p) => {
                if (tty) return void ((drawn = true), ctx.io.stderr.write(`\r\x1b[Kmoving the clock: day ${p.days_done} of ${p.days}`));
                if (p.days_done !== last) ctx.io.stderr.write(`moving the clock: day ${(last = p.days_done)} of ${p.days}\n`);
              },
            }
          : undefined;
        let moved;
        try {
          moved = await advanceMockClock(await ctx.httpClient(), ctx.settings().rootUrl, duration, token, follow);
        } finally {
          if (drawn) ctx.io.stderr.write('\r\x1b[K');
        }
        const to = Date.parse(moved.now);
        const when = Number.isFinite(to) ? `${new Date(to).toISOString().slice(0, 19).replace('T', ' ')} UTC` : moved.now;
        ctx.info(`moved the clock ${durationWords(moved.moved_ms)} forward, to ${when}`);
        return { kind: 'item', item: { ...moved } };
      }),
    );
}
