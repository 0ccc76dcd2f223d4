/**
 * Checks every answer the mock sends against its OpenAPI document (src/contract/openapi/) with ajv
 * (JSON Schema 2020-12), and appends each mismatch as one JSON line to a file: the operation's
 * method and path, the status, what is wrong, and ajv's errors. On when the mock is started with
 * `checkAnswers` (MockOptions; `MKT_MOCK_CHECK_ANSWERS=FILE` for `mkt mock serve` and `mkt demo`);
 * the test suite turns it on everywhere and fails a file that recorded any (test/setup/answer-check.ts).
 * Loaded only then: ajv and the document cost nothing to a mock that does not check.
 */
import { appendFileSync } from 'node:fs';
import { sharedDocumentChecker, type DocumentChecker, type SchemaError } from './document-check.js';
import { underBase } from './router.js';

/** One answer that does not match the document. */
export interface Violation {
  method: string;
  /** The request path as received. */
  path: string;
  /** The operation's path template, when one matched. */
  operation: string | null;
  status: number;
  problem: string;
  errors?: SchemaError[];
  /** The start of the body, to see what was sent. */
  body?: string;
}

/** What is wrong with one answer as a Violation, or null. `apiPath` is `path` below the base path (null: outside it, so unrouted). */
function checkOne(
  doc: DocumentChecker,
  method: string,
  path: string,
  apiPath: string | null,
  status: number,
  contentType: string | null,
  body: string | undefined,
): Violation | null {
  const op = apiPath === null ? null : doc.operation(method, apiPath);
  const mismatch = doc.checkAnswer(op, status, contentType, body);
  if (!mismatch) return null;
  const { problem, errors, body: start } = mismatch;
  return {
    method,
    path,
    operation: op?.template ?? null,
    status,
    problem,
    ...(start !== undefined ? { body: start } : {}),
    ...(errors ? { errors: errors.slice(0, 10) } : {}),
  };
}

/** Checks answers and records mismatches in `file`. */
export class AnswerChecker {
  private readonly doc = sharedDocumentChecker();

  /** `basePath`: the mock's `--base-path` (http/router.ts); a path outside it is checked as unrouted. */
  constructor(
    readonly file: string,
    readonly basePath = '',
  ) {}

  /** Checks one answer to `method` `url`; a mismatch is appended to the file (synchronously: it is there before the answer leaves). */
  async check(method: string, url: URL, response: Response): Promise<Violation | null> {
    const type = response.headers.get('content-type');
    const json = type !== null && /json/i.test(type);
    const body = method === 'HEAD' || !json ? undefined : (serialisedText(response) ?? (await response.clone().text()));
    const violation = checkOne(this.doc, method, url.pathname, underBase(url.pathname, this.basePath), response.status, type, body);
    if (violation) appendFileSync(this.file, `${JSON.stringify(violation)}\n`);
    return violation;
  }
}

/** The text of an answer serialised once (the route helper's JsonAnswer keeps it beside its body), so it is not read back. */
function serialisedText(response: Response): string | undefined {
  const kept = (response as Response & { serialised?: unknown }).serialised;
  return typeof kept === 'string' ? kept : undefined;
}
