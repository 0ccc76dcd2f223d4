/**
 * Named snapshots of the world (admin routes; who may call them: admin-access.ts): save the world
 * under a name, list them, read one, load one in place of the world, delete one. Where they are kept:
 * world/snapshot-shelf.ts (beside the state with --state, else in memory).
 */
import { formatDateTime } from '../../src/contract/dates.js';
import { SNAPSHOT_PAGE, snapshotNameProblem, type SnapshotEntry } from '../../src/contract/mock-snapshots.js';
import { ApiError, validationError } from '../kit/api-error.js';
import type { MockContext } from '../context.js';
import { serializeState, StateFileError } from '../world/state-text.js';
import { EXISTS, type SnapshotInfo } from '../world/snapshot-shelf.js';
import { jsonBody } from './admin.js';
import { http, route, type RouteParams } from '../route-helper/route.js';

/** A snapshot as the routes answer it. */
export function snapshotView(s: SnapshotInfo): SnapshotEntry {
  return {
    name: s.name,
    now: s.now === null ? null : formatDateTime(s.now),
    listings: s.listings,
    bytes: s.bytes,
    saved_at: formatDateTime(s.savedAt),
    problem: s.problem,
  };
}

/** A checked name; a 400 naming what is wrong with it. */
function checkedName(name: unknown): string {
  if (typeof name !== 'string') throw validationError('name', `must be a text, got ${JSON.stringify(name) ?? 'nothing'}`);
  const problem = snapshotNameProblem(name);
  if (problem) throw validationError('name', `${JSON.stringify(name.slice(0, 80))} ${problem}`);
  return name;
}

const nameParam = (params: RouteParams): string => checkedName(String(params.name));

function noSnapshot(name: string): ApiError {
  return new ApiError(404, { code: 'NOT_FOUND', message: `No snapshot '${name}'` });
}

/** The snapshot handlers. */
export function snapshotHandlers(ctx: MockContext) {
  return [
    http.get(
      '*/__mock/snapshots',
      route(ctx, async () => (await ctx.snapshots.list()).map(snapshotView), { list: SNAPSHOT_PAGE }),
    ),
    // A save changes no world: nothing for the state file; the text is taken once no move runs (the world where it ended), settled
    // as a reader sees it (a move leaves that to its readers: an unsettled text, loaded, would lose the steps it lacks for good).
    http.post(
      '*/__mock/snapshots',
      route(
        ctx,
        async ({ request }) => {
          // A world that holds changes its log could not keep (a failed rollback) is not saved for later loads.
          const refusal = ctx.durability.refusal;
          if (refusal) throw refusal;
          const body = await jsonBody(request);
          const name = checkedName(body.name);
          if (body.replace !== undefined && typeof body.replace !== 'boolean')
            throw validationError('replace', `must be true or false, got ${JSON.stringify(body.replace)}`);
          const { text, now, listings } = await ctx.engine.afterMove(() => {
            ctx.engine.settle();
            return { text: serializeState(ctx.world, ctx.clock.now()), now: ctx.clock.now(), listings: ctx.world.listings.length };
          });
          const saved = await ctx.snapshots.save(name, text, now, listings, body.replace === true);
          if (saved === EXISTS)
            throw new ApiError(409, { code: 'CONFLICT', message: `Snapshot '${name}' exists; send "replace": true to overwrite it` });
          return snapshotView(saved);
        },
        { json: true, sync: true, writes: false },
      ),
    ),
    http.get(
      '*/__mock/snapshots/:name',
      route(ctx, async ({ params }) => {
        const name = nameParam(params);
        const found = (await ctx.snapshots.list()).find((s) => s.name === name);
        if (!found) throw noSnapshot(name);
        return snapshotView(found);
      }),
    ),
    http.delete(
      '*/__mock/snapshots/:name',
      route(
        ctx,
        async ({ params }) => {
          const name = nameParam(params);
          if (!(await ctx.snapshots.remove(name))) throw noSnapshot(name);
          return { deleted: name };
        },
        { writes: false },
      ),
    ),
    // Loading changes the world: its answer waits until the state file holds the new one (route-helper/route.ts).
    // The world comes back at its saved time, the clock with it; `keep_clock: true` brings it forward to the clock instead.
    http.post(
      '*/__mock/snapshots/:name/load',
      route(
        ctx,
        async ({ params, request }) => {
          const name = nameParam(params);
          const body = await jsonBody(request);
          const keepClock = body.keep_clock === undefined ? false : body.keep_clock;
          if (typeof keepClock !== 'boolean')
            throw validationError('keep_clock', `must be true or false, got ${JSON.stringify(keepClock)}`);
          for (const key of Object.keys(body))
            if (key !== 'keep_clock') throw validationError(key, 'is not a field of a load; the one field is keep_clock');
          let saved;
          try {
            saved = await ctx.snapshots.read(name);
          } catch (err) {
            if (err instanceof StateFileError)
              throw new ApiError(409, { code: 'CONFLICT', message: `Snapshot '${name}' cannot be loaded: ${err.message}` });
            throw err;
          }
          if (!saved) throw noSnapshot(name);
          const savedAt = saved.now;
          // As reset: a world a clock move is stepping through is replaced only once that move has ended.
          await ctx.engine.afterMove(() => ctx.replaceWorld(saved, keepClock));
          return {
            loaded: name,
            saved_now: formatDateTime(savedAt),
            now: formatDateTime(ctx.clock.now()),
            listings: ctx.world.listings.length,
            kept_clock: keepClock,
          };
        },
        { json: true, sync: true },
      ),
    ),
  ];
}
