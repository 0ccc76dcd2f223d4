/**
 * What the mock's inspection routes answer: the request log (GET /__mock/requests) and the
 * notifications outbox (GET /__mock/outbox), both in the list envelope, newest first. Shared by the
 * mock, `mkt mock requests|outbox` and the OpenAPI document.
 */

/** Requests the request log keeps unless `mock serve --request-log-size` says otherwise (0 turns it off). */
export const DEFAULT_REQUEST_LOG_SIZE = 1000;
/** The largest --request-log-size. */
export const MAX_REQUEST_LOG_SIZE = 100_000;
/** Page sizes of the two lists (`limit`). */
export const INSPECT_PAGE = { default: 100, max: 1000 } as const;

export type { ExchangeViolation, RequestLogEntry, OutboxMessage } from './mock-inspect-schemas.js';
