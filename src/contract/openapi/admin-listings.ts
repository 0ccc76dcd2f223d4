/**
 * The mock's admin route that adds a listing with chosen fields (POST /__mock/listings, mock-server/routes/admin.ts;
 * the fields are read in mock-server/engine/chosen-fields.ts and fitted together in added-listing.ts).
 */
import { Type } from '@sinclair/typebox';
import { VALIDATION_ERROR } from '../errors.js';
import { MOCK_ADMIN_PREFIX } from '../mock-admin.js';
import { IndexedBureau2Schema, ListingSchema, WireListingFields } from '../resources.js';
import { codes, json, type Endpoint } from './endpoint.js';

/** Fields of the answer a caller never chooses: the mock keeps them (origination, the last change, each caller's own). */
const NOT_CHOSEN = ['loan_number', 'loan_origination_date', 'last_updated_date'] as const;
type NotChosen = (typeof NOT_CHOSEN)[number];
const chosenFields = Object.fromEntries(
  Object.entries(WireListingFields).filter(([k]) => !(NOT_CHOSEN as readonly string[]).includes(k)),
) as Omit<typeof WireListingFields, NotChosen>;

/** What POST /__mock/listings takes: any of a listing's fields, as the search answers them. */
export const AddListingRequestSchema = Type.Partial(
  Type.Object(
    {
      ...chosenFields,
      credit_bureau_values_bureau2_indexed: Type.Partial(IndexedBureau2Schema),
    },
    { additionalProperties: false },
  ),
  {
    description:
      'Any of the fields of a listing as GET /listings answers it; the others are drawn as the seed draws a listing. '
      + 'The listing starts as one arriving now: active, created and started now, fractional, unfunded, at verification stage 1. '
      + 'listing_number defaults to the next free number; dates are read as the API writes them (ISO 8601 too). '
      + 'Checked together: a borrower_rate (or lender_yield, the rate less 0.01) inside its platform_rating band (the rate alone picks the rating), '
      + 'a stated_monthly_income inside its income_range, employment Not employed exactly with income_range 7, listing_amount 2000 to 35000, '
      + 'amount_funded or amount_remaining within it, an active listing started less than 14 days ago; listing_status 8 (Pending) or 6 '
      + '(Completed: originated now, a loan with no notes) needs verification stage 3 and full funding (70% with partial funding). '
      + 'Fields worked out from others (listing_status_reason, percent_funded, listing_monthly_payment, lender_yield, the descriptions and titles, '
      + 'listing_end_date, the deprecated yields, decision_bureau) are taken only when they agree.',
  },
);

/** The endpoint. */
export const ADD_LISTING_ENDPOINT: Endpoint = {
  method: 'post',
  path: `${MOCK_ADMIN_PREFIX}/listings`,
  operationId: 'mockAddListing',
  tags: ['mock-admin'],
  access: { kind: 'admin' },
  summary: 'Add a listing with chosen fields (the rest drawn as the seed draws them); it then lives as any other listing',
  body: { schema: AddListingRequestSchema, required: true },
  answers: {
    201: json('The listing as the search shows it to a caller who has not bid on it (no bureau objects asked for).', ListingSchema),
    400: codes(
      'The body is not a JSON object, or a field is unknown, of the wrong type or does not fit the others (the message names it); nothing is added.',
      VALIDATION_ERROR,
    ),
  },
};
