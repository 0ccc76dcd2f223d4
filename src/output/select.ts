/**
 * The global `--columns` and `--query` options. `--columns a,b` picks fields in every format (the table's
 * and csv's columns; json and ndjson objects with only those keys). `--query` is a JMESPath expression
 * (the language of the AWS CLI's --query, through @jmespath-community/jmespath) applied to the JSON value
 * before it is printed: the whole value with -o json, each item with -o ndjson.
 */
import type * as JmesPath from '@jmespath-community/jmespath';
import type { JSONValue } from '@jmespath-community/jmespath';
import { UsageError } from '../errors.js';
import { requireCommonJs } from '../os/require-common-js.js';
import { suggest } from '../suggest.js';
import { LABELS } from './columns.js';

/** A comma-separated column list, each one of `known` (an unknown one gets a suggestion). */
export function parseColumns(text: string, known: readonly string[]): string[] {
  const cols = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (cols.length === 0) throw new UsageError('--columns needs at least one column name');
  for (const c of cols) {
    if (!known.includes(c)) {
      const near = suggest(c, known);
      throw new UsageError(`--columns: unknown column '${c}'`, near ? `did you mean '${near}'?` : undefined);
    }
  }
  return cols;
}

/** Checks `--columns` against the names a command can show; a table header typed for its field gets that field suggested. */
export function checkColumns(text: string, known: readonly string[]): string[] {
  for (const c of text.split(',').map((s) => s.trim())) {
    const owner = Object.keys(LABELS).find((k) => LABELS[k] === c);
    if (!known.includes(c) && owner && known.includes(owner)) {
      throw new UsageError(`--columns: unknown column '${c}'`, `did you mean '${owner}'? (the table shows it as '${c}')`);
    }
  }
  return parseColumns(text, known);
}

/** `item` with only the `columns` keys, in that order (a missing one is left out, as the API leaves out absent fields). */
export function pick(item: Record<string, unknown>, columns: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of columns) if (c in item) out[c] = item[c];
  return out;
}

/** A compiled `--query`: checked before anything is sent, so a bad expression is exit 2 with nothing done. */
export interface Query {
  readonly expression: string;
  /** The expression's value over `value`; an error while evaluating (a function given the wrong type) is exit 2 too. */
  apply(value: unknown): unknown;
}

/** Compiles `expression` (the library is loaded only when --query is used); a syntax error is exit 2 naming it and the problem. */
export async function parseQuery(expression: string): Promise<Query> {
  const { compile, search } = requireCommonJs<typeof JmesPath>('@jmespath-community/jmespath'); // its CommonJS build
  try {
    compile(expression);
  } catch (err) {
    throw new UsageError(`--query '${expression}': ${problem(err)}`, 'see https://jmespath.org for the expression language');
  }
  return {
    expression,
    apply(value) {
      try {
        return search(value as JSONValue, expression);
      } catch (err) {
        throw new UsageError(`--query '${expression}': ${problem(err)}`);
      }
    },
  };
}

const problem = (err: unknown): string => (err instanceof Error ? err.message : String(err));
