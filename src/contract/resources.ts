/**
 * The marketplace's resources, defined once as JSON Schemas (TypeBox) for both halves and for the
 * OpenAPI document (openapi/): the TS types below are derived from the schemas with `Static`, never
 * written twice. The typed client decodes answers into the wire types (dates as the API formats
 * them), and the mock answers with them and keeps its records on the shared field sets built by the
 * same factories with dates as epoch ms on its clock.
 *
 * Only the mock and the document load this module as a value; everything else imports it with
 * `import type`, so the CLI never loads TypeBox for commands that do not print the document.
 *
 * The building blocks are in schema-kit.ts, the listing in listing-schema.ts, the orders and bids in
 * order-schema.ts, the offers in offer-schema.ts (all re-exported here).
 * To add a field: add it to the resource's schema (Optional when the API may leave it out,
 * `nullable` when it may be null); the TS type follows. A resource: a schema here, named in
 * `COMPONENTS` of openapi/document.ts. An endpoint: one entry in openapi/endpoints.ts.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  ACCOUNT_RATING_KEYS,
  LOAN_DEFAULT_REASONS,
  LOAN_EXTENSION_STATUSES,
  LOAN_SETTLEMENT_STATUSES,
  LOAN_STATUSES,
  PAYMENT_CASHFLOW_TYPES,
  PAYMENT_STATUSES,
  PAYMENT_TRANSACTION_CODES,
  PLATFORM_RATINGS,
  type AccountRatingKey,
} from './enums.js';
import {
  nullable,
  stringIn,
  codeIn,
  stringOf,
  strict,
  Money,
  Rate,
  Int,
  Count,
  DateTimeText,
  WIRE_DATES,
  type Open,
  type Loose,
  type DateSchemas,
  type DatesFor,
} from './schema-kit.js';
import { OfferErrorSchema } from './offer-schema.js';

export * from './schema-kit.js';
export * from './listing-schema.js';
export * from './offer-schema.js';
export * from './order-schema.js';

// ---------------------------------------------------------------------------------------------
// Loans

/** What a loan is on both sides, dates as `dates` holds them. */
export const loanFieldsSchema = <DT extends TSchema, D extends TSchema>(dates: DateSchemas<DT, D>) =>
  Type.Object({
    loan_number: Int,
    amount_borrowed: Money,
    borrower_rate: Rate,
    term: Type.Integer({ minimum: 1 }),
    platform_rating: stringIn(PLATFORM_RATINGS),
    origination_date: dates.date,
    loan_status: codeIn(LOAN_STATUSES),
    loan_default_reason: nullable(codeIn(LOAN_DEFAULT_REASONS)),
    days_past_due: Count,
    principal_balance: Money,
    principal_paid: Money,
    interest_paid: Money,
    late_fees_paid: Money,
    platform_fees_paid: Money,
    service_fees_paid: Type.Number({ description: 'May be negative.' }),
    collection_fees_paid: Money,
    debt_sale_proceeds_received: Money,
    // Always a date (the spec types it so): an ended loan keeps the last due date its schedule reached.
    next_payment_due_date: dates.date,
    next_payment_due_amount: Money,
  });
/** What a loan is on both sides; `D` is how a date is held. */
export type LoanFields<D extends number | string> = Static<
  ReturnType<typeof loanFieldsSchema<DatesFor<D>['dateTime'], DatesFor<D>['date']>>
>;

/** A loan as GET /loans/ and GET /loans/{id} return it. */
export const LoanSchema = Type.Object(
  {
    ...loanFieldsSchema(WIRE_DATES).properties,
    age_in_months: Count,
    loan_default_reason_description: Type.Optional(nullable(stringIn(Object.values(LOAN_DEFAULT_REASONS)))), // not in the real answer (prosper-api `test_list_loans`)
    loan_status_description: nullable(stringIn(Object.values(LOAN_STATUSES))),
    group_leader_award: Type.Optional(
      Type.Integer({ description: 'Deprecated; only on loans of listings that started through 2018-08-08.' }),
    ),
  },
  strict,
);
/** The named fields of a loan as the mock answers it (loan_default_reason_description always). */
export type LoanAnswerFields = Static<typeof LoanSchema> & Required<Pick<Static<typeof LoanSchema>, 'loan_default_reason_description'>>;
/** A loan as GET /loans/ and GET /loans/{id} return it. */
export type Loan = LoanAnswerFields & Open;

