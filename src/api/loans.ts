/** Loans the caller holds notes in: one page, every page, or one loan. */
import { PAGINATION } from '../contract/enums.js';
import { seg, type ApiClient, type ListEnvelope } from './client.js';
import { paginate } from './pagination.js';

/** One page of loans. */
export function list(client: ApiClient, query: URLSearchParams): Promise<ListEnvelope> {
  return client.call<ListEnvelope>({ method: 'GET', base: 'base', path: '/loans/', query, what: 'loan list' });
}

/** Every loan, page by page (the endpoint's maximum page is 25). */
export function listAll(client: ApiClient, query: URLSearchParams): AsyncGenerator<Record<string, unknown>> {
  return paginate((offset, limit) => {
    const q = new URLSearchParams(query);
    q.set('offset', String(offset));
    q.set('limit', String(limit));
    return list(client, q);
  }, PAGINATION.loans.max);
}

/** One loan by number. */
export function get(client: ApiClient, loanNumber: number): Promise<Record<string, unknown>> {
  return client.call<Record<string, unknown>>({ method: 'GET', base: 'base', path: `/loans/${seg(loanNumber)}`, what: `loan ${loanNumber}` });
}
