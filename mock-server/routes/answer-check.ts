/**
 * Checks every answer the mock sends against its OpenAPI document (src/contract/openapi/) with ajv
 * (JSON Schema 2020-12), and appends each mismatch as one JSON line to a file: the operation's
 * method and path, the status, what is wrong, and ajv's errors. On when the mock is started with
 * `checkAnswers` (MockOptions; `MKT_MOCK_CHECK_ANSWERS=FILE` for `mkt mock serve` and `mkt demo`);
 * the test suite turns it on everywhere and fails a file that recorded any (test/setup/answer-check.ts).
 * Loaded only then: ajv and the document cost nothing to a mock that does not check.
 */
import { appendFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApiDocument } from '../../src/contract/openapi/document.js';
import { JsonAnswer } from './route.js';
import { underBase } from '../http/router.js';

/** One answer that does not match the document. */
export interface Violation {
  method: string;
  /** The request path as received. */
  path: string;
  /** The operation's path template, when one matched. */
  operation: string | null;
  status: number;
  problem: string;
  errors?: Pick<ErrorObject, 'instancePath' | 'message' | 'params'>[];
  /** The start of the body, to see what was sent. */
  body?: string;
}

type Json = Record<string, unknown>;

/** An operation of the document, found by method and path. */
interface Operation {
  template: string;
  method: string;
  responses: Record<string, Json>;
}

// ajv-formats is CommonJS with `module.exports = plugin`; under NodeNext its typed default is the module.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const pointer = (...tokens: string[]): string => tokens.map((t) => encodeURIComponent(t.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/** The document, its operations and compiled validators: built once per process, shared by every mock in it. */
class DocumentChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly doc = buildOpenApiDocument();
  private readonly routes: { re: RegExp; template: string; params: number }[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
    this.ajv.addSchema(this.doc, 'openapi.json');
    const paths = this.doc.paths as Record<string, Json>;
    this.routes = Object.keys(paths).map((template) => {
      const body = template.replace(/\/$/, '').replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      // As the router (http/router.ts) routes them: the normalised path (no trailing slash) exactly, letter case included.
      return { re: new RegExp(`^${body}$`), template, params: (template.match(/\{/g) ?? []).length };
    });
    // A literal segment before a parameter (`/v1/loans/payments` before `/v1/loans/{loan_number}`), whatever the document's order.
    this.routes.sort((a, b) => a.params - b.params);
  }

  private operation(method: string, path: string): Operation | null {
    const verb = method === 'HEAD' ? 'get' : method.toLowerCase();
    const paths = this.doc.paths as Record<string, Record<string, Json>>;
    for (const r of this.routes) {
      const op = r.re.test(path) ? paths[r.template]![verb] : undefined;
      if (op) return { template: r.template, method: verb, responses: op.responses as Record<string, Json> };
    }
    return null;
  }

  private validator(ref: string): ValidateFunction {
    let v = this.validators.get(ref);
    if (!v) this.validators.set(ref, (v = this.ajv.compile({ $ref: `openapi.json#/${ref}` })));
    return v;
  }

  /**
   * What is wrong with one answer, or null. `apiPath` is `path` below the base path (null: outside it,
   * so unrouted); `body` is the text (undefined for HEAD or when not read).
   */
  check(method: string, path: string, apiPath: string | null, status: number, contentType: string | null, body: string | undefined): Violation | null {
    const op = apiPath === null ? null : this.operation(method, apiPath);
    const at = { method, path, operation: op?.template ?? null, status };
    const [response, ref] = op
      ? [op.responses[String(status)], pointer('paths', op.template, op.method, 'responses', String(status))]
      : [(this.doc.components as Json & { responses: Record<string, Json> }).responses.Unrouted, pointer('components', 'responses', 'Unrouted')];
    if (!response) return { ...at, problem: `status ${status} is not documented for ${method} ${op!.template}` };
    const content = response.content as Record<string, unknown> | undefined;
    const type = contentType?.split(';')[0]!.trim().toLowerCase() ?? null;
    if (!content) return body ? { ...at, problem: 'a body where the document has none', body: body.slice(0, 300) } : null;
    if (type === null || !(type in content)) return { ...at, problem: `content-type ${type ?? 'missing'}; the document has ${Object.keys(content).join(', ')}` };
    if (type !== 'application/json' || body === undefined) return null;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return { ...at, problem: 'the body is not JSON', body: body.slice(0, 300) };
    }
    const validate = this.validator(`${ref}/${pointer('content', type, 'schema')}`);
    if (validate(value)) return null;
    return {
      ...at, problem: 'the body does not match the schema', body: body.slice(0, 300),
      errors: (validate.errors ?? []).slice(0, 10).map(({ instancePath, message, params }) => ({ instancePath, message, params })),
    };
  }
}

let shared: DocumentChecker | undefined;

/** Checks answers and records mismatches in `file`. */
export class AnswerChecker {
  private readonly doc = (shared ??= new DocumentChecker());

  /** `basePath`: the mock's `--base-path` (http/router.ts); a path outside it is checked as unrouted. */
  constructor(readonly file: string, readonly basePath = '') {}

  /** Checks one answer to `method` `url`; a mismatch is appended to the file (synchronously: it is there before the answer leaves). */
  async check(method: string, url: URL, response: Response): Promise<Violation | null> {
    const type = response.headers.get('content-type');
    const json = type !== null && /json/i.test(type);
    const body = method === 'HEAD' || !json ? undefined : response instanceof JsonAnswer ? response.serialised : await response.clone().text();
    const violation = this.doc.check(method, url.pathname, underBase(url.pathname, this.basePath), response.status, type, body);
    if (violation) appendFileSync(this.file, `${JSON.stringify(violation)}\n`);
    return violation;
  }
}