// ---------------------------------------------------------------------------------------------
// Notes

/**
 * The caller's share of one loan (GET /notes/ and GET /notes/{loan_note_id}), as the real marketplace's
 * notes resource names its fields (the public clients model them). Every `_pro_rata_share` is the note's
 * ownership fraction of the loan's figure, to the cent; the shares of all holders of a loan add up to the
 * loan's figures. Status, dates and rates are the loan's own, typed as the loan types them.
 */
export const noteFieldsSchema = <DT extends TSchema, D extends TSchema>(dates: DateSchemas<DT, D>) =>
  Type.Object({
    loan_note_id: Type.String({ description: "`{loan_number}-{n}`: the loan and the note's number on it." }),
    loan_number: Int,
    listing_number: Int,
    note_ownership_amount: Money,
    principal_balance_pro_rata_share: Money,
    principal_paid_pro_rata_share: Money,
    interest_paid_pro_rata_share: Money,
    service_fees_paid_pro_rata_share: Type.Number({ description: 'May be negative.' }),
    platform_fees_paid_pro_rata_share: Money,
    late_fees_paid_pro_rata_share: Money,
    collection_fees_paid_pro_rata_share: Money,
    debt_sale_proceeds_received_pro_rata_share: Money,
    next_payment_due_amount_pro_rata_share: Money,
    next_payment_due_date: dates.date,
    note_status: codeIn(LOAN_STATUSES, "The loan's status code (as loan_status)."),
    note_status_description: nullable(stringIn(Object.values(LOAN_STATUSES))),
    note_default_reason: nullable(codeIn(LOAN_DEFAULT_REASONS)),
    note_default_reason_description: nullable(stringIn(Object.values(LOAN_DEFAULT_REASONS))),
    platform_rating: stringIn(PLATFORM_RATINGS),
    term: Type.Integer({ minimum: 1 }),
    borrower_rate: Rate,
    lender_yield: Rate,
    amount_borrowed: Money,
    age_in_months: Count,
    days_past_due: Count,
    origination_date: dates.date,
    ownership_start_date: dates.date,
    ownership_end_date: nullable(dates.date, 'Null while the note is held (the mock has no secondary market, so always).'),
    is_sold: Type.Boolean(),
    is_sold_folio: Type.Boolean(),
    note_sale_gross_amount_received: Money,
    note_sale_fees_paid: Money,
    is_in_bankruptcy: Type.Boolean({ description: 'True when the loan defaulted for bankruptcy (loan_default_reason 2).' }),
    co_borrower_application: Type.Boolean(),
  });
/** A note's fields; `D` is how a date is held. */
export type NoteFields<D extends number | string> = Static<
  ReturnType<typeof noteFieldsSchema<DatesFor<D>['dateTime'], DatesFor<D>['date']>>
>;

/**
 * The fields of the real note answer that the mock works out when it answers (from the loan and the note's
 * shares) and that no command relies on: grahamtt/prosper-api tests/test_client.py `test_list_notes` and its
 * `Note` model, which requires them.
 */
const noteAnswerOnlyFields = {
  platform_proceeds_net_received: Type.Number({
    description:
      'What the platform itself paid the note, net (the real answer carries 0.0; the mock has no repurchases or loan sales, so always 0).',
  }),
  accrued_interest: Type.Number({
    minimum: 0,
    description:
      'Interest owed and not yet paid: the outstanding principal share × borrower_rate / 12 for each month (and part of a month, '
      + "on the loan's schedule) since the last due date paid, while the loan is current or defaulted; 0 once it is charged off or ended.",
  }),
  payment_received: Type.Number({
    description:
      "What the note has received from the borrower's payments: principal + interest + service fees paid (the fees negative), "
      + 'the three pro-rata shares, as the real answer adds them.',
  }),
  loan_settlement_status: stringIn(
    LOAN_SETTLEMENT_STATUSES,
    '`Unspecified` unless the loan was settled (loan_default_reason 6, SettledInFull): then `Settled`.',
  ),
  loan_extension_status: stringIn(LOAN_EXTENSION_STATUSES, 'The mock extends no loan: always `Unspecified`, as the real answer.'),
  loan_extension_term: Type.Integer({ minimum: 0, description: 'Months the loan was extended by; 0 (no extensions in the mock).' }),
};

