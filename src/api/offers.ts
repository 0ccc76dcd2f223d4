/**
 * Offers (partner side): send an applicant, get offers or the list of errors. Validation and
 * eligibility failures come back with HTTP 200 in `errors` and are returned as data; only a
 * refused partner code (401 MKTPL-1001/1004) or an unreadable request (400) is thrown.
 */
import { decodeOfferResponse } from '../contract/decode.js';
import { CLIENT_REFERENCE_MAX } from '../contract/enums.js';
import type { OfferResponse } from '../contract/resources.js';
import { UsageError } from '../errors.js';
import type { ApiClient } from './client.js';
import { AuthenticationError } from './errors.js';

/** The applicant objects of an offers request (their elements are checked by the marketplace). */
export const REQUIRED_OBJECTS = [
  'loan_info',
  'identification',
  'personal_info',
  'address_info',
  'contact_info',
  'employment_info',
] as const;

/** An applicant's data: open JSON whose elements the marketplace checks. */
type JsonObject = Record<string, unknown>;

/** An offers request: the seven objects of the spec, six of them required. */
export type OfferRequest = JsonObject & { identification: JsonObject };

export type { Offer, OfferAssertion, OfferError, OfferResponse } from '../contract/resources.js';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks what can be checked before sending (exit 2, nothing sent): a JSON object holding the six
 * required objects, and a client_reference_id that is a string of at most 255 characters.
 */
export function checkOfferRequest(value: unknown, source: string): OfferRequest {
  if (!isObject(value)) {
    throw new UsageError(`${source}: the applicant must be a JSON object with ${REQUIRED_OBJECTS.join(', ')}`);
  }
  const missing = REQUIRED_OBJECTS.filter((k) => !isObject(value[k]));
  const identification = value.identification;
  if (missing.length > 0 || !isObject(identification)) {
    throw new UsageError(
      `${source}: missing or not an object: ${missing.join(', ')}`,
      `an offers request needs ${REQUIRED_OBJECTS.join(', ')}`,
    );
  }
  const ref = identification.client_reference_id;
  if (ref !== undefined && ref !== null && (typeof ref !== 'string' || ref.length > CLIENT_REFERENCE_MAX)) {
    throw new UsageError(`${source}: identification.client_reference_id must be a string of at most ${CLIENT_REFERENCE_MAX} characters`);
  }
  return { ...value, identification };
}

/** True when the marketplace reported errors (the CLI's exit 4). */
export const hasErrors = (r: OfferResponse): boolean => (r.errors?.length ?? 0) > 0;

/** Sends `applicant` to POST {base_url}/marketplace/application/offers/ (never retried). */
export async function request(client: ApiClient, applicant: OfferRequest): Promise<OfferResponse> {
  try {
    return await client.call({
      method: 'POST',
      base: 'base',
      path: '/marketplace/application/offers/',
      json: applicant,
      what: 'offers request',
      decode: decodeOfferResponse,
    });
  } catch (err) {
    // A refused partner code is not a login problem: point at the partner code, keep exit 3.
    if (err instanceof AuthenticationError && err.code?.startsWith('MKTPL-')) {
      const e = err;
      throw new AuthenticationError(
        e.message,
        e.exitCode,
        e.status,
        e.code,
        e.body,
        'check --partner-code or MKT_PARTNER_CODE (or identification.partner_source_code in the file)',
      );
    }
    throw err;
  }
}
