/**
 * Every endpoint of the spec (marketplace-api.md "Endpoints" and "Authentication"), one entry each,
 * plus the pages the mock serves behind offer links and its own document. The shared failures
 * (401/403 of a bearer route, 415 of a JSON body, 400 of a bad `timezone`, 413, 429 and 500 from
 * injected faults) are added by the builder (document.ts); an entry lists what is its own.
 */
import { Type } from '@sinclair/typebox';
import { NOTE_FIELDS } from '../note-fields.js';
import { LOAN_SORT_FIELDS, ORDER_LISTING_SORT_FIELDS, PAGINATION, READ_ONLY_SCOPES, READ_WRITE_SCOPES } from '../enums.js';
import { ORDER_ERRORS, VALIDATION_ERROR } from '../errors.js';
import {
  AccountSchema,
  ListingSchema,
  listEnvelopeSchema,
  LoanSchema,
  NoteSchema,
  OfferErrorAnswerSchema,
  OfferRequestSchema,
  OfferResponseSchema,
  OrderCreatedSchema,
  OrderListingSchema,
  OrderRequestSchema,
  OrderSchema,
  PaymentSchema,
  TokenSchema,
} from '../resources.js';
import { codes, html, json, oauth, pathParam, queryParam, redirect, sortByParam, type Endpoint } from './endpoint.js';
import { listingSearchParameters } from './listing-parameters.js';

/** The order errors answered with `status`. */
const orderCodes = (status: number): string[] => Object.keys(ORDER_ERRORS).filter((c) => ORDER_ERRORS[c]!.status === status);

const ORDER_READ = { kind: 'bearer', scopes: ['read_invest_order', 'write_invest_order'] } as const;
const REFERRAL_CODE = pathParam('referral_code', { type: 'string' }, 'The referral code of an offers response.');
const ORDER_ID = pathParam('order_id', { type: 'string' }, 'The order id (a UUID); anything else is ORD0002.');

/** The token endpoint's form (spec "POST {base_url}/security/oauth/token"). */
const TokenRequestSchema = Type.Object({
  grant_type: Type.String({
    enum: ['authorization_key', 'refresh_token', 'password'],
    description:
      'password is an extension outside the spec, taken only by a mock started with --allow-password-grant (as public clients of the real marketplace sign in).',
  }),
  client_id: Type.String(),
  client_secret: Type.String(),
  auth_key: Type.Optional(Type.String({ description: 'With grant_type=authorization_key.' })),
  refresh_token: Type.Optional(Type.String({ description: 'With grant_type=refresh_token.' })),
  username: Type.Optional(Type.String({ description: 'With grant_type=password: a seeded user (GET /__mock/state lists them).' })),
  password: Type.Optional(Type.String({ description: "With grant_type=password: the user's password (printed by mock serve)." })),
});

/** The consent form the page posts back (the mock's sign-in stand-in). */
const ConsentFormSchema = Type.Object({
  client_id: Type.String(),
  response_type: Type.Literal('auth_key'),
  state: Type.Optional(Type.String()),
  decision: Type.String({ enum: ['allow', 'cancel'] }),
  account: Type.Optional(Type.String({ description: 'The investor account the grant is for.' })),
  access: Type.Optional(Type.String({ enum: ['read_write', 'read_only'] })),
});

const AUTHORIZE_QUERY = [
  queryParam('client_id', { type: 'string' }, 'The registered client.'),
  queryParam('response_type', { type: 'string', enum: ['auth_key'] }, 'auth_key.'),
  queryParam('state', { type: 'string' }, 'Returned unchanged; should be non-guessable.'),
];