/** A note as GET /notes/ and GET /notes/{loan_note_id} return it. */
const wireNote = noteFieldsSchema(WIRE_DATES).properties;
// ownership_end_date: left out of the real answer while the note is held (grahamtt/prosper-api `test_list_notes`); the mock sends null.
export const NoteSchema = Type.Object(
  { ...wireNote, ownership_end_date: Type.Optional(wireNote.ownership_end_date), ...noteAnswerOnlyFields },
  strict,
);
/** The named fields of a note as the mock answers it (ownership_end_date always: null while held). */
export type NoteAnswerFields = Static<typeof NoteSchema> & Pick<NoteFields<string>, 'ownership_end_date'>;
/** A note as the API returns it: the fields a command may rely on; the rest ride along for printing. */
export type Note = NoteFields<string> & Open;

// ---------------------------------------------------------------------------------------------
// Payments

/** `yyyy-MM-ddTHH:mm:ss.SSS±hhmm`: how the real payments answer writes its dates (grahamtt/prosper-api tests/test_client.py). */
export const PaymentDateText = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}[+-]\\d{4}$',
  description: 'yyyy-MM-ddTHH:mm:ss.SSS±hhmm, as the real payments answer writes it',
});
/** An amount as the real payments answer sends it: a decimal in a string, up to 4 places (`"0.7812"`). */
export const AmountText = Type.String({
  pattern: '^-?\\d+(\\.\\d{1,4})?$',
  description: 'A decimal number in a string, as the real payments answer sends amounts.',
});

/**
 * The caller's share of one loan payment (GET {base_url}/loans/payments): one row per payment per note held,
 * every amount the note's pro-rata share, written as the real answer writes it (amounts as decimal strings,
 * dates with milliseconds). The spec names the resource only; the fields are the real answer's
 * (grahamtt/prosper-api tests/test_client.py, `test_list_payments`, and its `Payment` model).
 */
export const PaymentSchema = Type.Object(
  {
    loan_number: Int,
    transaction_id: Int,
    funds_available_date: PaymentDateText,
    investor_disbursement_date: PaymentDateText,
    transaction_effective_date: PaymentDateText,
    account_effective_date: PaymentDateText,
    payment_transaction_code: stringIn(PAYMENT_TRANSACTION_CODES),
    payment_status: stringIn(PAYMENT_STATUSES),
    match_back_id: Type.String(),
    prior_match_back_id: nullable(Type.String()),
    loan_payment_cashflow_type: stringIn(PAYMENT_CASHFLOW_TYPES),
    payment_amount: AmountText,
    principal_amount: AmountText,
    interest_amount: AmountText,
    origination_interest_amount: AmountText,
    late_fee_amount: AmountText,
    service_fee_amount: AmountText,
    collection_fee_amount: AmountText,
    gl_reward_amount: AmountText,
    nsf_fee_amount: AmountText,
    pre_days_past_due: Count,
    post_days_past_due: nullable(Count),
    resulting_principal_balance: AmountText,
  },
  strict,
);
/** A payment row's fields as the mock answers them. */
export type PaymentAnswerFields = Static<typeof PaymentSchema>;
/** The fields of a payment row the client relies on (the rest ride along for printing). */
export type PaymentFields = Pick<PaymentAnswerFields, 'loan_number' | 'transaction_effective_date' | 'payment_amount'>;
/** One payment row (GET {base_url}/loans/payments). */
export type Payment = PaymentFields & Open;

// ---------------------------------------------------------------------------------------------
// Account

