/**
 * `mkt mock snapshot save|load|list|rm`: named snapshots of the running mock's world (at root_url,
 * /__mock/snapshots). With `mock serve --state` they are files beside the state and outlive the mock;
 * without it, they live in the mock's memory until it stops.
 */
import type { Command } from '@commander-js/extra-typings';
import type { CommandContext } from '../context.js';
import { MOCK_ADMIN_PREFIX } from '../contract/mock-admin.js';
import { snapshotNameProblem } from '../contract/mock-snapshots.js';
import { UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { ADMIN_TOKEN_HELP, adminTarget } from './mock-admin-target.js';

/** Columns of the snapshot table. */
const SNAPSHOT_COLUMNS = ['name', 'now', 'listings', 'bytes', 'saved_at'];
const NAME_HELP = "the snapshot's name: letters, digits, '.', '_' and '-' (at most 64)";

/** NAME as given, or exit 2 naming what is wrong with it (nothing is sent). */
export function snapshotName(name: string): string {
  const problem = snapshotNameProblem(name);
  if (problem)
    throw new UsageError(`snapshot name '${name.slice(0, 80)}' ${problem}`, "use letters, digits, '.', '_' and '-', such as before-run-2");
  return name;
}

/** A time of the mock's answer as `2026-06-01 12:00:00 UTC`, or as it came. */
function when(iso: string | null): string {
  const t = iso === null ? NaN : Date.parse(iso);
  return Number.isFinite(t) ? `${new Date(t).toISOString().slice(0, 19).replace('T', ' ')} UTC` : String(iso);
}

/** Adds the `snapshot` group to the `mock` group. */
export function addSnapshotCommands(mock: Command, ctx: CommandContext): void {
  const snapshot = mock
    .command('snapshot')
    .description(
      `named snapshots of the running mock's world (${MOCK_ADMIN_PREFIX}/snapshots; kept beside mock serve --state, else in the mock's memory until it stops)`,
    );
  snapshot
    .command('save')
    .description('save the world of the running mock (at root_url) under NAME')
    .argument('<name>', NAME_HELP)
    .option('--replace', 'overwrite a snapshot of that name')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .action(
      ctx.action(async (name, opts): Promise<Output> => {
        snapshotName(name);
        const [{ saveSnapshot }, { RejectedError }, to] = await Promise.all([
          import('../api/mock-admin.js'),
          import('../api/errors.js'),
          adminTarget(ctx, opts.adminToken),
        ]);
        let saved;
        try {
          saved = await saveSnapshot(to, name, !!opts.replace);
        } catch (err) {
          // The mock's message speaks of the body's "replace"; the CLI's word for it is the flag.
          if (err instanceof RejectedError && err.status === 409)
            throw new RejectedError(err.message, err.exitCode, err.status, err.code, err.body, 'add --replace to overwrite it');
          throw err;
        }
        ctx.info(`saved snapshot ${saved.name}: the world at ${when(saved.now)}, ${saved.listings} listings, ${saved.bytes} bytes`);
        return { kind: 'item', item: { ...saved } };
      }),
    );
  snapshot
    .command('load')
    .description(
      'replace the world of the running mock with snapshot NAME at its saved time: the clock goes back with it (tokens and orders from after that time are gone, as after a reset)',
    )
    .argument('<name>', NAME_HELP)
    .option('--keep-clock', 'keep the clock instead (it never goes back): an older world is brought forward to it, as after a restart')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .action(
      ctx.action(async (name, opts): Promise<Output> => {
        snapshotName(name);
        const [{ loadSnapshot }, to] = await Promise.all([import('../api/mock-admin.js'), adminTarget(ctx, opts.adminToken)]);
        const loaded = await loadSnapshot(to, name, !!opts.keepClock);
        // A running clock has run on a little by the answer: the time said is the saved one, unless the clock was kept.
        const clock = !loaded.kept_clock
          ? ', the clock set to it'
          : loaded.saved_now === loaded.now
            ? ''
            : `, brought forward to the clock at ${when(loaded.now)}`;
        ctx.info(`loaded snapshot ${loaded.loaded}: the world as saved at ${when(loaded.saved_now)}${clock}`);
        return { kind: 'item', item: { ...loaded } };
      }),
    );
  snapshot
    .command('list')
    .description('the named snapshots of the running mock: name, virtual time, listings, size, when saved')
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .action(
      ctx.action(async (opts): Promise<Output> => {
        const [{ listSnapshots }, to] = await Promise.all([import('../api/mock-admin.js'), adminTarget(ctx, opts.adminToken)]);
        const page = await listSnapshots(to);
        for (const s of page.result) if (s.problem) ctx.info(`mkt: snapshot ${s.name} cannot be loaded: ${s.problem}`);
        return { kind: 'page', envelope: { ...page, result: page.result.map((s) => ({ ...s })) }, columns: SNAPSHOT_COLUMNS };
      }),
    );
  snapshot
    .command('rm')
    .description('delete snapshot NAME of the running mock')
    .argument('<name>', NAME_HELP)
    .option('--admin-token <token>', ADMIN_TOKEN_HELP)
    .action(
      ctx.action(async (name, opts): Promise<Output> => {
        snapshotName(name);
        const [{ deleteSnapshot }, to] = await Promise.all([import('../api/mock-admin.js'), adminTarget(ctx, opts.adminToken)]);
        const gone = await deleteSnapshot(to, name);
        ctx.info(`deleted snapshot ${gone.deleted}`);
        return { kind: 'item', item: { ...gone } };
      }),
    );
}
