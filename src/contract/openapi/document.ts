/**
 * The OpenAPI 3.1 document of the API and the mock, built from the contract's schemas
 * (resources.ts) and the endpoint tables (endpoints.ts, admin.ts): served at GET /openapi.json,
 * printed by `mkt mock openapi`, and what every answer of the mock is checked against in the tests
 * (mock-server/http/answer-check.ts). A schema named in COMPONENTS is written once under
 * components/schemas and referred to wherever it is used.
 */
import type { TSchema } from '@sinclair/typebox';
import { LISTING_FIELD_BY_NAME } from '../listing-fields.js';
import { ADMIN_TOKEN_HEADER } from '../mock-admin.js';
import { VALIDATION_ERROR, SYSTEM_ERROR } from '../errors.js';
import {
  AccountSchema,
  BidCreatedSchema,
  BidReadSchema,
  BidRequestSchema,
  CodedErrorSchema,
  IndexedBureau2Schema,
  ListingSchema,
  LoanSchema,
  NoteSchema,
  OAuthErrorSchema,
  OfferAssertionSchema,
  OfferErrorAnswerSchema,
  OfferErrorSchema,
  OfferRequestSchema,
  OfferResponseSchema,
  OfferSchema,
  OrderCreatedSchema,
  OrderListingSchema,
  OrderRequestSchema,
  OrderSchema,
  PaymentSchema,
  TokenSchema,
} from '../resources.js';
import { JournalEntrySchema, OutboxMessageSchema } from '../mock-inspect-schemas.js';
import {
  WEBHOOK_ATTEMPT_HEADER,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_EVENT_TYPE_HEADER,
  WebhookDeliverySchema,
  WebhookEventSchema,
} from '../mock-webhooks.js';
import { ADMIN_ENDPOINTS, FaultsSchema, MockStateSchema } from './admin.js';
import { RateLimitStateSchema, THROTTLED_DESCRIPTION, ThrottledSchema } from './admin-rate-limit.js';
import { rateGroupOf } from '../rate-limits.js';
import type { Answer, Endpoint, Parameter } from './endpoint.js';
import { API_ENDPOINTS, GRANTS, SCOPES } from './endpoints.js';
import { VERSION } from '../../version.js';

/** A JSON value of the document. */
type Json = Record<string, unknown>;

/** The named schemas, written once under components/schemas. */
const COMPONENTS: Readonly<Record<string, TSchema>> = {
  Listing: ListingSchema,
  IndexedBureau2: IndexedBureau2Schema,
  OrderRequest: OrderRequestSchema,
  BidRequest: BidRequestSchema,
  OrderCreated: OrderCreatedSchema,
  BidCreated: BidCreatedSchema,
  Order: OrderSchema,
  Bid: BidReadSchema,
  OrderListing: OrderListingSchema,
  Loan: LoanSchema,
  Note: NoteSchema,
  Payment: PaymentSchema,
  Account: AccountSchema,
  OfferRequest: OfferRequestSchema,
  OfferResponse: OfferResponseSchema,
  Offer: OfferSchema,
  OfferError: OfferErrorSchema,
  OfferAssertion: OfferAssertionSchema,
  OfferErrorAnswer: OfferErrorAnswerSchema,
  Token: TokenSchema,
  CodedError: CodedErrorSchema,
  OAuthError: OAuthErrorSchema,
  MockState: MockStateSchema,
  Faults: FaultsSchema,
  Throttled: ThrottledSchema,
  RateLimit: RateLimitStateSchema,
  RequestLogEntry: JournalEntrySchema,
  OutboxMessage: OutboxMessageSchema,
  WebhookEvent: WebhookEventSchema,
  WebhookDelivery: WebhookDeliverySchema,
};

/** Every endpoint the document describes. */
export const ENDPOINTS: readonly Endpoint[] = [...API_ENDPOINTS, ...ADMIN_ENDPOINTS];

const refOf = new Map<object, string>(Object.entries(COMPONENTS).map(([name, schema]) => [schema, `#/components/schemas/${name}`]));

/** A schema as plain JSON: TypeBox's symbol keys dropped, a named schema (other than `root`) as a $ref. */
function plain(node: unknown, root?: object): unknown {
  if (Array.isArray(node)) return node.map((n) => plain(n));
  if (node === null || typeof node !== 'object') return node;
  const ref = node !== root ? refOf.get(node) : undefined;
  if (ref) return { $ref: ref };
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = plain(v);
  return out;
}

