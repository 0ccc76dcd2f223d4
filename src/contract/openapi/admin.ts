/**
 * The mock's admin routes (mock-server/routes/admin.ts, the dashboard of routes/dashboard.ts), tagged `mock-admin`: reset, state, clock,
 * processing, faults and operator actions on a listing. Outside the spec; off with `--no-admin`;
 * loopback callers of a loopback bind may call them, any other caller needs the admin token (a
 * refused caller gets the 404 of a path that does not exist).
 */
import { Type } from '@sinclair/typebox';
import { VALIDATION_ERROR } from '../errors.js';
import { MOCK_ADMIN_PREFIX } from '../mock-admin.js';
import { INSPECT_PAGE } from '../mock-inspect.js';
import { JournalEntrySchema, OutboxMessageSchema } from '../mock-inspect-schemas.js';
import { WEBHOOK_PAGE, WEBHOOK_STATES, WebhookPageSchema } from '../mock-webhooks.js';
import { listEnvelopeSchema, nullable } from '../resources.js';
import { ADD_LISTING_ENDPOINT } from './admin-listings.js';
import { ORDERS_ENDPOINT } from './admin-orders.js';
import { SNAPSHOT_ENDPOINTS } from './admin-snapshots.js';
import { RATE_LIMIT_ENDPOINTS, RateLimitStateSchema } from './admin-rate-limit.js';
import { codes, html, json, pathParam, queryParam, type Endpoint } from './endpoint.js';

const Count = Type.Integer({ minimum: 0 });
const CountsBy = Type.Record(Type.String(), Count);
const strict = { additionalProperties: false } as const;

/** The injected faults (POST /__mock/faults sets them; `{}` clears them). */
export const FaultsSchema = Type.Object(
  {
    latency_ms: Type.Integer({ minimum: 0, maximum: 30_000, description: 'Added before the request is read.' }),
    handler_delay_ms: Type.Integer({
      minimum: 0,
      maximum: 30_000,
      description: 'Added after the request is read and before it is handled; handled even if the client has gone.',
    }),
    error_rate: Type.Number({ minimum: 0, maximum: 1 }),
    rate_limit_rate: Type.Number({ minimum: 0, maximum: 1 }),
    retry_after: Type.Integer({ minimum: 0, maximum: 3600 }),
    drop_rate: Type.Number({ minimum: 0, maximum: 1 }),
    drop_response_rate: Type.Number({ minimum: 0, maximum: 1 }),
    path: Type.Union([Type.String(), Type.Null()], { description: 'Only requests whose path starts with this.' }),
    method: Type.Union([Type.String(), Type.Null()], { description: 'Only requests with this method.' }),
    count: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'Faults stop after this many matching requests.' }),
  },
  strict,
);

/** What a faults request sets: any of the settings (the rates together at most 1). */
export const FaultsRequestSchema = Type.Partial(FaultsSchema);

/** Counts, balances, special listings and the invariant check. */
export const MockStateSchema = Type.Object(
  {
    now: Type.String(),
    frozen: Type.Boolean(),
    seed: Type.Integer(),
    listings: Count,
    listings_by_status: CountsBy,
    orders: Count,
    orders_by_status: CountsBy,
    orders_queued: Count,
    loans: Count,
    notes: Count,
    ledger_entries: Count,
    users: Type.Array(
      Type.Object(
        {
          user: Type.String(),
          name: Type.String(),
          password: Type.String({ description: 'What the password grant takes (mock serve --allow-password-grant).' }),
          accounts: Type.Array(Type.String()),
          email: nullable(Type.String()),
          notifications: Type.Boolean(),
        },
        strict,
      ),
    ),
    password_grant: Type.Boolean({ description: 'The token endpoint takes grant_type=password.' }),
    accounts: Type.Array(
      Type.Object(
        {
          account_id: Type.String(),
          user: Type.String(),
          external_user_id: Type.String(),
          cash: Type.Number(),
          pending: Type.Number(),
          invested: Type.Number(),
          total: Type.Number(),
        },
        strict,
      ),
    ),
    outbox_messages: Count,
    special_listings: Type.Record(Type.String(), Type.Union([Type.Integer(), Type.Null()])),
    invariants: Type.Object({ ok: Type.Boolean(), violations: Type.Array(Type.String()) }, strict),
    faults: FaultsSchema,
    rate_limit: RateLimitStateSchema,
    releases: Type.Object(
      {
        zone: Type.String({ description: "The release times' zone (America/New_York)." }),
        times: Type.Union([Type.Array(Type.String({ description: 'HH:MM' })), Type.Literal('steady')], {
          description: "When new listings arrive (--releases): the times, or 'steady' (every hour).",
        }),
        next: Type.Union([Type.String(), Type.Null()], { description: 'The next release on the virtual clock; null when steady.' }),
      },
      strict,
    ),
  },
  strict,
);

