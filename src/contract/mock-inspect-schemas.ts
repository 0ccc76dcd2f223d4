/**
 * The schemas of what the mock's inspection routes answer (GET /__mock/requests, GET /__mock/outbox),
 * for the OpenAPI document; mock-inspect.ts re-exports their types (type-only, so `mkt mock requests`
 * does not load TypeBox).
 */
import { Type, type Static } from '@sinclair/typebox';
import { DateTimeText, nullable } from './resources.js';

const strict = { additionalProperties: false } as const;

/** The kinds of email the marketplace sends to an investor registered for notifications. */
export const NOTIFICATION_KINDS = ['order_validation_error', 'order_processed', 'order_completed'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** One difference a proxy (`mkt mock proxy`) found between an exchange and the OpenAPI document. */
export const ExchangeViolationSchema = Type.Object(
  {
    direction: Type.Union([Type.Literal('request'), Type.Literal('answer')]),
    operation: Type.String({
      description:
        'The operation, method and path template as the document spells them (`GET /v1/notes/`); the method and path as sent when the document has none.',
    }),
    field: Type.String({ description: 'A JSON pointer into the exchange: /path/NAME, /query/NAME, /headers/NAME, /body/..., /status.' }),
    problem: Type.String(),
  },
  strict,
);
export type ExchangeViolation = Static<typeof ExchangeViolationSchema>;

/** One request as the mock saw it; secrets are replaced by `***` (the scheme of Authorization is kept). */
export const JournalEntrySchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'Increasing from 1 for the life of the server (a clear does not restart it).' }),
    at: Type.String({ format: 'date-time', description: 'When the request arrived, on the real clock (ISO 8601, UTC).' }),
    virtual_at: Type.Unsafe<string>({ ...DateTimeText, description: "When it arrived on the mock's virtual clock." }),
    method: Type.String(),
    path: Type.String({ description: 'The normalised path the router used (the raw target, cut at `?`, when it could not be read).' }),
    query: Type.String({ description: "The query string without `?` ('' for none), secret-named parameters redacted." }),
    status: nullable(Type.Integer(), 'The status answered; null when the connection was dropped without an answer (an injected fault).'),
    duration_ms: Type.Number({ minimum: 0 }),
    account: nullable(Type.String(), 'The account the bearer token acts for; null without a token the mock issued.'),
    headers: Type.Record(Type.String(), Type.String(), { description: 'Request headers, names in lower case, secrets redacted.' }),
    body: Type.Unknown({
      description: "The JSON body of a JSON call, secrets redacted; null otherwise (never a form, never the token endpoint's).",
    }),
    fault: nullable(
      Type.String(),
      "The fault injected into this request (POST /__mock/faults), if any; a proxy's: why the upstream gave no answer.",
    ),
    violations: Type.Optional(
      Type.Array(ExchangeViolationSchema, {
        description:
          "Only in a proxy's request log (`mkt mock proxy`): where the request or the upstream's answer differs from the document; empty when both conform.",
      }),
    ),
  },
  strict,
);
export type RequestLogEntry = Static<typeof JournalEntrySchema>;

/** One email the mock "sent". */
export const OutboxMessageSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'Increasing from 1 in this world (a reset starts again, a clear does not).' }),
    to: Type.String({ description: "The investor's email address." }),
    kind: Type.Union(NOTIFICATION_KINDS.map((k) => Type.Literal(k))),
    order_id: nullable(Type.String(), 'The order it is about; null for a validation error (no order was created).'),
    subject: Type.String(),
    text: Type.String(),
    sent_at: Type.Unsafe<string>({ ...DateTimeText, description: "When it was sent, on the mock's virtual clock." }),
  },
  strict,
);
export type OutboxMessage = Static<typeof OutboxMessageSchema>;