/** The Listing component with each field's description from the catalogue (before the format a date field notes). */
function describedListing(schema: Json): Json {
  const properties = schema.properties as Record<string, Json>;
  for (const [name, prop] of Object.entries(properties)) {
    const description = LISTING_FIELD_BY_NAME.get(name)?.description;
    if (description) prop.description = prop.description === undefined ? description : `${description} (${String(prop.description)})`;
  }
  properties.invested!.description = 'The caller invested in this listing.';
  properties.biddable!.description = 'The listing is active (bids are taken).';
  return schema;
}

/** The answers of one status, gathered from the endpoint and the shared failures. */
interface StatusAnswers {
  descriptions: string[];
  /** Schemas by media type. */
  content: Map<string, unknown[]>;
  codes: Set<string>;
  oauth: Set<string>;
  redirect: boolean;
  retryAfter: boolean;
}

const errorSchema = (base: string, field: string, values: Set<string>): Json => ({
  allOf: [{ $ref: `#/components/schemas/${base}` }, { properties: { [field]: { enum: [...values].sort() } } }],
});

function add(to: Map<number, StatusAnswers>, status: number, answer: Answer): void {
  let a = to.get(status);
  if (!a)
    to.set(status, (a = { descriptions: [], content: new Map(), codes: new Set(), oauth: new Set(), redirect: false, retryAfter: false }));
  if (!a.descriptions.includes(answer.description)) a.descriptions.push(answer.description);
  const push = (type: string, schema: unknown) => a.content.set(type, [...(a.content.get(type) ?? []), schema]);
  if ('json' in answer) push('application/json', plain(answer.json));
  else if ('codes' in answer) answer.codes.forEach((c) => a.codes.add(c));
  else if ('oauth' in answer) answer.oauth.forEach((c) => a.oauth.add(c));
  else if ('html' in answer) push('text/html', { type: 'string' });
  else a.redirect = true;
}

/** The failures an endpoint shares with others of its kind. */
function sharedAnswers(e: Endpoint, to: Map<number, StatusAnswers>): void {
  add(to, 400, { description: 'The request target, a path parameter or the body cannot be read.', codes: [VALIDATION_ERROR] });
  add(to, 500, { description: 'A server fault (SYS0001).', codes: [SYSTEM_ERROR] });
  add(to, 417, { description: 'An Expect header other than 100-continue.', codes: [VALIDATION_ERROR] });
  add(to, 503, {
    description: 'The mock holds too many connections or request bytes at once (Retry-After says when to retry).',
    codes: ['SYS0503'],
  });
  add(to, 503, {
    description: 'With --state: the mock cannot write its operation log (a full disk, a read-only folder); the change was not made.',
    codes: ['STATE_WRITE_FAILED'],
  });
  add(to, 503, {
    description:
      'With --state: a failed write of the operation log could not be rolled back either; the mock takes no change until it is restarted.',
    codes: ['STATE_ROLLBACK_FAILED'],
  });
  to.get(503)!.retryAfter = true;
  add(to, 421, {
    description:
      'The Host names a host the mock does not serve (loopback names and addresses, the bound address and --allow-host names are served).',
    codes: ['MISDIRECTED_REQUEST'],
  });
  add(to, 400, { description: 'The Host cannot be read, or is given twice.', codes: [VALIDATION_ERROR] });
  if (Object.values(e.answers).some((a) => 'html' in a)) add(to, 500, { description: 'A server fault (an error page).', html: true });
  if (e.zone) add(to, 400, { description: 'The timezone header names an unknown zone.', codes: [VALIDATION_ERROR] });
  if (e.page) add(to, 400, { description: 'offset or limit is not a whole number in range.', codes: [VALIDATION_ERROR] });
  if (e.body) add(to, 413, { description: 'The body is larger than 1 MiB.', codes: [VALIDATION_ERROR] });
  if (e.body && !e.body.form)
    add(to, 415, { description: 'The body is declared as something other than JSON.', codes: ['UNSUPPORTED_MEDIA_TYPE'] });
  if (e.access.kind === 'bearer') {
    add(to, 401, { description: 'The access token is missing, unknown or expired.', oauth: ['invalid_token'] });
    add(to, 403, { description: 'The grant does not hold the scope this call needs.', oauth: ['insufficient_scope'] });
  }
  if (e.access.kind === 'admin') {
    add(to, 404, {
      description: 'The caller may not reach admin routes (the same 404 as for a path that does not exist).',
      codes: ['NOT_FOUND'],
    });
    add(to, 403, {
      description: "A page of another origin: Sec-Fetch-Site other than same-origin or none, or an Origin other than the mock's own.",
      codes: ['FORBIDDEN_ORIGIN'],
    });
    if (e.method !== 'get')
      add(to, 415, { description: 'A body not declared as JSON (no content type included).', codes: ['UNSUPPORTED_MEDIA_TYPE'] });
  } else {
    add(to, 429, { description: 'An injected fault: too many requests (Retry-After says when to retry).', codes: ['SYS0429'] });
    // The service's own throttle, with its body: every route a rate limit applies to (rate-limits.ts).
    if (rateGroupOf(e.path) !== null) add(to, 429, { description: THROTTLED_DESCRIPTION, json: ThrottledSchema });
    to.get(429)!.retryAfter = true;
  }
}

