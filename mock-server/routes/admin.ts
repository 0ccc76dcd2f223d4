/**
 * Admin routes of the mock (who may call them: admin-access.ts; off with --no-admin): reset, the clock and its move under way, processing,
 * faults, the rate limits' throttle, operator actions on a listing, listings added with chosen fields, and a look at the state with the invariant check.
 */
import { formatDateTime } from '../../src/contract/dates.js';
import { parseDuration } from '../../src/contract/duration.js';
import { nextRelease, RELEASE_ZONE, releaseTimeText } from '../../src/contract/releases.js';
import { validationError } from '../kit/api-error.js';
import type { MockContext } from '../context.js';
import { checkInvariants } from '../audit/invariants.js';
import { allBalances } from '../engine/ledger.js';
import { MOVE_STEP_MS } from '../engine/engine.js';
import { accountOutstanding } from '../views/account-view.js';
import { cents } from '../kit/money.js';
import { specialListing, type SpecialRole } from '../seed/seed-extras.js';
import { userPassword } from '../oauth/passwords.js';
import { listingView } from '../search/listing-view.js';
import { http, JsonText, route, type RequestHead } from '../route-helper/route.js';
import { RATE_GROUPS, MAX_RATE_LIMIT, type RateLimitSetting } from '../http/rate-limit.js';

/** The most one clock move may cover (each virtual hour is one market tick). */
export const MAX_CLOCK_MOVE_MS = 400 * 86_400_000;
const ISO_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2}))?$/;
const NO_PARTICIPATION: ReadonlyMap<number, number> = new Map();
const NO_BUREAUS = { bureau1: false, bureau2: false };
const ROLES: readonly SpecialRole[] = ['restricted', 'not_started', 'type_unset', 'young_partial'];

/** Counts, balances, special listings and the invariant check: what a test or a curious user wants to see. */
export function stateSummary(ctx: MockContext): Record<string, unknown> {
  const s = ctx.world;
  const listingsByStatus: Record<string, number> = {};
  for (const l of s.listings) listingsByStatus[l.listing_status] = (listingsByStatus[l.listing_status] ?? 0) + 1;
  const balances = allBalances(s);
  const now = ctx.clock.now();
  // Invested and total as the account answer has them: its notes' outstanding principal as GET /notes shows it.
  const accounts = [...s.accounts.values()].map((a) => {
    const b = balances.get(a.id)!;
    const invested = accountOutstanding(s, a.id);
    return {
      account_id: a.id,
      user: a.userId,
      external_user_id: a.externalUserId,
      cash: a.cash,
      pending: b.pending,
      invested,
      total: cents(a.cash + b.pending + invested),
    };
  });
  // Each user's password beside their name: what the password grant (--allow-password-grant) takes.
  const users = [...s.users.values()].map((u) => ({
    user: u.id,
    name: u.name,
    password: userPassword(s.seed, u.id),
    accounts: u.accountIds,
    email: u.email ?? null,
    notifications: u.email !== undefined,
  }));
  const special: Record<string, number | null> = {
    own_listing_of_dave: s.listings.find((l) => l.borrowerUserId === 'dave')?.listing_number ?? null,
  };
  for (const r of ROLES) special[r] = specialListing(s, r)?.listing_number ?? null;
  const ordersByStatus: Record<string, number> = {};
  for (const o of s.orders.values()) ordersByStatus[o.order_status] = (ordersByStatus[o.order_status] ?? 0) + 1;
  return {
    now: formatDateTime(ctx.clock.now()),
    frozen: ctx.clock.frozen,
    seed: s.seed,
    listings: s.listings.length,
    listings_by_status: listingsByStatus,
    orders: s.orders.size,
    orders_by_status: ordersByStatus,
    orders_queued: s.engine.queue.length,
    loans: s.loans.size,
    notes: s.notes.length,
    ledger_entries: s.ledger.length,
    users,
    password_grant: !!ctx.options.allowPasswordGrant,
    accounts,
    // Every seeded investor is registered for the order notifications (GET /__mock/outbox).
    outbox_messages: s.outbox.messages.length,
    special_listings: special,
    invariants: checkInvariants(s),
    faults: ctx.faults.get(),
    rate_limit: ctx.rateLimit.get(),
    // When new listings arrive (--releases): the times in the marketplace's zone and the next one, or every hour.
    releases: s.engine.releases
      ? { zone: RELEASE_ZONE, times: s.engine.releases.map(releaseTimeText), next: formatDateTime(nextRelease(now, s.engine.releases)!) }
      : { zone: RELEASE_ZONE, times: 'steady', next: null },
  };
}

/** The throttle's setting a POST /__mock/rate-limit asks for, over the one in force; throws a 400 naming what is wrong (nothing changed). */
export function rateLimitSetting(body: Record<string, unknown>, current: RateLimitSetting): RateLimitSetting {
  for (const k of Object.keys(body))
    if (k !== 'enabled' && k !== 'limits') throw validationError(k, 'unknown setting; known: enabled, limits');
  if (body.enabled !== undefined && typeof body.enabled !== 'boolean') throw validationError('enabled', 'must be true or false');
  const limits = { ...current.limits };
  if (body.limits !== undefined) {
    const given = body.limits;
    if (given === null || typeof given !== 'object' || Array.isArray(given))
      throw validationError('limits', 'must be an object of GROUP: N');
    for (const [group, n] of Object.entries(given)) {
      if (!(RATE_GROUPS as readonly string[]).includes(group))
        throw validationError(`limits.${group}`, `unknown group; groups: ${RATE_GROUPS.join(', ')}`);
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1 || n > MAX_RATE_LIMIT)
        throw validationError(`limits.${group}`, `must be a whole number of requests a second from 1 to ${MAX_RATE_LIMIT}`);
      limits[group as keyof typeof limits] = n;
    }
  }
  // Limits given alone turn the throttle on: asking for a limit is asking to be held to it.
  const enabled = typeof body.enabled === 'boolean' ? body.enabled : body.limits !== undefined ? true : current.enabled;
  return { enabled, limits };
}

