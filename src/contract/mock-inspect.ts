/**
 * What the mock's inspection routes answer: the request journal (GET /__mock/requests) and the
 * notifications outbox (GET /__mock/outbox), both in the list envelope, newest first. Shared by the
 * mock, `mkt mock requests|outbox` and the OpenAPI document.
 */

/** Requests the journal keeps unless `mock serve --journal-size` says otherwise (0 turns it off). */
export const DEFAULT_JOURNAL_SIZE = 1000;
/** The largest --journal-size. */
export const MAX_JOURNAL_SIZE = 100_000;
/** Page sizes of the two lists (`limit`). */
export const INSPECT_PAGE = { default: 100, max: 1000 } as const;

/** One request as the mock saw it; secrets are replaced by `***` (the scheme of Authorization is kept). */
export interface JournalEntry {
  /** Increasing from 1 for the life of the server (a clear does not restart it). */
  id: number;
  /** When the request arrived, on the real clock (ISO 8601, UTC). */
  at: string;
  /** When it arrived on the mock's virtual clock (the API's date-time format). */
  virtual_at: string;
  method: string;
  /** The normalised path the router used (the raw target, cut at `?`, when it could not be read). */
  path: string;
  /** The query string without `?` ('' for none), secret-named parameters redacted. */
  query: string;
  /** The status answered; null when the connection was dropped without an answer (an injected fault). */
  status: number | null;
  /** From the request reaching the mock to its answer, in milliseconds. */
  duration_ms: number;
  /** The account the bearer token acts for; null without a token the mock issued. */
  account: string | null;
  /** Request headers, names in lower case, secrets redacted. */
  headers: Record<string, string>;
  /** The JSON body of a JSON call, secrets redacted; null otherwise (never a form, never the token endpoint's). */
  body: unknown;
  /** The fault injected into this request (POST /__mock/faults), if any. */
  fault: string | null;
}

/** The kinds of email the marketplace sends to an investor registered for notifications. */
export const NOTIFICATION_KINDS = ['order_validation_error', 'order_processed', 'order_completed'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** One email the mock "sent". */
export interface OutboxMessage {
  /** Increasing from 1 in this world (a reset starts again, a clear does not). */
  id: number;
  /** The investor's email address. */
  to: string;
  kind: NotificationKind;
  /** The order it is about; null for a validation error (no order was created). */
  order_id: string | null;
  subject: string;
  text: string;
  /** When it was sent, on the mock's virtual clock (the API's date-time format). */
  sent_at: string;
}
