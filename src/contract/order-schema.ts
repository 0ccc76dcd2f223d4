/**
 * Orders and bids, as POST /orders/ takes them and the order routes answer them (re-exported by
 * resources.ts, where the other resources are).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { BID_RESULTS, BID_STATUSES, ORDER_STATUSES, PLATFORM_RATINGS } from './enums.js';
import {
  nullable,
  stringIn,
  stringOf,
  strict,
  Money,
  Rate,
  Fraction,
  Int,
  Count,
  DateText,
  WIRE_DATES,
  type Open,
  type Loose,
  type DateSchemas,
  type DatesFor,
} from './schema-kit.js';

/** A bid as sent in POST /orders/. */
export const BidRequestSchema = Type.Object(
  {
    listing_id: Type.Integer({ minimum: 1 }),
    bid_amount: Type.Number({ exclusiveMinimum: 0 }),
  },
  strict,
);
export type BidRequest = Static<typeof BidRequestSchema>;

/** The body of POST /orders/: at most 100 bids, a listing at most once. */
export const OrderRequestSchema = Type.Object(
  {
    bid_requests: Type.Array(BidRequestSchema, { minItems: 1, maxItems: 100 }),
  },
  strict,
);

/** A bid of the create answer: always PENDING. */
export const BidCreatedSchema = Type.Object(
  {
    listing_id: Int,
    bid_amount: Money,
    bid_status: Type.Literal('PENDING'),
  },
  strict,
);

/** A bid as read back (GET /orders/{id}). */
export const BidReadSchema = Type.Object(
  {
    listing_id: Type.Union([Int, Type.String()], {
      description: 'A string in the spec, an integer in its sample payloads (and in this mock).',
    }),
    bid_amount: Money,
    bid_amount_placed: Money,
    bid_status: stringOf(BID_STATUSES),
    bid_result: stringIn(
      BID_RESULTS,
      "The spec names NONE, BID_SUCCEEDED, PARTIAL_BID_SUCCEEDED, LISTING_NOT_BIDDABLE and LENDER_NOT_ELIGIBLE_TO_BID; the rest are DESIGN.md's.",
    ),
  },
  strict,
);

/** The named fields of a bid as read back; the create answer carries listing_id, bid_amount and bid_status only. */
export type BidFields = Loose<Static<typeof BidReadSchema>, 'bid_amount_placed' | 'bid_result'>;
/** A bid as read back. */
export type Bid = BidFields & Open;

/** What an order is on both sides, dates as `dates` holds them. */
export const orderFieldsSchema = <DT extends TSchema, D extends TSchema>(dates: DateSchemas<DT, D>) =>
  Type.Object({
    order_id: Type.String({ format: 'uuid' }),
    order_date: dates.dateTime,
    order_status: stringOf(ORDER_STATUSES),
  });
/** What an order is on both sides; `D` is how its date is held. */
export type OrderFields<D extends number | string> = Static<
  ReturnType<typeof orderFieldsSchema<DatesFor<D>['dateTime'], DatesFor<D>['date']>>
>;

const WireOrderFields = orderFieldsSchema(WIRE_DATES).properties;
/** Deprecated yields: only for orders and listings with a start date through 2018-08-08. */
const DeprecatedOrderYields = {
  estimated_return: Type.Optional(Rate),
  estimated_loss: Type.Optional(Rate),
  effective_yield: Type.Optional(Rate),
};

/** The answer to POST /orders/: every bid PENDING, the order IN_PROGRESS. */
export const OrderCreatedSchema = Type.Object(
  {
    ...WireOrderFields,
    order_status: Type.Literal('IN_PROGRESS'),
    bid_requests: Type.Array(BidCreatedSchema),
    source: Type.String(),
    ...DeprecatedOrderYields,
  },
  strict,
);

/** An order as GET /orders/{id} and the items of GET /orders/ carry it. */
export const OrderSchema = Type.Object(
  {
    ...WireOrderFields,
    order_amount: Money,
    order_amount_placed: Money,
    order_amount_invested: Money,
    bid_requests: Type.Array(BidReadSchema),
    saved_search: Type.Optional(
      Type.Object(
        { id: Type.Optional(Type.Unknown()), name: Type.Optional(Type.String()) },
        { description: 'Left out when the order came from no saved search (always, in the mock).' },
      ),
    ),
    source: Type.String(),
    ...DeprecatedOrderYields,
  },
  strict,
);

/** The named fields of an order as the API returns it (sums absent on the create answer). */
export type OrderAnswerFields = Loose<
  Omit<Static<typeof OrderSchema>, 'bid_requests' | 'saved_search'>,
  'order_amount' | 'order_amount_placed' | 'order_amount_invested' | 'source'
> & {
  bid_requests: Bid[];
  saved_search?: unknown;
};
/** An order as POST /orders/, GET /orders/{id} and GET /orders/ return it. */
export type Order = OrderAnswerFields & Open;

/** One listing of an order (GET /orders/{id}/listings). */
export const OrderListingSchema = Type.Object(
  {
    listing_number: Type.String({ pattern: '^\\d+$' }),
    listing_title: Type.String(),
    invested_amount: Money,
    listing_amount: Money,
    loan_term_months: Type.Integer({ minimum: 1 }),
    current_yield: Rate,
    amount_funded: Money,
    platform_rating: stringIn(PLATFORM_RATINGS),
    verification_stage: Type.Integer({ minimum: 1, maximum: 3, description: 'Three verification stages.' }),
    percent_funded: Fraction,
    historical_return: Rate,
    historical_return_10th_pctl: Rate,
    historical_return_90th_pctl: Rate,
    listing_duration: Count,
    status: stringOf(BID_STATUSES),
    status_reason: Type.String(),
    listing_status_reason: Type.String(),
    estimated_end_date: DateText,
    listing_status: Int,
    start_date: DateText,
    note_number: nullable(Type.String()),
    listing_category_id: Int,
    listing_category_name: nullable(Type.String()),
    effective_yield: Type.Optional(Rate),
    estimated_loss: Type.Optional(Rate),
    estimated_return: Type.Optional(Rate),
  },
  strict,
);
/** The named fields of an order listing. */
export type OrderListingFields = Static<typeof OrderListingSchema>;
/** One listing of an order (GET /orders/{id}/listings). */
export type OrderListing = OrderListingFields & Open;
