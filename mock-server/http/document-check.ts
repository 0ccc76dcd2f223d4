/**
 * The OpenAPI document (src/contract/openapi/) as a checker, with ajv (JSON Schema 2020-12): the
 * operation a method and path reach, and what differs from it in a request (path, query, headers,
 * body and its media type) or an answer (status, media type, body). Shared by the mock's check of its
 * own answers (http/answer-check.ts) and the validating proxy (proxy/). Pure: no I/O; built once per
 * process and loaded only by those two, so ajv and the document cost nothing to a mock that does not check.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApiDocument } from '../../src/contract/openapi/document.js';

type Json = Record<string, unknown>;

/** An ajv error as kept: where, what, and ajv's parameters. */
export type SchemaError = Pick<ErrorObject, 'instancePath' | 'message' | 'params'>;

/** An operation of the document, found by method and path. */
export interface Operation {
  /** The path as the document spells it (`/v1/loans/{loan_id}`). */
  template: string;
  /** Lower case, as the document keys it (HEAD is checked as GET). */
  method: string;
  /** The path parameters' values, by name, as sent (still percent-encoded). */
  pathValues: Record<string, string>;
  spec: Json;
}

/** What differs in an answer: which part, what, and for a body ajv's errors and the start of the text. */
export interface AnswerMismatch {
  part: 'status' | 'content-type' | 'body';
  problem: string;
  errors?: SchemaError[];
  body?: string;
}

/** One difference of a request: a JSON pointer into the request (/path/NAME, /query/NAME, /headers/NAME, /body/...) and what is wrong. */
export interface FieldProblem {
  field: string;
  problem: string;
}

/** A request as the checker reads it: its path below any base path, query, content type and body text. */
export interface RequestParts {
  method: string;
  apiPath: string;
  query: URLSearchParams;
  headers: { get(name: string): string | null };
  body: string;
}

// ajv-formats is CommonJS with `module.exports = plugin`; under NodeNext its typed default is the module.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** One JSON-pointer token per argument, escaped (RFC 6901) and URI-encoded as a $ref fragment needs. */
const refPointer = (...tokens: string[]): string => tokens.map((t) => encodeURIComponent(escapeToken(t))).join('/');