/** The clock, and the move under way if any (GET /__mock/clock: what `mkt mock clock advance` shows as it waits). */
export function clockState(ctx: MockContext): Record<string, unknown> {
  const m = ctx.engine.moving;
  const move = m && {
    from: formatDateTime(m.from),
    to: formatDateTime(m.to),
    days: Math.ceil((m.to - m.from) / MOVE_STEP_MS),
    days_done: Math.ceil((m.at - m.from) / MOVE_STEP_MS),
  };
  return { now: formatDateTime(ctx.clock.now()), frozen: ctx.clock.frozen, move };
}

/** The body of an admin request as a JSON object ({} when empty); a 400 naming what is wrong otherwise. */
export async function jsonBody(request: RequestHead): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw validationError('body', 'is not valid JSON');
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw validationError('body', 'must be a JSON object');
  return v as Record<string, unknown>;
}

/** Where a clock request moves the clock to; throws a 400 naming what is wrong. */
export function clockTarget(body: Record<string, unknown>, now: number): number {
  const hasAdvance = body.advance !== undefined;
  const hasTo = body.to !== undefined;
  if (hasAdvance === hasTo) throw validationError('body', 'give exactly one of "advance" (a duration like 24h) or "to" (an ISO time)');
  let target: number;
  if (hasAdvance) {
    const ms = typeof body.advance === 'string' ? parseDuration(body.advance) : null;
    if (ms === null) throw validationError('advance', `must be a duration like 90m, 24h, 15d or PT1H, got ${JSON.stringify(body.advance)}`);
    target = now + ms;
  } else {
    const t = typeof body.to === 'string' && ISO_RE.test(body.to.trim()) ? Date.parse(body.to.trim()) : NaN;
    if (!Number.isFinite(t))
      throw validationError('to', `must be an ISO 8601 time like 2026-01-31T12:00:00Z, got ${JSON.stringify(body.to)}`);
    if (t < now) throw validationError('to', `is before the mock's current time ${formatDateTime(now)}; the clock only moves forward`);
    target = t;
  }
  if (target - now > MAX_CLOCK_MOVE_MS) throw validationError(hasAdvance ? 'advance' : 'to', 'moves the clock more than 400 days at once');
  return target;
}

/** The admin handlers. */
export function adminHandlers(ctx: MockContext) {
  return [
    http.post(
      '*/__mock/reset',
      route(ctx, async () => {
        // A new world replaces the one a clock move is stepping through only once that move has ended.
        await ctx.engine.afterMove(() => ctx.reset());
        return stateSummary(ctx);
      }),
    ),
    http.get(
      '*/__mock/state',
      route(ctx, () => stateSummary(ctx), { sync: true }),
    ),
    http.post(
      '*/__mock/clock',
      route(
        ctx,
        async ({ request }) => {
          const body = await jsonBody(request);
          // A day at a time (Engine.moveClock): other requests are answered between the days; the world is at `to` when this answers.
          const { from, to } = await ctx.engine.moveClock((now) => clockTarget(body, now));
          return { now: formatDateTime(to), moved_ms: to - from };
        },
        { json: true, sync: true },
      ),
    ),
    http.get(
      '*/__mock/clock',
      route(ctx, () => clockState(ctx), { sync: true }),
    ),
    http.post(
      '*/__mock/process',
      route(ctx, () => ({ processed: ctx.perform({ kind: 'process' }) })),
    ),
    http.get(
      '*/__mock/faults',
      route(ctx, () => ctx.faults.get()),
    ),
    http.post(
      '*/__mock/faults',
      route(ctx, async ({ request }) => ctx.faults.set(await jsonBody(request)), { json: true }),
    ),
    http.get(
      '*/__mock/rate-limit',
      route(ctx, () => ctx.rateLimit.get()),
    ),
    http.post(
      '*/__mock/rate-limit',
      route(ctx, async ({ request }) => ctx.rateLimit.set(rateLimitSetting(await jsonBody(request), ctx.rateLimit.get())), { json: true }),
    ),
    // The operation syncs the world itself (operations/perform.ts). The answer is the listing as the search shows it to a caller
    // who has not bid on it (no bureau objects asked for): what a test then finds in GET /listings, field for field.
    http.post(
      '*/__mock/listings',
      route(
        ctx,
        async ({ request, zone }) => {
          const fields = await jsonBody(request);
          const l = ctx.perform({ kind: 'add-listing', fields });
          const view = listingView(l, { zone, participation: NO_PARTICIPATION, bureaus: NO_BUREAUS, showLoanFields: false });
          return new JsonText(JSON.stringify(view), 201);
        },
        { json: true },
      ),
    ),
    http.post(
      '*/__mock/listings/:number/:action',
      route(ctx, ({ params }) => ctx.perform({ kind: 'listing', listing: Number(params.number), action: String(params.action) })),
    ),
  ];
}
