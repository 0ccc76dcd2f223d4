/**
 * The mock's named snapshot routes (mock-server/routes/snapshots.ts), tagged `mock-admin` with the
 * other admin routes: save the world under a name, list, read, load and delete snapshots.
 */
import { Type } from '@sinclair/typebox';
import { VALIDATION_ERROR } from '../errors.js';
import { MOCK_ADMIN_PREFIX } from '../mock-admin.js';
import { SNAPSHOT_NAME_MAX, SNAPSHOT_PAGE } from '../mock-snapshots.js';
import { listEnvelopeSchema, nullable } from '../resources.js';
import { codes, json, pathParam, type Endpoint } from './endpoint.js';

const strict = { additionalProperties: false } as const;
const NAME_RULE = `1 to ${SNAPSHOT_NAME_MAX} letters, digits, '.', '_' and '-', not starting with '.', without '..'`;

/** One snapshot as the routes answer it. */
export const SnapshotSchema = Type.Object(
  {
    name: Type.String(),
    now: nullable(Type.String(), "The world's virtual time when saved; null when the file cannot be read."),
    listings: nullable(Type.Integer({ minimum: 0 }), 'Listings in the saved world, every status; null when the file cannot be read.'),
    bytes: Type.Integer({ minimum: 0 }),
    saved_at: Type.String({ description: 'When it was saved (real time).' }),
    problem: nullable(Type.String(), 'Why the file cannot be loaded (changed or damaged on disk); null when it can.'),
  },
  strict,
);

/** What POST /__mock/snapshots takes: the name, and whether to overwrite. */
export const SaveRequestSchema = Type.Object({
  name: Type.String({ description: NAME_RULE }),
  replace: Type.Optional(Type.Boolean({ description: 'Overwrite a snapshot of that name (else 409).' })),
});

/** What POST /__mock/snapshots/{name}/load takes (no body: the world and the clock at the snapshot's time). */
export const LoadRequestSchema = Type.Object(
  {
    keep_clock: Type.Optional(
      Type.Boolean({
        description:
          "Keep the clock (never going back): a snapshot saved earlier is brought forward from its time to the clock, as after a restart; one saved later still moves the clock to its time. Default false: the clock goes back (or forward) to the snapshot's time.",
      }),
    ),
  },
  strict,
);

const LoadedSchema = Type.Object(
  {
    loaded: Type.String(),
    saved_now: Type.String({ description: "The snapshot's virtual time." }),
    now: Type.String({
      description:
        "The clock after the load: the snapshot's time; with keep_clock, the clock as it was when the snapshot is older (the world brought forward to it).",
    }),
    listings: Type.Integer({ minimum: 0 }),
    kept_clock: Type.Boolean({ description: 'Whether keep_clock was asked.' }),
  },
  strict,
);

const ADMIN = { kind: 'admin' } as const;
const TAGS = ['mock-admin'];
const at = (route: string): string => `${MOCK_ADMIN_PREFIX}/${route}`;
const name = pathParam('name', { type: 'string' }, `The snapshot's name: ${NAME_RULE}.`);
const badName = codes('The name breaks the rule (the message says how).', VALIDATION_ERROR);
const missing = codes('No snapshot of that name.', 'NOT_FOUND');
const WHERE =
  'With `mock serve --state`, snapshots are files beside the state and outlive the mock; without it, they live in memory for the life of the mock.';

/** The snapshot endpoints. */
export const SNAPSHOT_ENDPOINTS: readonly Endpoint[] = [
  {
    method: 'get',
    path: at('snapshots'),
    operationId: 'mockSnapshots',
    tags: TAGS,
    access: ADMIN,
    page: SNAPSHOT_PAGE,
    summary: 'The named snapshots of the world, by name',
    description: WHERE,
    answers: {
      200: json('A page of snapshots.', listEnvelopeSchema(SnapshotSchema)),
      400: codes('offset or limit is bad.', VALIDATION_ERROR),
    },
  },
  {
    method: 'post',
    path: at('snapshots'),
    operationId: 'mockSaveSnapshot',
    tags: TAGS,
    access: ADMIN,
    summary: 'Save the world (at the clock, after any clock move under way) under a name',
    description: WHERE,
    body: { schema: SaveRequestSchema, required: true },
    answers: {
      200: json('The saved snapshot.', SnapshotSchema),
      400: codes('The body is not a JSON object, or the name or replace is bad (the message names it).', VALIDATION_ERROR),
      409: codes('A snapshot of that name exists and replace is not true.', 'CONFLICT'),
    },
  },
  {
    method: 'get',
    path: at('snapshots/{name}'),
    operationId: 'mockSnapshot',
    tags: TAGS,
    access: ADMIN,
    summary: 'One named snapshot',
    parameters: [name],
    answers: { 200: json('The snapshot.', SnapshotSchema), 400: badName, 404: missing },
  },
  {
    method: 'delete',
    path: at('snapshots/{name}'),
    operationId: 'mockDeleteSnapshot',
    tags: TAGS,
    access: ADMIN,
    summary: 'Delete a named snapshot',
    parameters: [name],
    answers: { 200: json('What was deleted.', Type.Object({ deleted: Type.String() }, strict)), 400: badName, 404: missing },
  },
  {
    method: 'post',
    path: at('snapshots/{name}/load'),
    operationId: 'mockLoadSnapshot',
    tags: TAGS,
    access: ADMIN,
    summary: 'Replace the world with a named snapshot (after any clock move under way)',
    description:
      "The world as saved, at its saved time: the clock goes back (or forward) to the snapshot's time and, unless frozen, runs on "
      + 'from there. What a client holds from after that time (an access token granted later, an order placed later) is unknown '
      + 'to it, as after a reset; order ids are never issued twice. With keep_clock the clock never goes back: a snapshot saved '
      + "earlier is brought forward from its time to the clock (orders due processed, the market's hours run), as after a restart.",
    parameters: [name],
    body: { schema: LoadRequestSchema },
    answers: {
      200: json('The load done.', LoadedSchema),
      400: codes(
        'The name breaks the rule, or the body is not a JSON object holding only keep_clock, true or false (the message says how).',
        VALIDATION_ERROR,
      ),
      404: missing,
      409: codes('The snapshot file cannot be loaded (damaged or changed on disk; the message says how).', 'CONFLICT'),
    },
  },
];