/**
 * Amounts by platform rating, every rating a key; loans rated before the ratings (`N/A` on loans and notes)
 * are keyed `NA`, as the real account answer keys them (grahamtt/prosper-api tests/test_client.py, `test_get_account_info`).
 */
export type AmountsByRating = { [R in AccountRatingKey]: number };
const ByRating = Type.Unsafe<AmountsByRating>(Type.Record(stringOf(ACCOUNT_RATING_KEYS), Money, strict));

/**
 * The account as GET /accounts/platform returns it, in the real marketplace's shape (DESIGN.md; the spec
 * shows no body). Dates are date-times; a last deposit or withdrawal the account never had is left out.
 */
export const AccountSchema = Type.Object(
  {
    available_cash_balance: Money,
    pending_investments_primary_market: Money,
    pending_investments_secondary_market: Money,
    pending_quick_invest_orders: Money,
    total_principal_received_on_active_notes: Money,
    total_amount_invested_on_active_notes: Money,
    outstanding_principal_on_active_notes: Money,
    total_account_value: Type.Number({
      minimum: 0,
      description: 'Cash + the three pending figures + outstanding principal on active notes.',
    }),
    pending_deposit: Money,
    last_deposit_amount: Type.Optional(Money),
    last_deposit_date: Type.Optional(DateTimeText),
    // Signed: the spec gives no sign, and the real answer carries -14.31 (grahamtt/prosper-api tests/test_client.py `test_get_account_info`).
    last_withdraw_amount: Type.Optional(Type.Number()),
    last_withdraw_date: Type.Optional(DateTimeText),
    external_user_id: Type.String(),
    platform_account_digest: Type.String(),
    /** Outstanding principal of active notes by the rating of their loan. */
    invested_notes: ByRating,
    /** What pending bids hold by the rating of their listing. */
    pending_bids: ByRating,
  },
  strict,
);
/** The account's fields as the mock answers them. */
export type AccountAnswerFields = Static<typeof AccountSchema>;
/** The fields of the account summary the client relies on. */
export type AccountFields = Pick<AccountAnswerFields, 'available_cash_balance' | 'external_user_id'>;
/** The investor's account (GET /accounts/platform); the many by-rating figures ride along for printing. */
export type Account = AccountFields & Open;

// ---------------------------------------------------------------------------------------------
// Token, envelope, errors

/** The token endpoint's answer. */
export const TokenSchema = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.String({ enum: ['bearer'] }),
    refresh_token: Type.String(),
    expires_in: Type.Integer({ description: 'Seconds left before the access token expires.' }),
    scope: Type.Optional(
      Type.String({
        description:
          'Space-separated scopes granted; only in the answer to the password grant (outside the spec), which has no redirect to carry them.',
      }),
    ),
  },
  strict,
);
export type Token = Static<typeof TokenSchema>;

/** A list answer of `item`s. */
export const listEnvelopeSchema = <T extends TSchema>(item: T) =>
  Type.Object(
    {
      result: Type.Array(item),
      result_count: Type.Integer({ minimum: 0, description: 'Items in this answer.' }),
      total_count: Type.Integer({ minimum: 0, description: 'All matching items.' }),
    },
    strict,
  );
/** A list answer (the client tolerates a missing result_count). */
export type ListEnvelope<T> = Loose<Omit<Static<ReturnType<typeof listEnvelopeSchema>>, 'result'>, 'result_count'> & { result: T[] };

/** The API's `{code, message}` error: order errors (ORD…), validation (VAL0001), faults (SYS…) and the mock's own. */
export const CodedErrorSchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
  },
  strict,
);

/** An RFC 6749 error (token endpoint, bearer checks). */
export const OAuthErrorSchema = Type.Object(
  {
    error: Type.String(),
    error_description: Type.String(),
  },
  strict,
);

/** An offers error answer (400 validation, 401 partner code): the offer errors array, with `code`/`message` on a 400. */
export const OfferErrorAnswerSchema = Type.Object(
  {
    code: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
    errors: Type.Array(OfferErrorSchema, { minItems: 1 }),
  },
  strict,
);
