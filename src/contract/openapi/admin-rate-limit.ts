/**
 * The rate limits in the OpenAPI document: the service's throttled answer (429, the body of
 * rate-limits.ts `throttledBody`) on every route a limit applies to, and the mock's admin routes that
 * show and change the throttle (GET/POST /__mock/rate-limit, mock-server/routes/admin.ts).
 */
import { Type } from '@sinclair/typebox';
import { VALIDATION_ERROR } from '../errors.js';
import { MOCK_ADMIN_PREFIX } from '../mock-admin.js';
import { RATE_LIMITS } from '../rate-limits.js';
import { codes, json, type Endpoint } from './endpoint.js';

const strict = { additionalProperties: false } as const;
const Limit = Type.Integer({ minimum: 1, maximum: 100_000 });

/** The service's throttled answer: an `errors` array (not the `{code, message}` of the other errors). */
export const ThrottledSchema = Type.Object(
  {
    timestamp: Type.String({ description: 'When the request was refused (ISO 8601, UTC).' }),
    errors: Type.Array(Type.Object({ code: Type.Literal('too_many_requests'), message: Type.String() }, strict), { minItems: 1 }),
  },
  strict,
);

/** The 429 of a route a rate limit applies to, as the document's builder adds it (document.ts). */
export const THROTTLED_DESCRIPTION = `The caller (its bearer token; at the token endpoint its client_id) passed its group's limit: ${Object.entries(
  RATE_LIMITS,
)
  .map(([g, n]) => `${g} ${n}`)
  .join(
    ', ',
  )} requests a second (a sliding window of one second); Retry-After says when to retry. The mock: on for mock serve, --rate-limit to change.`;

/** The requests a second of each group. */
const LimitsSchema = Type.Object(
  Object.fromEntries(Object.keys(RATE_LIMITS).map((g) => [g, Limit])) as Record<keyof typeof RATE_LIMITS, typeof Limit>,
  strict,
);

/** The throttle as GET /__mock/state (`rate_limit`) and GET /__mock/rate-limit show it. */
export const RateLimitStateSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Requests past a limit are answered 429.' }),
    limits: LimitsSchema,
    window_ms: Type.Integer({ minimum: 1, description: 'The sliding window, in real milliseconds.' }),
    per: Type.String({ description: 'What a client is.' }),
  },
  strict,
);

/** What POST /__mock/rate-limit takes. */
const RateLimitRequestSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    limits: Type.Optional(Type.Partial(LimitsSchema, { description: 'Groups not named keep their limit.' })),
  },
  { ...strict, description: 'Every window starts over.' },
);

const ADMIN = { kind: 'admin' } as const;
const TAGS = ['mock-admin'];

/** GET and POST /__mock/rate-limit. */
export const RATE_LIMIT_ENDPOINTS: readonly Endpoint[] = [
  {
    method: 'get',
    path: `${MOCK_ADMIN_PREFIX}/rate-limit`,
    operationId: 'mockRateLimit',
    tags: TAGS,
    access: ADMIN,
    summary: 'The rate limits the mock throttles with, and whether it does',
    answers: { 200: json('The setting.', RateLimitStateSchema) },
  },
  {
    method: 'post',
    path: `${MOCK_ADMIN_PREFIX}/rate-limit`,
    operationId: 'mockSetRateLimit',
    tags: TAGS,
    access: ADMIN,
    summary: 'Turn the throttle on or off, or change a group’s limit',
    body: { schema: RateLimitRequestSchema, required: true },
    answers: {
      200: json('The setting now in force.', RateLimitStateSchema),
      400: codes('The body is not a JSON object, or a setting is bad (the message names it).', VALIDATION_ERROR),
    },
  },
];
