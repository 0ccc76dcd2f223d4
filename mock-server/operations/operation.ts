/**
 * The world's operations: every change a request makes to the world that a --state folder's operation
 * log records and replays, as one discriminated union. Each carries what the change needs and no more
 * (the account and the order's body text, the admin action, the OAuth form), so that running it again
 * at its time, on the world as it was, makes the same change. What each answers is `OperationResult`
 * (by kind: `OperationResults`).
 */
import type { Engine } from '../engine/engine.js';
import type { Durability } from '../durability/durability.js';
import type { OAuthHost } from '../oauth/clients.js';
import type { TokenResponse } from '../oauth/grants.js';
import type { OffersHost } from '../offers/assess.js';
import type { Grant, Listing, Order } from '../world/world.js';

/** An operation on the world. */
export type Operation =
  /** POST /orders: the order in `body` (the request's text, validated by the operation) for `account`, processed `delayMs` later. */
  | { readonly kind: 'order'; readonly account: string; readonly body: string; readonly delayMs: number }
  /** POST /__mock/process: every queued order processed now. */
  | { readonly kind: 'process' }
  /** POST /__mock/listings/N/ACTION: listing `listing` withdrawn or cancelled (`action`, checked by the operation). */
  | { readonly kind: 'listing'; readonly listing: number; readonly action: string }
  /** POST /__mock/listings: a listing added with the fields in `fields` (the request's JSON, checked by the operation), the rest drawn. */
  | { readonly kind: 'add-listing'; readonly fields: unknown }
  /** DELETE /__mock/outbox: the outbox emptied. */
  | { readonly kind: 'outbox-clear' }
  /** The consent page's approval: a grant of `scopes` on `account` to `client`, with a fresh auth key. */
  | { readonly kind: 'grant'; readonly client: string; readonly account: string; readonly scopes: readonly string[] }
  /** POST /security/oauth/token: the token endpoint's grant for `form` (the request's urlencoded text). */
  | { readonly kind: 'token'; readonly form: string }
  /** POST /marketplace/application/offers: offers for `body` (the request's JSON), their links under `origin`. */
  | { readonly kind: 'offers'; readonly body: unknown; readonly origin: string };

/** The kinds of operation. */
export type OperationKind = Operation['kind'];

/** The operation of kind `K`. */
export type OperationOf<K extends OperationKind> = Extract<Operation, { kind: K }>;

/** What a listing's withdrawal or cancellation answers. */
export type ListingChange = Pick<Listing, 'listing_number' | 'listing_status' | 'listing_status_reason'>;

/** What each kind of operation answers (a kind missing here is a compile error where the operations are applied). */
export interface OperationResults {
  order: Order;
  process: number;
  listing: ListingChange;
  'add-listing': Listing;
  'outbox-clear': number;
  grant: Grant;
  token: TokenResponse;
  offers: Record<string, unknown>;
}

/** What `op` answers. */
export type OperationResult<O extends Operation> = OperationResults[O['kind']];

/**
 * What an operation reads and changes, and where it is kept (the mock's context is one): the world, clock and
 * options the services read (oauth/, offers/), the engine (its sync, order numbers and process delay), the
 * world's durability, and the outbox's emptying (the context tells the webhooks first).
 */
export interface OperationHost extends OAuthHost, OffersHost {
  readonly engine: Engine;
  readonly durability: Durability;
  clearOutbox(): number;
}