/** What POST /__mock/clock takes: how far or to when. */
export const ClockRequestSchema = Type.Object(
  {
    advance: Type.Optional(Type.String({ description: 'A duration: 90m, 24h, 15d or ISO 8601 (PT1H).' })),
    to: Type.Optional(Type.String({ description: 'An ISO 8601 time, not before the clock.' })),
  },
  { description: 'Exactly one of advance and to; at most 400 days at once; the clock only moves forward.' },
);

const ClockMoveSchema = Type.Object({ now: Type.String(), moved_ms: Type.Integer({ minimum: 0 }) }, strict);

/** The clock and the stepped move under way (GET /__mock/clock). */
export const ClockStateSchema = Type.Object(
  {
    now: Type.String(),
    frozen: Type.Boolean(),
    move: nullable(
      Type.Object(
        {
          from: Type.String(),
          to: Type.String(),
          days: Type.Integer({ minimum: 1, description: 'Virtual days the move covers (a part of a day counts as one).' }),
          days_done: Type.Integer({ minimum: 0, description: 'Days the world has been brought through so far.' }),
        },
        strict,
      ),
      'The move a POST is making, a virtual day at a time; null when none is.',
    ),
  },
  strict,
);

const ListingActionSchema = Type.Object(
  {
    listing_number: Type.Integer(),
    listing_status: Type.Integer(),
    listing_status_reason: Type.String(),
  },
  strict,
);

const Cleared = Type.Object({ cleared: Count }, strict);

const ADMIN = { kind: 'admin' } as const;
const TAGS = ['mock-admin'];
const at = (route: string): string => `${MOCK_ADMIN_PREFIX}/${route}`;
const badBody = codes('The body is not a JSON object, or a setting is bad (the message names it).', VALIDATION_ERROR);

