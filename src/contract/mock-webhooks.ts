/**
 * The mock's signed webhooks (an extension: the spec's notifications are emails): the event each
 * outbox message is POSTed as, and the deliveries GET /__mock/webhooks lists. Shared by the mock
 * and the OpenAPI document.
 */
import { Type, type Static } from '@sinclair/typebox';
import { OutboxMessageSchema } from './mock-inspect-schemas.js';
import { DateTimeText, nullable } from './resources.js';

const strict = { additionalProperties: false } as const;

/** Headers of a delivery besides the signature (`Mkt-Signature`, mock-server/kit/webhook-signature.ts). */
export const WEBHOOK_EVENT_ID_HEADER = 'mkt-event-id';
export const WEBHOOK_EVENT_TYPE_HEADER = 'mkt-event-type';
export const WEBHOOK_ATTEMPT_HEADER = 'mkt-delivery-attempt';
/** The waits between attempts unless the mock is told otherwise: 5 attempts in all. */
export const DEFAULT_WEBHOOK_RETRY_MS: readonly number[] = [1000, 2000, 4000, 8000];
/** How long one attempt may wait for the receiver's answer, counted from when the request is written (not while it waits for a connection). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5000;
/** Deliveries waiting for their turn at one URL (a first attempt or a retry); past it the one waiting longest is dropped, and counted. */
export const DEFAULT_WEBHOOK_QUEUE = 1000;
/** Attempts under way at once to one URL (and connections to it). */
export const DEFAULT_WEBHOOK_CONNECTIONS = 8;
/** Ended deliveries (delivered, failed, dropped) kept for GET /__mock/webhooks; the oldest go first, their counts stay. */
export const DEFAULT_WEBHOOK_KEEP = 1000;
/** Page sizes of GET /__mock/webhooks. */
export const WEBHOOK_PAGE = { default: 100, max: 1000 } as const;
/** What became of a delivery: dropped is never tried again (pushed out of a full queue, or the mock stopped). */
export const WEBHOOK_STATES = ['pending', 'delivered', 'failed', 'dropped'] as const;
export type WebhookState = (typeof WEBHOOK_STATES)[number];

/** What `mock serve --webhook` sets (MockOptions.webhooks). */
export interface WebhookSettings {
  /** Receivers, http or https. */
  urls: readonly string[];
  /** The shared secret (--webhook-secret); a random one when absent (`Webhooks.secret`). */
  secret?: string;
  /** Waits before each retry, ms (default 1, 2, 4, 8 s: five attempts); tests make them short. */
  retryMs?: readonly number[];
  /** One attempt's limit, ms, from when its request is written. */
  timeoutMs?: number;
  /** Deliveries waiting per URL before the one waiting longest is dropped (tests make it small). */
  queue?: number;
  /** Attempts under way at once per URL. */
  connections?: number;
  /** Ended deliveries kept for GET /__mock/webhooks. */
  keep?: number;
}

/** What each delivery POSTs: one outbox message, the same bytes on every attempt. */
export const WebhookEventSchema = Type.Object(
  {
    id: Type.String({
      description: 'The event id (also the Mkt-Event-Id header): the same on every attempt and every URL, so a receiver can drop repeats.',
    }),
    type: OutboxMessageSchema.properties.kind,
    created_at: Type.Unsafe<string>({ ...DateTimeText, description: "When the event happened, on the mock's virtual clock." }),
    data: OutboxMessageSchema,
  },
  strict,
);
export type WebhookEvent = Static<typeof WebhookEventSchema>;

/** One attempt of a delivery. */
export const WebhookAttemptSchema = Type.Object(
  {
    at: Type.String({ format: 'date-time', description: 'When it was sent, on the real clock (ISO 8601, UTC).' }),
    status: nullable(Type.Integer(), "The receiver's status; null when no answer came (error says why)."),
    error: nullable(Type.String(), 'Why no answer came (connection refused, timeout...); null when one did.'),
    duration_ms: Type.Number({ minimum: 0 }),
  },
  strict,
);

/** One event to one URL, and what became of it. */
export const WebhookDeliverySchema = Type.Object(
  {
    event_id: Type.String(),
    type: OutboxMessageSchema.properties.kind,
    url: Type.String({ description: 'The receiver (a password in it, and secret-named query parameters, shown as ***).' }),
    state: Type.Union(
      WEBHOOK_STATES.map((s) => Type.Literal(s)),
      {
        description:
          'pending until a 2xx (delivered) or the last attempt fails (failed); dropped when it was pushed out of a full queue or the mock stopped (never tried again).',
      },
    ),
    attempts: Type.Array(WebhookAttemptSchema, { description: 'Oldest first.' }),
    next_attempt_at: nullable(Type.String({ format: 'date-time' }), 'When the next attempt is due (real clock); null when none is.'),
  },
  strict,
);
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;

/** How many deliveries there have been in each state since the mock started, the ones no longer listed included. */
export const WebhookCountsSchema = Type.Object(
  {
    pending: Type.Integer({ minimum: 0, description: 'Waiting for an attempt or a retry, or under way.' }),
    delivered: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
    dropped: Type.Integer({
      minimum: 0,
      description: 'Never to be tried again: pushed out of a full queue (the one waiting longest goes), or pending when the mock stopped.',
    }),
  },
  strict,
);
export type WebhookCounts = Static<typeof WebhookCountsSchema>;

/** GET /__mock/webhooks: a page of deliveries (the list envelope) and the counts. */
export const WebhookPageSchema = Type.Object(
  {
    result: Type.Array(WebhookDeliverySchema),
    result_count: Type.Integer({ minimum: 0, description: 'Items in this answer.' }),
    total_count: Type.Integer({ minimum: 0, description: 'All matching deliveries still listed.' }),
    counts: WebhookCountsSchema,
  },
  strict,
);