function responses(e: Endpoint): Json {
  const by = new Map<number, StatusAnswers>();
  for (const [status, answer] of Object.entries(e.answers)) add(by, Number(status), answer);
  sharedAnswers(e, by);
  const out: Json = {};
  for (const status of [...by.keys()].sort((x, y) => x - y)) {
    const a = by.get(status)!;
    if (a.codes.size > 0)
      a.content.set('application/json', [...(a.content.get('application/json') ?? []), errorSchema('CodedError', 'code', a.codes)]);
    if (a.oauth.size > 0)
      a.content.set('application/json', [...(a.content.get('application/json') ?? []), errorSchema('OAuthError', 'error', a.oauth)]);
    const response: Json = { description: a.descriptions.join(' ') };
    if (a.content.size > 0) {
      response.content = Object.fromEntries(
        [...a.content].map(([type, schemas]) => [type, { schema: schemas.length === 1 ? schemas[0] : { anyOf: schemas } }]),
      );
    }
    if (a.redirect) response.headers = { Location: { required: true, schema: { type: 'string', format: 'uri' } } };
    if (a.retryAfter) response.headers = { 'Retry-After': { required: true, schema: { type: 'integer', minimum: 0 } } };
    out[String(status)] = response;
  }
  return out;
}

function parameter(p: Parameter): Json {
  return plain({ ...p, ...(p.in === 'path' ? { required: true } : {}) }) as Json;
}

function security(e: Endpoint): Json[] {
  if (e.access.kind === 'open') return [];
  if (e.access.kind === 'admin') return [{}, { adminToken: [] }, { adminTokenHeader: [] }];
  return e.access.scopes.length === 0 ? [{ platformAuth: [] }] : e.access.scopes.map((s) => ({ platformAuth: [s] }));
}

function operation(e: Endpoint): Json {
  const parameters: Json[] = (e.parameters ?? []).map(parameter);
  if (e.page) {
    parameters.push(
      { name: 'offset', in: 'query', description: 'Index of the first item.', schema: { type: 'integer', minimum: 0, default: 0 } },
      {
        name: 'limit',
        in: 'query',
        // No `maximum`: the service takes a larger limit and clamps it (DESIGN.md), and clients rely on that
        // (investpeer-prosper-py asks for limit=5000); a validator built from this document must take it too.
        description: `Items per page, at most ${e.page.max}: a larger limit is taken and clamped to ${e.page.max}.`,
        schema: { type: 'integer', minimum: 1, default: e.page.default },
      },
    );
  }
  if (e.zone) parameters.push({ $ref: '#/components/parameters/timezone' });
  const op: Json = { operationId: e.operationId, summary: e.summary, tags: [...e.tags] };
  if (e.description) op.description = e.description;
  if (parameters.length > 0) op.parameters = parameters;
  if (e.body) {
    const type = e.body.form ? 'application/x-www-form-urlencoded' : 'application/json';
    op.requestBody = { required: e.body.required ?? false, content: { [type]: { schema: plain(e.body.schema) } } };
  }
  op.responses = responses(e);
  op.security = security(e);
  return op;
}

const TAGS = [
  { name: 'listings', description: 'Search listings (under {root_url}, path segment v2).' },
  { name: 'orders', description: 'Investment orders and their bids.' },
  { name: 'loans', description: 'Loans the caller holds notes in.' },
  { name: 'notes', description: "The caller's notes (its share of each loan)." },
  { name: 'accounts', description: "The investor's account." },
  { name: 'offers', description: 'Personalized loan offers through a partner, and the pages behind their links.' },
  { name: 'authorization', description: 'The authorization-key flow: an OAuth 2.0 extension for third-party agent clients.' },
  { name: 'mock', description: 'Served by the mock, outside the spec.' },
  {
    name: 'mock-admin',
    description:
      "The mock's admin routes, outside the spec: loopback callers of a loopback bind, else the admin token; never a page of another origin (403); off with --no-admin.",
  },
];

const header = (name: string, description: string): Json => ({
  name,
  in: 'header',
  required: true,
  schema: { type: 'string' },
  description,
});