/** The admin endpoints. */
export const ADMIN_ENDPOINTS: readonly Endpoint[] = [
  {
    method: 'get',
    path: at(''),
    operationId: 'mockDashboard',
    tags: TAGS,
    access: ADMIN,
    summary:
      'The dashboard: a page that shows the world, the clock (with buttons to move it), the orders, faults, the request log, the outbox and the snapshots',
    description:
      'Plain HTML that carries the state when served (each panel filled in) and an inline script that keeps it up to date from the admin routes of the same server; served with a Content-Security-Policy that runs only that script. /__mock without the slash is the same page.',
    answers: { 200: html('The dashboard.') },
  },
  {
    method: 'post',
    path: at('reset'),
    operationId: 'mockReset',
    tags: TAGS,
    access: ADMIN,
    summary: "Rebuild the world from the seed at the clock's current time",
    answers: { 200: json('The new state.', MockStateSchema) },
  },
  {
    method: 'get',
    path: at('state'),
    operationId: 'mockState',
    tags: TAGS,
    access: ADMIN,
    summary: 'Counts, balances, special listings and the invariant check',
    answers: { 200: json('The state.', MockStateSchema) },
  },
  {
    method: 'post',
    path: at('clock'),
    operationId: 'mockClock',
    tags: TAGS,
    access: ADMIN,
    summary: 'Move the virtual clock forward (the world follows: processing, origination, servicing)',
    description:
      'The world is moved a virtual day at a time and the answer comes when the whole move is made (GET shows its progress). '
      + 'Other requests are answered between the days, from the world and clock at the day reached; a reset or another move waits for it to end.',
    body: { schema: ClockRequestSchema, required: true },
    answers: { 200: json('Where the clock is now.', ClockMoveSchema), 400: badBody },
  },
  {
    method: 'get',
    path: at('clock'),
    operationId: 'mockClockState',
    tags: TAGS,
    access: ADMIN,
    summary: 'The virtual clock, and the move under way (days done of days) while a POST moves it',
    answers: { 200: json('The clock.', ClockStateSchema) },
  },
  {
    method: 'post',
    path: at('process'),
    operationId: 'mockProcess',
    tags: TAGS,
    access: ADMIN,
    summary: 'Process every queued order now',
    answers: { 200: json('How many were processed.', Type.Object({ processed: Count }, strict)) },
  },
  {
    method: 'get',
    path: at('faults'),
    operationId: 'mockFaults',
    tags: TAGS,
    access: ADMIN,
    summary: 'The injected faults',
    answers: { 200: json('The settings.', FaultsSchema) },
  },
  {
    method: 'post',
    path: at('faults'),
    operationId: 'mockSetFaults',
    tags: TAGS,
    access: ADMIN,
    summary: 'Inject faults into resource calls (latency, 500, 429, dropped connections or answers), optionally by path, method and count',
    body: { schema: FaultsRequestSchema, required: true },
    answers: { 200: json('The settings now in force.', FaultsSchema), 400: badBody },
  },
  {
    method: 'get',
    path: at('requests'),
    operationId: 'mockRequests',
    tags: TAGS,
    access: ADMIN,
    page: INSPECT_PAGE,
    summary: 'The request log: the last requests the mock answered, newest first, secrets redacted',
    parameters: [
      queryParam('since', { type: 'integer', minimum: 0 }, 'Only requests with a greater id (to follow the request log).'),
      queryParam(
        'violations',
        { type: 'boolean' },
        "true: only entries with violations (a proxy's request log, `mkt mock proxy`; the mock's own entries have none, so its list is empty).",
      ),
    ],
    answers: {
      200: json('A page of the request log.', listEnvelopeSchema(JournalEntrySchema)),
      400: codes('since, violations, offset or limit is bad.', VALIDATION_ERROR),
    },
  },
  {
    method: 'delete',
    path: at('requests'),
    operationId: 'mockClearRequests',
    tags: TAGS,
    access: ADMIN,
    summary: 'Empty the request log',
    answers: { 200: json('How many requests were cleared.', Cleared) },
  },
  {
    method: 'get',
    path: at('outbox'),
    operationId: 'mockOutbox',
    tags: TAGS,
    access: ADMIN,
    page: INSPECT_PAGE,
    summary: 'The notifications outbox: the emails the marketplace sent (order validation error, processed, completed), newest first',
    parameters: [
      queryParam('to', { type: 'string' }, 'Only messages to this address (any case).'),
      queryParam('order_id', { type: 'string' }, 'Only messages about this order.'),
    ],
    answers: { 200: json('A page of the outbox.', listEnvelopeSchema(OutboxMessageSchema)) },
  },
  {
    method: 'delete',
    path: at('outbox'),
    operationId: 'mockClearOutbox',
    tags: TAGS,
    access: ADMIN,
    summary: 'Empty the outbox',
    answers: { 200: json('How many messages were cleared.', Cleared) },
  },
  {
    method: 'get',
    path: at('webhooks'),
    operationId: 'mockWebhooks',
    tags: TAGS,
    access: ADMIN,
    page: WEBHOOK_PAGE,
    summary:
      "The webhook deliveries (mock serve --webhook; the mock's extension): each outbox event to each URL, its attempts and state, newest first",
    description:
      'Kept in memory: every pending delivery and the last ended ones; `counts` has every delivery since the mock started, per state. '
      + 'Past the queue bound of a URL the delivery waiting longest is dropped (state dropped, counted), never silently. '
      + 'An event made while the world was rebuilt (a --state replay, a snapshot brought forward) is never sent.',
    parameters: [queryParam('state', { type: 'string', enum: [...WEBHOOK_STATES] }, 'Only deliveries in this state.')],
    answers: {
      200: json('A page of deliveries, and the counts.', WebhookPageSchema),
      400: codes('state, offset or limit is bad.', VALIDATION_ERROR),
    },
  },
  {
    method: 'post',
    path: at('listings/{listing_number}/{action}'),
    operationId: 'mockListingAction',
    tags: TAGS,
    access: ADMIN,
    summary: 'The operator withdraws or cancels a listing (its bids expire, their amounts are credited)',
    parameters: [
      pathParam('listing_number', { type: 'integer' }, 'The listing.'),
      pathParam('action', { type: 'string', enum: ['withdraw', 'cancel'] }, 'withdraw (an active listing) or cancel (active or pending).'),
    ],
    answers: {
      200: json("The listing's new status.", ListingActionSchema),
      400: codes('The action is neither withdraw nor cancel.', VALIDATION_ERROR),
      404: codes('No such listing.', 'NOT_FOUND'),
      409: codes("The listing's status does not allow the action.", 'CONFLICT'),
    },
  },
  ADD_LISTING_ENDPOINT,
  ORDERS_ENDPOINT,
  ...SNAPSHOT_ENDPOINTS,
  ...RATE_LIMIT_ENDPOINTS,
];
