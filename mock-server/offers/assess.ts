/**
 * Answers one offers request: the partner code first (401 MKTPL-1001/1004), then every applicant
 * problem and eligibility failure at once in the `errors` array (HTTP 200), or priced offers.
 *
 * Errors come in this order: MKTPL-1012 (its assertions ordered by code), MKTPL-1006, MKTPL-1007,
 * MKTPL-1008, MKTPL-100; MKTPL-1009 only when nothing else is wrong. Eligibility is judged on the
 * values that did parse, so a bad zip code does not hide an unserved state. Under age alone is
 * MKTPL-1006; with other problems it is MKTPL-1006 and MKTPL-1012-173 among the assertions.
 */
import { OFFER_ERRORS, VALIDATION_ERROR } from '../../src/contract/errors.js';
import { ApiError } from '../kit/api-error.js';
import type { VirtualClock } from '../kit/clock.js';
import type { World } from '../world/world.js';
import { issueOffers } from './book.js';
import { priceOffers } from './pricing.js';
import { CLIENT_REFERENCE_MAX, STATE_AMOUNT_LIMITS, STATES_NOT_SERVED } from './rules.js';
import { isObject, validateApplicant, type ApplicantFacts, type Assertion } from './validate.js';

/** One entry of the response's `errors` array. */
export interface OfferError {
  code: string;
  message: string;
  assertions?: Assertion[];
}

/** 400 for a request the mock cannot read as an offers request: VAL0001, also as an `errors` entry. */
export function offersBadRequest(message: string): ApiError {
  return new ApiError(400, { code: VALIDATION_ERROR, message, errors: [{ code: VALIDATION_ERROR, message }] });
}

function partnerError(code: 'MKTPL-1001' | 'MKTPL-1004', detail: string): ApiError {
  return new ApiError(401, { errors: [{ code, message: `${OFFER_ERRORS[code]!.message} ${detail}` }] });
}

const error = (code: string, detail: string): OfferError => ({ code, message: `${OFFER_ERRORS[code]!.message} ${detail}` });

/** Checks identification: the partner code (401 when missing, unknown or expired) and client_reference_id (400 when not a string of at most 255). */
export function checkIdentification(world: World, body: Record<string, unknown>): Record<string, unknown> {
  const ident = isObject(body.identification) ? body.identification : {};
  const code = ident.partner_source_code;
  if (code === undefined || code === null || (typeof code === 'string' && code.trim() === '')) {
    throw partnerError('MKTPL-1001', 'Send identification.partner_source_code.');
  }
  const partner = typeof code === 'string' ? world.partnerCodes.get(code.trim()) : undefined;
  if (!partner) throw partnerError('MKTPL-1004', 'The code is not one this marketplace issued.');
  if (partner.expired) throw partnerError('MKTPL-1004', 'The code has expired.');
  const ref = ident.client_reference_id;
  if (ref !== undefined && ref !== null) {
    if (typeof ref !== 'string') throw offersBadRequest('identification.client_reference_id: must be a string');
    if (ref.length > CLIENT_REFERENCE_MAX) {
      throw offersBadRequest(`identification.client_reference_id: ${ref.length} characters, at most ${CLIENT_REFERENCE_MAX}`);
    }
  }
  return ref === undefined || ref === null
    ? { partner_source_code: partner.code }
    : { client_reference_id: ref, partner_source_code: partner.code };
}

function isExistingCustomer(world: World, facts: ApplicantFacts): boolean {
  const dob = facts.dateOfBirth
    ? `${facts.dateOfBirth.y}-${String(facts.dateOfBirth.m).padStart(2, '0')}-${String(facts.dateOfBirth.d).padStart(2, '0')}`
    : undefined;
  const same = (a: string | undefined, b: string): boolean => a !== undefined && a.toLowerCase() === b.toLowerCase();
  return world.existingBorrowers.some(
    (b) =>
      (facts.ssn !== undefined && facts.ssn === b.ssn)
      || (same(facts.firstName, b.firstName) && same(facts.lastName, b.lastName) && dob === b.dateOfBirth),
  );
}

/** Every error the applicant data in `body` earns, in the documented order (empty when offers can be priced). */
export function applicantErrors(world: World, body: Record<string, unknown>, now: number): { errors: OfferError[]; facts: ApplicantFacts } {
  const t = new Date(now);
  const { assertions, facts } = validateApplicant(body, { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() });
  const errors: OfferError[] = [];
  if (assertions.some((a) => a.code !== 'MKTPL-1012-173')) {
    errors.push({ ...error('MKTPL-1012', `${assertions.length} problem(s) found.`), assertions });
  }
  if (facts.underAge) errors.push(error('MKTPL-1006', 'The applicant must be at least 18.'));
  if (facts.state !== undefined && STATES_NOT_SERVED.has(facts.state)) {
    errors.push(error('MKTPL-1007', `Loans are not offered in ${facts.state}.`));
  } else if (facts.state !== undefined && facts.amount !== undefined && facts.amount > (STATE_AMOUNT_LIMITS[facts.state] ?? Infinity)) {
    errors.push(error('MKTPL-1008', `The limit in ${facts.state} is ${STATE_AMOUNT_LIMITS[facts.state]}.`));
  }
  if (isExistingCustomer(world, facts)) errors.push(error('MKTPL-100', 'The applicant already has an account; send them to sign in.'));
  return { errors, facts };
}

/** What an offers request reads and changes (the mock's context is one): the world (its offer records) and the clock. */
export interface OffersHost {
  readonly world: World;
  readonly clock: VirtualClock;
}

/** The whole answer to a parsed offers request body; `origin` is root_url for the offer links. */
export function answerOffersRequest(ctx: OffersHost, body: unknown, origin: string): Record<string, unknown> {
  if (!isObject(body)) throw offersBadRequest('request body: must be a JSON object with the offer request objects');
  const identification = checkIdentification(ctx.world, body);
  const now = ctx.clock.now();
  const { errors, facts } = applicantErrors(ctx.world, body, now);
  if (errors.length === 0) {
    const priced = priceOffers({ amount: facts.amount!, creditScore: facts.creditScore, annualIncome: facts.income! });
    if (priced.length > 0) {
      const issued = issueOffers(ctx.world, origin, now, facts.firstName!, facts.amount!, priced);
      return { referral_code: issued.referral_code, offers_url: issued.offers_url, identification, offers: issued.offers, errors: [] };
    }
    errors.push(error('MKTPL-1009', 'No offer fits the credit score and income given.'));
  }
  return { identification, offers: [], errors };
}