/** The marketplace API's endpoints. */
export const API_ENDPOINTS: readonly Endpoint[] = [
  {
    method: 'get',
    path: '/listingsvc/v2/listings/',
    operationId: 'searchListings',
    tags: ['listings'],
    zone: true,
    summary: 'Search active listings, or originated listings the caller invested in',
    description:
      'Under {root_url} (no v1 segment). Filters: boolean (field=true|false), multivalue (field=a,b,c), range (field_min, field_max); an unknown parameter or bad value is 400 VAL0001 naming it.',
    access: { kind: 'bearer', scopes: ['read_listing'] },
    parameters: listingSearchParameters(),
    page: PAGINATION.listings,
    answers: {
      200: json('A page of listings.', listEnvelopeSchema(ListingSchema)),
      400: codes('A parameter is unknown or its value bad.', VALIDATION_ERROR),
    },
  },
  {
    method: 'post',
    path: '/v1/orders/',
    operationId: 'submitOrder',
    tags: ['orders'],
    zone: true,
    summary: 'Submit an order of up to 100 bids (asynchronous)',
    description: 'Validated all-or-nothing; the first ORD error found is answered. The account is debited the order total at once.',
    access: { kind: 'bearer', scopes: ['write_invest_order'] },
    body: { schema: OrderRequestSchema, required: true },
    answers: {
      200: json('The order, IN_PROGRESS, every bid PENDING.', OrderCreatedSchema),
      400: codes('The order failed validation.', ...orderCodes(400), VALIDATION_ERROR),
      404: codes('A bid names a listing that does not exist.', 'ORD0003'),
      500: codes('The order could not be written.', ...orderCodes(500)),
    },
  },
  {
    method: 'get',
    path: '/v1/orders/',
    operationId: 'listOrders',
    tags: ['orders'],
    zone: true,
    summary: "The caller's orders",
    access: ORDER_READ,
    page: PAGINATION.orders,
    answers: {
      200: json('A page of orders, newest first.', listEnvelopeSchema(OrderSchema)),
      400: codes('offset or limit is bad.', VALIDATION_ERROR),
    },
  },
  {
    method: 'get',
    path: '/v1/orders/{order_id}',
    operationId: 'getOrder',
    tags: ['orders'],
    zone: true,
    summary: 'One order, with bid_status and bid_result of each bid',
    access: ORDER_READ,
    parameters: [ORDER_ID],
    answers: {
      200: json('The order.', OrderSchema),
      404: codes("Not an order id, or not one of the caller's orders.", 'ORD0001', 'ORD0002'),
    },
  },
  {
    method: 'get',
    path: '/v1/orders/{order_id}/listings',
    operationId: 'listOrderListings',
    tags: ['orders'],
    zone: true,
    summary: 'The listings within one order',
    access: ORDER_READ,
    page: PAGINATION.orderListings,
    parameters: [
      ORDER_ID,
      sortByParam(ORDER_LISTING_SORT_FIELDS, 'listing_number desc'),
      queryParam(
        'status',
        { type: 'string', enum: ['PENDING', 'INVESTED', 'EXPIRED'] },
        'Only listings with this status within the order (any case).',
      ),
    ],
    answers: {
      200: json('A page of order listings.', listEnvelopeSchema(OrderListingSchema)),
      400: codes('offset, limit, sort_by or status is bad.', VALIDATION_ERROR),
      404: codes("Not an order id, or not one of the caller's orders.", 'ORD0001', 'ORD0002'),
    },
  },
  {
    method: 'get',
    path: '/v1/loans/',
    operationId: 'listLoans',
    tags: ['loans'],
    zone: true,
    summary: 'The loans the caller holds notes in',
    access: { kind: 'bearer', scopes: ['read_loan'] },
    page: PAGINATION.loans,
    parameters: [sortByParam(LOAN_SORT_FIELDS, 'origination_date desc')],
    answers: {
      200: json('A page of loans.', listEnvelopeSchema(LoanSchema)),
      400: codes('offset, limit or sort_by is bad.', VALIDATION_ERROR),
    },
  },
  {
    // Before /v1/loans/{loan_id}: the answer check takes the first template that matches a path.
    method: 'get',
    path: '/v1/loans/payments',
    operationId: 'listPayments',
    tags: ['loans'],
    zone: true,
    summary: "The caller's share of each payment of the loans named",
    description:
      "One row per payment of a loan per note the caller holds in it, newest first; each amount is the note's share of the payment's, "
      + "and the rows of a note add up to its note's principal, interest and fees paid (service_fee_amount counts up: the note's "
      + 'service_fees_paid_pro_rata_share is its negative; nsf_fee_amount is its share of the failed-payment fees, platform_fees_paid). '
      + 'A loan the caller holds no note in gives no rows. The spec names the resource without showing it; the fields and their forms '
      + "(amounts as decimal strings, dates as yyyy-MM-ddTHH:mm:ss.SSS±hhmm in the timezone header's zone) are the real answer's, "
      + 'as a public client of the real marketplace publishes it (grahamtt/prosper-api tests/test_client.py).',
    access: { kind: 'bearer', scopes: ['read_loan'] },
    page: PAGINATION.payments,
    parameters: [
      {
        ...queryParam(
          'loan_number',
          { type: 'string', pattern: '^\\d{1,15}(,\\d{1,15})*$', examples: ['500123,500124'] },
          'Required: one loan number or several separated by commas (the parameter may also be repeated). Missing or not loan numbers: 400 VAL0001.',
        ),
        required: true,
      },
      queryParam(
        'transaction_effective_date',
        { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', examples: ['2026-01-31'] },
        "Only payments effective on or after this day (yyyy-MM-dd, read in the timezone header's zone, UTC by default). Another form: 400 VAL0001.",
      ),
    ],
    answers: {
      200: json('A page of payment rows.', listEnvelopeSchema(PaymentSchema)),
      400: codes('offset, limit, loan_number or transaction_effective_date is bad.', VALIDATION_ERROR),
    },
  },
  {
    method: 'get',
    path: '/v1/loans/{loan_id}',
    operationId: 'getLoan',
    tags: ['loans'],
    zone: true,
    summary: 'One loan the caller holds notes in',
    access: { kind: 'bearer', scopes: ['read_loan'] },
    parameters: [pathParam('loan_id', { type: 'integer', minimum: 0 }, 'The loan number.')],
    answers: {
      200: json('The loan.', LoanSchema),
      400: codes('loan_id is not a loan number.', VALIDATION_ERROR),
      404: codes('The caller holds no note in this loan (or it does not exist).', 'NOT_FOUND'),
    },
  },
  {
    method: 'get',
    path: '/v1/notes/',
    operationId: 'listNotes',
    tags: ['notes'],
    zone: true,
    summary: "The caller's notes: its share of each loan",
    description:
      "The spec names the notes resource without showing it; this is the real marketplace's shape, as its public clients model it.",
    access: { kind: 'bearer', scopes: ['read_note'] },
    page: PAGINATION.notes,
    parameters: [sortByParam(NOTE_FIELDS, 'origination_date desc')],
    answers: {
      200: json('A page of notes.', listEnvelopeSchema(NoteSchema)),
      400: codes('offset, limit or sort_by is bad.', VALIDATION_ERROR),
    },
  },
  {
    method: 'get',
    path: '/v1/notes/{loan_note_id}',
    operationId: 'getNote',
    tags: ['notes'],
    zone: true,
    summary: 'One note of the caller',
    access: { kind: 'bearer', scopes: ['read_note'] },
    parameters: [
      pathParam('loan_note_id', { type: 'string', pattern: '^\\d{1,15}-\\d{1,15}$' }, 'The loan number, a dash and the note number.'),
    ],
    answers: {
      200: json('The note.', NoteSchema),
      400: codes('Not a note id.', VALIDATION_ERROR),
      404: codes("No such note among the caller's.", 'NOT_FOUND'),
    },
  },
  {
    method: 'get',
    path: '/v1/accounts/platform',
    operationId: 'getAccount',
    tags: ['accounts'],
    zone: true,
    summary: "The investor's account summary",
    description:
      "The spec references it (external_user_id maps an auth key to an account) without showing its shape; this is the real marketplace's, as its public clients model it.",
    access: { kind: 'bearer', scopes: ['read_platform_account'] },
    answers: { 200: json('The account.', AccountSchema) },
  },
  {
    method: 'post',
    path: '/v1/marketplace/application/offers/',
    operationId: 'requestOffers',
    tags: ['offers'],
    zone: true,
    summary: 'Personalized loan offers for a borrower, through a partner',
    description:
      'Any live token; the partner_source_code in the body is what is checked. Validation and eligibility failures are answered in `errors` with HTTP 200.',
    access: { kind: 'bearer', scopes: [] },
    body: { schema: OfferRequestSchema, required: true },
    answers: {
      200: json('Offers, or the errors that kept them from being made.', OfferResponseSchema),
      400: json('The body is not a JSON object, or client_reference_id is bad.', OfferErrorAnswerSchema),
      401: json('MKTPL-1001 (partner code missing) or MKTPL-1004 (invalid or expired).', OfferErrorAnswerSchema),
    },
  },
  {
    method: 'get',
    path: '/oauth',
    operationId: 'authorize',
    tags: ['authorization'],
    summary: 'The browser-facing authorization endpoint ({auth_url}/oauth)',
    description:
      'Shows the consent page, or redirects at once to the registered URL with auth_key, state and scope when a grant exists (or the user cancelled: error_code=userCancellation and state).',
    access: { kind: 'open' },
    parameters: AUTHORIZE_QUERY,
    answers: {
      200: html('The consent page.'),
      302: redirect('Back to the registered redirect URL with auth_key, state and scope.'),
      400: html('response_type missing or not auth_key (an error page; never a redirect).'),
      401: html('Unknown client_id.'),
    },
  },
  {
    method: 'post',
    path: '/oauth',
    operationId: 'authorizeDecision',
    tags: ['authorization'],
    summary: "The consent page's form: allow (a new auth key) or cancel",
    access: { kind: 'open' },
    body: { schema: ConsentFormSchema, form: true, required: true },
    answers: {
      302: redirect('Back to the registered redirect URL: auth_key, state and scope; or error_code=userCancellation and state.'),
      400: html('A bad decision, account or access (an error page).'),
      401: html('Unknown client_id.'),
    },
  },
  {
    method: 'post',
    path: '/v1/security/oauth/token',
    operationId: 'token',
    tags: ['authorization'],
    summary: 'Exchange an auth key, or a refresh token, for tokens',
    access: { kind: 'open' },
    body: { schema: TokenRequestSchema, form: true, required: true },
    answers: {
      200: json('The tokens (a refresh returns the refresh token unchanged).', TokenSchema),
      400: oauth(
        'A bad request, auth key or refresh token.',
        'invalid_request',
        'invalid_authkey',
        'invalid_grant',
        'unsupported_grant_type',
      ),
      401: oauth('Bad client credentials, or a key or token of another client.', 'invalid_client', 'unauthorized'),
    },
  },
  {
    method: 'get',
    path: '/apply/offers/{referral_code}',
    operationId: 'offersPage',
    tags: ['offers'],
    summary: 'The page behind offers_url (a link for people)',
    access: { kind: 'open' },
    parameters: [REFERRAL_CODE],
    answers: { 200: html('Every offer of the response.'), 404: html('No such referral code.') },
  },
  {
    method: 'get',
    path: '/apply/offers/{referral_code}/{offer_id}',
    operationId: 'offerPage',
    tags: ['offers'],
    summary: 'The page behind one offer_url',
    access: { kind: 'open' },
    parameters: [REFERRAL_CODE, pathParam('offer_id', { type: 'string' }, 'The offer id.')],
    answers: { 200: html('The offer.'), 404: html('No such offer.') },
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openApiDocument',
    tags: ['mock'],
    summary: 'This document (OpenAPI 3.1)',
    access: { kind: 'open' },
    answers: { 200: json('The OpenAPI document of the API and the mock.', Type.Object({ openapi: Type.String() })) },
  },
];

/** Scope names and what they allow (spec "Authentication"). */
export const SCOPES: Readonly<Record<string, string>> = {
  read_user_profile: 'read profile',
  write_user_profile: 'read and write profile',
  read_platform_account: 'read account balance',
  read_invest_order: 'read investment orders',
  write_invest_order: 'read and write orders',
  read_loan: 'read loans',
  read_note: 'read notes',
  read_listing: 'read and search listings, read own listings',
};

/** The two grants' scope lists, for the security scheme's description. */
export const GRANTS = { read_write: READ_WRITE_SCOPES, read_only: READ_ONLY_SCOPES };
