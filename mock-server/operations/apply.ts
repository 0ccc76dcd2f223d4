/**
 * What each operation does to the world: one function per kind, the same code live (perform.ts) and
 * replayed from the operation log. Each runs with the clock held at the operation's instant and the
 * world already synced to it (perform does both, once), and draws any secret from the `Secrets` it is
 * handed. None syncs the world again, and none keeps anything outside the world it is given.
 */
import { LISTING_STATUS } from '../../src/contract/enums.js';
import { ApiError, validationError } from '../kit/api-error.js';
import type { Secrets } from '../kit/entropy.js';
import { addChosenListing } from '../engine/added-listing.js';
import { endListing } from '../engine/lifecycle.js';
import { processQueued, submitOrder } from '../engine/orders.js';
import { approveGrant, tokenGrant } from '../oauth/grants.js';
import { answerOffersRequest } from '../offers/assess.js';
import type {
  ListingChange,
  Operation,
  OperationHost,
  OperationKind,
  OperationOf,
  OperationResult,
  OperationResults,
} from './operation.js';

/** How operations of kind `K` are applied. */
type Apply<K extends OperationKind> = (host: OperationHost, op: OperationOf<K>, secrets: Secrets) => OperationResults[K];

/** Every kind's apply (a kind missing here is a compile error). */
const APPLY: { readonly [K in OperationKind]: Apply<K> } = {
  order: (host, op) => {
    const account = host.world.accounts.get(op.account);
    if (!account) throw new Error(`no account ${op.account}`);
    const now = host.clock.now();
    return submitOrder(host.world, account, op.body, now, now + op.delayMs, host.engine.numbering);
  },
  process: (host) => processQueued(host.world, host.clock.now()),
  listing: (host, op) => changeListing(host, op.listing, op.action),
  'add-listing': (host, op) => addChosenListing(host.world, op.fields, host.clock.now()),
  // The operation's own sync may have just written messages: the context lets their readers (webhooks) see them before they go.
  'outbox-clear': (host) => host.clearOutbox(),
  grant: (host, op, secrets) => approveGrant(host, op.client, op.account, op.scopes, secrets),
  token: (host, op, secrets) => tokenGrant(host, new URLSearchParams(op.form), secrets),
  offers: (host, op) => answerOffersRequest(host, op.body, op.origin),
};

/** Applies `op` to the world of `host` (its clock held and the world synced by the caller); returns what it answers or throws its error. */
export function applyOperation<O extends Operation>(host: OperationHost, op: O, secrets: Secrets): OperationResult<O> {
  // The table is keyed by the kind, so APPLY[op.kind] takes this very op: one cast where TS cannot follow the pairing.
  const apply = APPLY[op.kind] as unknown as (host: OperationHost, op: O, secrets: Secrets) => OperationResult<O>;
  return apply(host, op, secrets);
}

/** Withdraws or cancels a listing (POST /__mock/listings/N/ACTION): 400 for another action, 404 for no such listing, 409 when its status forbids it. */
function changeListing(host: OperationHost, number: number, action: string): ListingChange {
  const status = action === 'withdraw' ? LISTING_STATUS.WITHDRAWN : action === 'cancel' ? LISTING_STATUS.CANCELLED : null;
  if (status === null) throw validationError('action', `must be withdraw or cancel, got '${action}'`);
  const l = host.world.listingByNumber.get(number);
  if (!l) throw new ApiError(404, { code: 'NOT_FOUND', message: `No listing ${String(number)}` });
  const allowed = action === 'withdraw' ? [LISTING_STATUS.ACTIVE] : [LISTING_STATUS.ACTIVE, LISTING_STATUS.PENDING];
  if (!(allowed as number[]).includes(l.listing_status)) {
    throw new ApiError(409, {
      code: 'CONFLICT',
      message: `Listing ${l.listing_number} is ${l.listing_status_reason}; cannot ${action} it`,
    });
  }
  endListing(host.world, l, status, host.clock.now());
  return { listing_number: l.listing_number, listing_status: l.listing_status, listing_status_reason: l.listing_status_reason };
}
