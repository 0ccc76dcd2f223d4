/** The caller's share of each payment on its loans (GET {base_url}/loans/payments): one page or every page. */
import { decodeEnvelope, decodePayment, type Page, type Payment } from '../contract/decode.js';
import { PAGINATION } from '../contract/enums.js';
import type { ApiClient } from './client.js';
import { paginateQuery } from './pagination.js';

export type { Payment } from '../contract/decode.js';

const decodePage = decodeEnvelope(decodePayment);

/**
 * The query of the payments of `loans` (one `loan_number` list, comma-separated, as the public Python
 * client sends it), from the day `since` (`yyyy-MM-dd`) on when given.
 */
export function paymentsQuery(loans: readonly number[], since?: string): URLSearchParams {
  const q = new URLSearchParams({ loan_number: loans.join(',') });
  if (since !== undefined) q.set('transaction_effective_date', since);
  return q;
}

/** One page of payment rows. */
export function list(client: ApiClient, query: URLSearchParams): Promise<Page<Payment>> {
  return client.call({ method: 'GET', base: 'base', path: '/loans/payments', query, what: 'loan payments', decode: decodePage });
}

/** Every payment row, page by page (pages of the endpoint's maximum, 100). */
export function listAll(client: ApiClient, query: URLSearchParams): AsyncGenerator<Payment> {
  return paginateQuery(query, (q) => list(client, q), PAGINATION.payments.max);
}