/** A JSON-pointer token: `~` and `/` escaped (RFC 6901). */
export const escapeToken = (t: string): string => t.replace(/~/g, '~0').replace(/\//g, '~1');

/** The media type of a Content-Type value, in lower case, without parameters; null when absent. */
export function mediaType(contentType: string | null | undefined): string | null {
  if (contentType === null || contentType === undefined) return null;
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** The document, its operations and compiled validators: built once per process (`sharedDocumentChecker`). */
export class DocumentChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly doc = buildOpenApiDocument();
  private readonly routes: { re: RegExp; template: string; names: string[] }[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
    this.ajv.addSchema(this.doc, 'openapi.json');
    const paths = this.doc.paths as Record<string, Json>;
    this.routes = Object.keys(paths).map((template) => {
      const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const body = template
        .replace(/\/$/, '')
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace(/\{[^}]+\}/g, '([^/]+)');
      // As the router (http/router.ts) routes them: the normalised path (no trailing slash) exactly, letter case included.
      return { re: new RegExp(`^${body}$`), template, names };
    });
    // A literal segment before a parameter (`/v1/loans/payments` before `/v1/loans/{loan_number}`), whatever the document's order.
    this.routes.sort((a, b) => a.names.length - b.names.length);
  }

  /** The operation `method` reaches at `apiPath` (normalised, below any base path), or null. */
  operation(method: string, apiPath: string): Operation | null {
    const verb = method === 'HEAD' ? 'get' : method.toLowerCase();
    const paths = this.doc.paths as Record<string, Record<string, Json>>;
    for (const r of this.routes) {
      const m = r.re.exec(apiPath);
      const spec = m ? paths[r.template]![verb] : undefined;
      if (m && spec)
        return { template: r.template, method: verb, spec, pathValues: Object.fromEntries(r.names.map((n, i) => [n, m[i + 1]!])) };
    }
    return null;
  }

  /** The methods of the document's path that `apiPath` matches (upper case), or [] when none does. */
  methodsAt(apiPath: string): string[] {
    const paths = this.doc.paths as Record<string, Json>;
    const r = this.routes.find((x) => x.re.test(apiPath));
    return r ? Object.keys(paths[r.template]!).map((m) => m.toUpperCase()) : [];
  }

  private validator(ref: string): ValidateFunction {
    let v = this.validators.get(ref);
    if (!v) this.validators.set(ref, (v = this.ajv.compile({ $ref: `openapi.json#/${ref}` })));
    return v;
  }

  /**
   * What is wrong with one answer to `op` (null: a path no operation has, checked as the document's
   * unrouted answers), or null when nothing is. `body` is the text (undefined for HEAD or when not read).
   */
  checkAnswer(op: Operation | null, status: number, contentType: string | null, body: string | undefined): AnswerMismatch | null {
    const [response, ref] = op
      ? [
          (op.spec.responses as Record<string, Json>)[String(status)],
          refPointer('paths', op.template, op.method, 'responses', String(status)),
        ]
      : [
          (this.doc.components as Json & { responses: Record<string, Json> }).responses.Unrouted,
          refPointer('components', 'responses', 'Unrouted'),
        ];
    if (!response) return { part: 'status', problem: `status ${status} is not documented for ${op!.method.toUpperCase()} ${op!.template}` };
    const content = response.content as Record<string, unknown> | undefined;
    const type = mediaType(contentType);
    if (!content) return body ? { part: 'body', problem: 'a body where the document has none', body: body.slice(0, 300) } : null;
    if (type === null || !(type in content))
      return { part: 'content-type', problem: `content-type ${type ?? 'missing'}; the document has ${Object.keys(content).join(', ')}` };
    if (type !== 'application/json' || body === undefined) return null;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return { part: 'body', problem: 'the body is not JSON', body: body.slice(0, 300) };
    }
    const validate = this.validator(`${ref}/${refPointer('content', type, 'schema')}`);
    if (validate(value)) return null;
    return {
      part: 'body',
      problem: 'the body does not match the schema',
      body: body.slice(0, 300),
      errors: (validate.errors ?? []).map(({ instancePath, message, params }) => ({ instancePath, message, params })),
    };
  }

  /** Every difference of a request to `op` (found by the caller with `operation`): path parameters, query, header parameters, body. */
  checkRequest(op: Operation, req: RequestParts): FieldProblem[] {
    const out: FieldProblem[] = [];
    const base = refPointer('paths', op.template, op.method);
    const known = new Set<string>();
    const params = (op.spec.parameters as Json[] | undefined) ?? [];
    params.forEach((raw, i) => {
      const [param, ref] =
        typeof raw.$ref === 'string'
          ? [this.resolve(raw.$ref), raw.$ref.replace(/^#\//, '')]
          : [raw, `${base}/${refPointer('parameters', String(i))}`];
      const name = String(param.name);
      const where = String(param.in);
      const schema = (param.schema ?? {}) as Json;
      const field = `/${where === 'header' ? 'headers' : where}/${escapeToken(name)}`;
      let texts: string[];
      if (where === 'query') {
        known.add(name);
        texts = req.query.getAll(name);
      } else if (where === 'path') texts = op.pathValues[name] === undefined ? [] : [safeDecode(op.pathValues[name])];
      else if (where === 'header') texts = req.headers.get(name) === null ? [] : [req.headers.get(name)!];
      else return;
      if (texts.length === 0) {
        if (param.required === true) out.push({ field, problem: 'missing (required)' });
        return;
      }
      if (texts.length > 1 && schema.type !== 'array')
        out.push({ field, problem: `given ${texts.length} times; the document has one value` });
      const value = coerce(schema, texts.join(','));
      const validate = this.validator(`${ref}/schema`);
      if (!validate(value)) for (const p of fieldProblems(validate.errors ?? [])) out.push({ field: field + p.field, problem: p.problem });
    });
    for (const name of new Set(req.query.keys()))
      if (!known.has(name))
        out.push({ field: `/query/${escapeToken(name)}`, problem: `not a parameter of ${op.method.toUpperCase()} ${op.template}` });
    out.push(...this.checkBody(op, req, base));
    return out;
  }

  /** The request body against the operation's requestBody: presence, media type, schema (JSON, or a form read as an object of strings). */
  private checkBody(op: Operation, req: RequestParts, base: string): FieldProblem[] {
    const spec = op.spec.requestBody as Json | undefined;
    const type = mediaType(req.headers.get('content-type'));
    if (!spec)
      return req.body === ''
        ? []
        : [{ field: '/body', problem: `a body where the document has none for ${op.method.toUpperCase()} ${op.template}` }];
    if (req.body === '') return spec.required === true ? [{ field: '/body', problem: 'missing (required)' }] : [];
    const content = spec.content as Record<string, unknown>;
    if (type === null || !(type in content))
      return [
        {
          field: '/headers/content-type',
          problem: `content-type ${type ?? 'missing'}; the document has ${Object.keys(content).join(', ')}`,
        },
      ];
    let value: unknown;
    if (type === 'application/x-www-form-urlencoded') value = Object.fromEntries(new URLSearchParams(req.body));
    else if (type === 'application/json') {
      try {
        value = JSON.parse(req.body);
      } catch {
        return [{ field: '/body', problem: 'the body is not JSON' }];
      }
    } else return [];
    const validate = this.validator(`${base}/${refPointer('requestBody', 'content', type, 'schema')}`);
    if (validate(value)) return [];
    return fieldProblems(validate.errors ?? []).map((p) => ({ field: `/body${p.field}`, problem: p.problem }));
  }

  private resolve(ref: string): Json {
    let at: unknown = this.doc;
    for (const t of ref.replace(/^#\//, '').split('/')) at = (at as Json)[t.replace(/~1/g, '/').replace(/~0/g, '~')];
    return at as Json;
  }
}

/** A query or path value read as its schema's type (a form array split at commas), left as text when it does not read: the schema then says what is wrong. */
function coerce(schema: Json, text: string): unknown {
  if (schema.type === 'array') return text.split(',').map((t) => coerce((schema.items ?? {}) as Json, t));
  if (schema.type === 'integer' || schema.type === 'number') return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text) ? Number(text) : text;
  if (schema.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * ajv's errors as one problem per field (a JSON pointer below the value checked): a missing or unknown
 * property is named as the field itself, and the branches of a union (`nullable`: a type or null) say
 * together what the field may be ("must be number or null"), not each on its own.
 */
export function fieldProblems(errors: readonly SchemaError[]): FieldProblem[] {
  const byField = new Map<string, { types: string[]; others: string[]; union: string | null }>();
  for (const e of errors) {
    const params = e.params as Record<string, unknown>;
    let field = e.instancePath;
    let message = e.message ?? 'does not match';
    if (typeof params.missingProperty === 'string')
      [field, message] = [`${field}/${escapeToken(params.missingProperty)}`, 'missing (required)'];
    else if (typeof params.additionalProperty === 'string')
      [field, message] = [`${field}/${escapeToken(params.additionalProperty)}`, 'not in the document (no additional properties)'];
    let seen = byField.get(field);
    if (!seen) byField.set(field, (seen = { types: [], others: [], union: null }));
    if (e.message !== undefined && /^must match (a|exactly one) schema/.test(e.message)) seen.union = message;
    else if (typeof params.type === 'string' || Array.isArray(params.type)) seen.types.push(...[params.type as string | string[]].flat());
    else if (!seen.others.includes(message)) seen.others.push(message);
  }
  return [...byField].map(([field, s]) => {
    const parts = [...(s.types.length > 0 ? [`must be ${[...new Set(s.types)].join(' or ')}`] : []), ...s.others];
    return { field, problem: parts.length > 0 ? parts.join('; ') : (s.union ?? 'does not match') };
  });
}

let shared: DocumentChecker | undefined;

/** The process's one checker (the document and its compiled validators are built once, shared by every mock and proxy in it). */
export function sharedDocumentChecker(): DocumentChecker {
  return (shared ??= new DocumentChecker());
}
