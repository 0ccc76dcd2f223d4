/** Loans the caller holds notes in: one page, every page, or one loan. */
import { decodeEnvelope, decodeLoan } from '../contract/decode.js';
import { PAGINATION } from '../contract/enums.js';
import type { Loan, Page } from '../contract/decode.js';
import { seg, type ApiClient } from './client.js';
import { paginateQuery } from './pagination.js';

export type { Loan } from '../contract/decode.js';

const decodePage = decodeEnvelope(decodeLoan);

/** One page of loans. */
export function list(client: ApiClient, query: URLSearchParams): Promise<Page<Loan>> {
  return client.call({ method: 'GET', base: 'base', path: '/loans/', query, what: 'loan list', decode: decodePage });
}

/** Every loan, page by page (the endpoint's maximum page is 25). */
export function listAll(client: ApiClient, query: URLSearchParams): AsyncGenerator<Loan> {
  return paginateQuery(query, (q) => list(client, q), PAGINATION.loans.max);
}

/** One loan by number. */
export function get(client: ApiClient, loanNumber: number): Promise<Loan> {
  return client.call({ method: 'GET', base: 'base', path: `/loans/${seg(loanNumber)}`, what: `loan ${loanNumber}`, decode: decodeLoan });
}
