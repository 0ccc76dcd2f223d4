/** The offers resource (partners: POST /offers and the offer pages) as JSON Schemas; re-exported by resources.ts. */
import { Type, type Static } from '@sinclair/typebox';
import { type Open, strict, Money, Rate, Int } from './schema-kit.js';

/** One offer of an offers response. */
export const OfferSchema = Type.Object(
  {
    id: Int,
    apr: Rate,
    loan_amount: Type.Integer({ description: 'Whole dollars, origination fee included.' }),
    origination_fee: Type.Optional(
      Type.Number({ description: 'Dollars: loan_amount less the amount requested (the spec shows it on one sample offer only).' }),
    ),
    loan_rate: Rate,
    loan_term_in_months: Int,
    loan_term_in_years: Int,
    monthly_payment: Money,
    offer_url: Type.String({ format: 'uri' }),
  },
  strict,
);
export type Offer = Static<typeof OfferSchema>;

/** One MKTPL-1012 assertion. */
export const OfferAssertionSchema = Type.Object({ code: Type.String({ pattern: '^MKTPL-1012-\\d{3}$' }), message: Type.String() }, strict);
export type OfferAssertion = Static<typeof OfferAssertionSchema>;

/** One entry of an offers response's `errors`. */
export const OfferErrorSchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    assertions: Type.Optional(Type.Array(OfferAssertionSchema)),
  },
  strict,
);
export type OfferError = Static<typeof OfferErrorSchema>;

/** The offers response: offers, or the errors that kept them from being made (both with HTTP 200). */
export const OfferResponseSchema = Type.Object(
  {
    referral_code: Type.Optional(Type.String()),
    offers_url: Type.Optional(Type.String({ format: 'uri' })),
    identification: Type.Optional(
      Type.Object({ client_reference_id: Type.Optional(Type.String()), partner_source_code: Type.Optional(Type.String()) }),
    ),
    offers: Type.Optional(Type.Array(OfferSchema)),
    errors: Type.Optional(Type.Array(OfferErrorSchema)),
  },
  strict,
);
/** The named fields of an offers response. */
export type OfferResponseFields = Omit<Static<typeof OfferResponseSchema>, 'identification'> & {
  identification?: { [field: string]: unknown };
};
/** The offers response. */
export type OfferResponse = OfferResponseFields & Open;

const Phone = Type.Object({ area_code: Type.String(), phone_number: Type.String() });
/** The body of POST /marketplace/application/offers/ (spec "Offer request"): six required objects, a seventh optional. */
export const OfferRequestSchema = Type.Object({
  loan_info: Type.Object({
    loan_purpose_id: Int,
    loan_amount: Type.Number({ minimum: 2000, maximum: 35000 }),
    self_reported_credit_score: Type.Optional(Int),
  }),
  identification: Type.Object({
    client_reference_id: Type.Optional(Type.String({ maxLength: 255 })),
    partner_source_code: Type.String(),
  }),
  personal_info: Type.Object({
    first_name: Type.String(),
    last_name: Type.String(),
    middle_initial: Type.Optional(Type.String({ pattern: '^[A-Za-z]$' })),
    suffix: Type.Optional(Type.String()),
    date_of_birth: Type.String({ description: 'MM/dd/yyyy (MM-dd-yyyy also accepted)' }),
    ssn: Type.Optional(Type.String({ pattern: '^\\d{9}$' })),
  }),
  address_info: Type.Object({
    street: Type.String(),
    city: Type.String(),
    state: Type.String({ pattern: '^[A-Za-z]{2}$' }),
    zip_code: Type.String({ pattern: '^\\d{5}(-?\\d{4})?$' }),
  }),
  contact_info: Type.Object({
    email: Type.String({ format: 'email' }),
    home_phone: Type.Optional(Phone),
    mobile_phone: Type.Optional(Phone),
    work_phone: Type.Optional(Phone),
  }),
  employment_info: Type.Object({
    employer_name: Type.Optional(Type.String()),
    employer_phone: Type.Optional(Phone),
    employment_month: Type.Optional(Int),
    employment_year: Type.Optional(Int),
    employment_status_id: Type.Integer({ enum: [3, 5, 6, 7], description: '3 Self-employed, 5 Not employed, 6 Other, 7 Employed.' }),
    occupation_id: Type.Optional(Int),
    annual_income: Type.Number(),
    is_income_verifiable: Type.Optional(Type.Boolean({ deprecated: true })),
  }),
  bank_account_info: Type.Optional(
    Type.Object({
      bank_name: Type.Optional(Type.String()),
      first_account_holder_name: Type.Optional(Type.String()),
      account_number: Type.Optional(Int),
      routing_number: Type.Optional(Int),
    }),
  ),
});
