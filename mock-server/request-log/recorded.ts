/**
 * An entry of the request log as recorded (request-log.ts), before it is first read and redacted, and what
 * the request log compares to share one entry's parts with the next.
 */
import type { ExchangeViolation } from '../../src/contract/mock-inspect.js';

/**
 * An entry as recorded: what was seen, and the secrets known then that a later read may no longer know.
 * Flat, one object besides the headers, its times in the request log's typed array (a time in a field is an
 * object of its own): every entry outlives a young-generation collection or two, and each object it holds
 * is copied by each (with the arrival, what was seen and the times as objects of their own, an entry kept
 * 520 bytes, now 320, and the request log tripled the collection pauses of a loaded mock).
 */
export interface Recorded {
  id: number;
  account: string | null;
  method: string;
  path: string;
  search: string;
  status: number | null;
  fault: string | null;
  /** The body text when it is redacted at read (`body` undefined); null otherwise. */
  bodyText: string | null;
  /** Header pairs (node's header object is never changed once parsed; Fetch's Headers are copied). */
  headers: [string, string | string[] | undefined][] | Record<string, string | string[] | undefined>;
  /** The query and body already redacted when a scan could not see every token in their raw text. */
  query: string | null;
  body: unknown;
  few: readonly string[];
  /** The live tokens found in the request's text; null when none (most requests). */
  tokens: readonly string[] | null;
  /** A proxy's differences (undefined in a mock's request log: its entries have no such field). */
  violations: ExchangeViolation[] | undefined;
}

/** A Recorded to fill in (every field set, so that all entries share one shape). */
export function blankRecorded(): Recorded {
  return {
    id: 0,
    account: null,
    method: '',
    path: '',
    search: '',
    status: null,
    fault: null,
    bodyText: null,
    headers: [],
    query: null,
    body: undefined,
    few: [],
    tokens: null,
    violations: undefined,
  };
}

/** Whether two lists of strings hold the same strings in the same order. */
export function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether two requests' headers (pairs, or node's object) hold the same names and values in the same order. */
export function sameHeaders(a: Recorded['headers'], b: Recorded['headers'], bNames: readonly string[]): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i]![0] !== b[i]![0] || !sameValue(a[i]![1], b[i]![1])) return false;
    return true;
  }
  let i = 0;
  for (const name in a) if (name !== bNames[i++] || !sameValue(a[name], b[name])) return false;
  return i === bNames.length;
}

/** The names of a request's headers in order (node's object; none for pairs, which sameHeaders reads as they are). */
export function headerNames(headers: Recorded['headers']): readonly string[] {
  return Array.isArray(headers) ? [] : Object.keys(headers);
}

/** Whether two header values are the same (a repeated header's list, value by value). */
function sameValue(a: string | string[] | undefined, b: string | string[] | undefined): boolean {
  return a === b || (Array.isArray(a) && Array.isArray(b) && sameList(a, b));
}
