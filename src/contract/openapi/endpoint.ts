/** How one endpoint is described: the entries of the tables in endpoints.ts and admin.ts. */
import type { TSchema } from '@sinclair/typebox';

/** An OpenAPI parameter object (query, path or header), schema as JSON Schema. */
export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  description?: string;
  required?: boolean;
  schema: TSchema | Record<string, unknown>;
  style?: 'form' | 'simple';
  explode?: boolean;
}

/** One answer of an endpoint: a JSON body, an API error (`{code, message}`) or OAuth error with its codes, an HTML page, or a redirect. */
export type Answer =
  | { description: string; json: TSchema }
  | { description: string; codes: readonly string[] }
  | { description: string; oauth: readonly string[] }
  | { description: string; html: true }
  | { description: string; redirect: true };

/** Who may call an endpoint. */
export type Access =
  /** Anyone (the token endpoint, the consent page, the document, the offer pages). */
  | { kind: 'open' }
  /** A live access token holding one of `scopes` ([]: any live token). */
  | { kind: 'bearer'; scopes: readonly string[] }
  /** A mock admin route: loopback callers of a loopback bind, else the admin token. */
  | { kind: 'admin' };

/** One endpoint: one place per endpoint, read by the document builder (document.ts). */
export interface Endpoint {
  method: 'get' | 'post' | 'delete';
  /** The OpenAPI path template, spelled as the spec does (a trailing slash is optional on the mock). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  access: Access;
  parameters?: readonly Parameter[];
  /** The request body: JSON unless `form`. */
  body?: { schema: TSchema; form?: boolean; required?: boolean; description?: string };
  /** Answers by status (the shared failures — 415, 401/403, 429, 500 — are added by the builder). */
  answers: Readonly<Record<number, Answer>>;
  /** The page of a list endpoint: adds offset and limit with these bounds. */
  page?: { default: number; max: number };
  /** Reads the `timezone` header (and answers 400 VAL0001 for an unknown zone). */
  zone?: boolean;
}

/** A JSON answer. */
export const json = (description: string, schema: TSchema): Answer => ({ description, json: schema });
/** The API's `{code, message}` error with one of `codes`. */
export const codes = (description: string, ...list: string[]): Answer => ({ description, codes: list });
/** An RFC 6749 `{error, error_description}` error with one of `errors`. */
export const oauth = (description: string, ...errors: string[]): Answer => ({ description, oauth: errors });
/** An HTML page. */
export const html = (description: string): Answer => ({ description, html: true });
/** A 302 redirect. */
export const redirect = (description: string): Answer => ({ description, redirect: true });

/** A path parameter. */
export const pathParam = (name: string, schema: TSchema | Record<string, unknown>, description: string): Parameter => ({
  name,
  in: 'path',
  required: true,
  schema,
  description,
});
/** A query parameter. */
export const queryParam = (name: string, schema: TSchema | Record<string, unknown>, description: string): Parameter => ({
  name,
  in: 'query',
  schema,
  description,
});

/** `sort_by`: clauses of a field, optionally `asc` or `desc`, joined by commas. */
export function sortByParam(fields: Iterable<string>, fallback: string): Parameter {
  const names = [...fields];
  return queryParam(
    'sort_by',
    { type: 'string', examples: [`${names[0]} desc`] },
    `A field, a space and asc or desc; several clauses joined by commas. Default: ${fallback}. Fields: ${names.join(', ')}.`,
  );
}
