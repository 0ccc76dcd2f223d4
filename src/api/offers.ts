/**
 * Offers (partner side): send an applicant, get offers or the list of errors. Validation and
 * eligibility failures come back with HTTP 200 in `errors` and are returned as data; only a
 * refused partner code (401 MKTPL-1001/1004) or an unreadable request (400) is thrown.
 */
import { CLIENT_REFERENCE_MAX } from '../contract/enums.js';
import { UsageError } from '../errors.js';
import type { ApiClient } from './client.js';
import { AuthenticationError, type ApiError } from './errors.js';

/** The applicant objects of an offers request (their elements are checked by the marketplace). */
export const REQUIRED_OBJECTS = ['loan_info', 'identification', 'personal_info', 'address_info', 'contact_info', 'employment_info'] as const;

/** An offers request: the seven objects of the spec, six of them required. */
export type OfferRequest = Record<string, unknown> & {
  identification: Record<string, unknown> & { partner_source_code?: unknown; client_reference_id?: unknown };
};

/** One offer. */
export interface Offer {
  id: number;
  apr: number;
  loan_amount: number;
  loan_rate: number;
  loan_term_in_months: number;
  loan_term_in_years: number;
  monthly_payment: number;
  offer_url: string;
  origination_fee?: number;
}

/** One MKTPL-1012 assertion. */
export interface OfferAssertion {
  code: string;
  message: string;
}

/** One entry of `errors`. */
export interface OfferError {
  code: string;
  message: string;
  assertions?: OfferAssertion[];
}

/** The offers response. */
export interface OfferResponse {
  referral_code?: string;
  offers_url?: string;
  identification?: Record<string, unknown>;
  offers?: Offer[];
  errors?: OfferError[];
}

/**
 * Checks what can be checked before sending (exit 2, nothing sent): a JSON object holding the six
 * required objects, and a client_reference_id that is a string of at most 255 characters.
 */
export function checkOfferRequest(value: unknown, source: string): OfferRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${source}: the applicant must be a JSON object with ${REQUIRED_OBJECTS.join(', ')}`);
  }
  const body = value as Record<string, unknown>;
  const missing = REQUIRED_OBJECTS.filter((k) => typeof body[k] !== 'object' || body[k] === null || Array.isArray(body[k]));
  if (missing.length > 0) {
    throw new UsageError(`${source}: missing or not an object: ${missing.join(', ')}`, `an offers request needs ${REQUIRED_OBJECTS.join(', ')}`);
  }
  const ref = (body.identification as Record<string, unknown>).client_reference_id;
  if (ref !== undefined && ref !== null && (typeof ref !== 'string' || ref.length > CLIENT_REFERENCE_MAX)) {
    throw new UsageError(`${source}: identification.client_reference_id must be a string of at most ${CLIENT_REFERENCE_MAX} characters`);
  }
  return body as OfferRequest;
}

/** True when the marketplace reported errors (the CLI's exit 4). */
export const hasErrors = (r: OfferResponse): boolean => (r.errors?.length ?? 0) > 0;

/** Sends `applicant` to POST {base_url}/marketplace/application/offers/ (never retried). */
export async function request(client: ApiClient, applicant: OfferRequest): Promise<OfferResponse> {
  try {
    return await client.call<OfferResponse>({
      method: 'POST', base: 'base', path: '/marketplace/application/offers/', json: applicant, what: 'offers request',
    });
  } catch (err) {
    // A refused partner code is not a login problem: point at the partner code, keep exit 3.
    const e = err as ApiError;
    if (err instanceof AuthenticationError && e.code?.startsWith('MKTPL-')) {
      throw new AuthenticationError(e.message, e.exitCode, e.status, e.code, e.body, 'check --partner-code or MKT_PARTNER_CODE (or identification.partner_source_code in the file)');
    }
    throw err;
  }
}
