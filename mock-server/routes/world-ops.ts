/**
 * The operations that change the world, as the operation log records and replays them
 * (engine/op-journal.ts): each route that writes runs its change through `ctx.engine.perform(kind,
 * input)`, and the same function replays it from the log at its time. The input is what the change
 * needs, and no more: the account and the order's body text, the admin action, the OAuth form.
 */
import { LISTING_STATUS } from '../../src/contract/enums.js';
import { ApiError, validationError } from '../kit/api-error.js';
import type { MockContext } from '../context.js';
import { DEFAULT_PROCESS_DELAY_MS } from '../engine/engine.js';
import { endListing } from '../engine/lifecycle.js';
import type { OpRecord } from '../durability/operation-log.js';
import { approveGrant, tokenGrant } from '../oauth/grants.js';
import { answerOffersRequest } from '../offers/assess.js';
import type { Grant, Order } from '../world/store.js';
import type { TokenResponse } from '../oauth/grants.js';

const str = (r: OpRecord, field: string): string => String(r[field]);

/** Defines every operation on `ctx.engine` (before the log is replayed). */
export function defineWorldOps(ctx: MockContext): void {
  const { engine } = ctx;
  engine.defineOp('order', (r) => {
    const account = ctx.store.accounts.get(str(r, 'a'));
    if (!account) throw new Error(`no account ${str(r, 'a')}`);
    return engine.submit(account, str(r, 'b'), typeof r.d === 'number' ? r.d : DEFAULT_PROCESS_DELAY_MS);
  });
  engine.defineOp('process', () => engine.processAll());
  engine.defineOp('listing', (r) => changeListing(ctx, Number(r.n), str(r, 'action')));
  // The op's own sync may have just written messages: the context lets their readers (webhooks) see them before they go.
  engine.defineOp('outbox-clear', () => ctx.clearOutbox());
  engine.defineOp('grant', (r, secrets) => approveGrant(ctx, str(r, 'c'), str(r, 'a'), (r.sc as string[]).map(String), secrets));
  engine.defineOp('token', (r, secrets) => tokenGrant(ctx, new URLSearchParams(str(r, 'f')), secrets));
  engine.defineOp('offers', (r) => answerOffersRequest(ctx, r.b, str(r, 'o')));
}

/** Accepts the order in `text` for `accountId` (POST /orders), logged. */
export const submitOrder = (ctx: MockContext, accountId: string, text: string): Order => {
  const d = ctx.engine.processDelayMs;
  return ctx.engine.perform<Order>('order', { a: accountId, b: text, ...(d !== DEFAULT_PROCESS_DELAY_MS ? { d } : {}) });
};

/** Approves a grant (the consent page), logged. */
export const performGrant = (ctx: MockContext, clientId: string, accountId: string, scopes: string[]): Grant =>
  ctx.engine.perform<Grant>('grant', { c: clientId, a: accountId, sc: scopes });

/** The token endpoint's grant, logged. */
export const performToken = (ctx: MockContext, form: string): TokenResponse => ctx.engine.perform<TokenResponse>('token', { f: form });

/** An offers request, logged with the origin its links name. */
export const performOffers = (ctx: MockContext, body: unknown, origin: string): Record<string, unknown> =>
  ctx.engine.perform<Record<string, unknown>>('offers', { b: body, o: origin });

/** Withdraws or cancels a listing (POST /__mock/listings/N/ACTION). */
export function changeListing(ctx: MockContext, number: number, action: string) {
  const status = action === 'withdraw' ? LISTING_STATUS.WITHDRAWN : action === 'cancel' ? LISTING_STATUS.CANCELLED : null;
  if (status === null) throw validationError('action', `must be withdraw or cancel, got '${action}'`);
  const l = ctx.store.listingByNumber.get(number);
  if (!l) throw new ApiError(404, { code: 'NOT_FOUND', message: `No listing ${String(number)}` });
  const allowed = action === 'withdraw' ? [LISTING_STATUS.ACTIVE] : [LISTING_STATUS.ACTIVE, LISTING_STATUS.PENDING];
  if (!(allowed as number[]).includes(l.listing_status)) {
    throw new ApiError(409, { code: 'CONFLICT', message: `Listing ${l.listing_number} is ${l.listing_status_reason}; cannot ${action} it` });
  }
  endListing(ctx.store, l, status, ctx.clock.now());
  return { listing_number: l.listing_number, listing_status: l.listing_status, listing_status_reason: l.listing_status_reason };
}