/** What `mock serve --webhook URL` POSTs (the mock's extension: the marketplace's notifications are emails). */
const WEBHOOKS: Json = {
  orderNotification: {
    post: {
      operationId: 'mockWebhook',
      tags: ['mock-admin'],
      summary: 'An outbox event (order_validation_error, order_processed, order_completed), POSTed to each --webhook URL',
      description:
        'Signed: Mkt-Signature is t=<unix seconds>,v1=<hex HMAC-SHA256 of t + "." + the raw body under the webhook secret>. '
        + 'Retried on a failure or a non-2xx answer (after 1, 2, 4 and 8 s by default) with the same body and event id; each attempt is listed by GET /__mock/webhooks.',
      parameters: [
        header('mkt-signature', 't=<unix seconds>,v1=<hex HMAC-SHA256 of t.body>'),
        header(WEBHOOK_EVENT_ID_HEADER, 'The event id, the same on every attempt (drop repeats by it).'),
        header(WEBHOOK_EVENT_TYPE_HEADER, 'The event type.'),
        header(WEBHOOK_ATTEMPT_HEADER, 'The attempt, from 1.'),
      ],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } } },
      responses: {
        '2XX': { description: 'Received: no retry.' },
        default: { description: 'Anything else, or no answer in time: retried until the attempts run out.' },
      },
    },
  },
};

/** The OpenAPI 3.1 document; `origin` is the server's (relative when left out). */
export function buildOpenApiDocument(origin?: string): Json {
  const paths: Record<string, Json> = {};
  for (const e of ENDPOINTS) (paths[e.path] ??= {})[e.method] = operation(e);
  const schemas: Json = {};
  for (const [name, schema] of Object.entries(COMPONENTS)) schemas[name] = plain(schema, schema);
  describedListing(schemas.Listing as Json);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Investment marketplace API (mkt mock)',
      version: VERSION,
      description:
        'The marketplace API as the bundled mock serves it: {base_url} is the server URL plus /v1, {root_url} and {auth_url} the server URL (the origin, and the prefix of mkt mock serve --base-path). The mock serves these paths under the server URL only, letter case included (another prefix or case is a 404); a trailing slash, repeated slashes, dot segments and escaped unreserved characters are read as their plain form. Date-times are yyyy-MM-dd HH:mm:ss ±hhmm (UTC unless the timezone header names a zone), dates yyyy-MM-dd; money and rates are decimals (rates as fractions). Generated from src/contract/.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: origin ?? '/', description: 'The mock (mkt mock serve).' }],
    tags: TAGS,
    paths,
    webhooks: WEBHOOKS,
    components: {
      schemas,
      responses: {
        Unrouted: {
          description:
            'Any path no route serves (404 NOT_FOUND naming the method and path), a known path with another method (405 METHOD_NOT_ALLOWED with Allow), a request target, Host or body that cannot be read (400 VAL0001, 413), a Host the mock does not serve (421 MISDIRECTED_REQUEST), an admin path asked by a page of another origin (403 FORBIDDEN_ORIGIN) or with a body not declared JSON (415 UNSUPPORTED_MEDIA_TYPE), an Expect header other than 100-continue (417 VAL0001), too much load at once (503 SYS0503).',
          content: {
            'application/json': {
              schema: errorSchema(
                'CodedError',
                'code',
                new Set([
                  'NOT_FOUND',
                  'METHOD_NOT_ALLOWED',
                  VALIDATION_ERROR,
                  'SYS0503',
                  'MISDIRECTED_REQUEST',
                  'FORBIDDEN_ORIGIN',
                  'UNSUPPORTED_MEDIA_TYPE',
                ]),
              ),
            },
          },
        },
      },
      parameters: {
        timezone: {
          name: 'timezone',
          in: 'header',
          required: false,
          schema: { type: 'string', examples: ['America/New_York'] },
          description: 'Full timezone name; returned dates are in it (UTC when absent). An unknown zone is 400 VAL0001.',
        },
      },
      securitySchemes: {
        platformAuth: {
          type: 'oauth2',
          description:
            'The authorization-key flow, an extension of OAuth 2.0: send the browser to /oauth with response_type=auth_key; the redirect carries auth_key, state and scope; exchange the key at the token endpoint with grant_type=authorization_key (client_id, client_secret, auth_key), refresh with grant_type=refresh_token. Resource calls send Authorization: bearer <access_token>. '
            + `A read/write grant yields ${GRANTS.read_write.join(', ')}; a read-only one ${GRANTS.read_only.join(', ')}.`,
          flows: {
            authorizationCode: {
              authorizationUrl: '/oauth',
              tokenUrl: '/v1/security/oauth/token',
              refreshUrl: '/v1/security/oauth/token',
              scopes: SCOPES,
            },
          },
        },
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The admin token of a mock bound off loopback (printed at start, or --admin-token).',
        },
        adminTokenHeader: { type: 'apiKey', in: 'header', name: ADMIN_TOKEN_HEADER, description: 'The admin token, in its own header.' },
      },
    },
  };
}
