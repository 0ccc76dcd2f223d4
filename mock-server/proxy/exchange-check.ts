/**
 * One exchange through the proxy against the OpenAPI document (http/document-check.ts), both ways:
 * the request (a path and method the document has, path and query parameters, header parameters, the
 * body's media type and schema) and the upstream's answer (a status documented for that operation, its
 * media type, its body's schema). Each difference is one item naming the direction, the operation, the
 * field (a JSON pointer into the exchange) and what is wrong. Pure over the checker.
 */
import type { ExchangeViolation } from '../../src/contract/mock-inspect.js';
import { fieldProblems, type DocumentChecker, type Operation, type RequestParts } from '../http/document-check.js';

/** More differences than this in one exchange are summed up in one last item (a page of 500 listings can differ 500 times per field). */
export const MAX_ITEMS = 200;

/** What the proxy read of an exchange: the request as normalised, and the answer as it came (body decoded of any content coding). */
export interface Exchange extends RequestParts {
  /** Null when there is none to check: the request target could not be read (the upstream judges it), or no answer came. */
  answer: { status: number; contentType: string | null; body: string | undefined } | null;
  /** Why the answer's body was not read (too large, a coding that does not decode, cut short): a difference of its own. */
  unread?: string;
}

/** The operation's name in a difference: its method and path as the document spells them, or the method and path as sent. */
function operationName(method: string, apiPath: string, op: Operation | null): string {
  return op ? `${op.method.toUpperCase()} ${op.template}` : `${method} ${apiPath}`;
}

/** Every difference of `exchange` from the document, request first, at most MAX_ITEMS (the last then says how many more there were). */
export function checkExchange(doc: DocumentChecker, exchange: Exchange): ExchangeViolation[] {
  const { method, apiPath } = exchange;
  const op = doc.operation(method, apiPath);
  const operation = operationName(method, apiPath, op);
  const items: ExchangeViolation[] = [];
  const add = (direction: 'request' | 'answer', field: string, problem: string) => items.push({ direction, operation, field, problem });
  if (op) for (const p of doc.checkRequest(op, exchange)) add('request', p.field, p.problem);
  else {
    const methods = doc.methodsAt(apiPath);
    if (methods.length > 0) add('request', '/method', `the document has ${methods.join(', ')} at this path, not ${method}`);
    else add('request', '/path', 'no path of the document');
  }
  const answer = exchange.answer;
  if (answer) {
    const mismatch = doc.checkAnswer(op, answer.status, answer.contentType, method === 'HEAD' ? undefined : answer.body);
    if (mismatch?.errors) for (const p of fieldProblems(mismatch.errors)) add('answer', `/body${p.field}`, p.problem);
    else if (mismatch)
      add(
        'answer',
        mismatch.part === 'status' ? '/status' : mismatch.part === 'content-type' ? '/headers/content-type' : '/body',
        mismatch.problem,
      );
  }
  // An answer the proxy did not read is never passed as conforming.
  if (exchange.unread !== undefined) add('answer', '/body', exchange.unread);
  if (items.length <= MAX_ITEMS) return items;
  const kept = items.slice(0, MAX_ITEMS - 1);
  kept.push({
    direction: items[MAX_ITEMS - 1]!.direction,
    operation,
    field: '',
    problem: `and ${items.length - kept.length} more differences`,
  });
  return kept;
}
