/**
 * The tally a proxy prints when it stops: every difference it found, grouped by endpoint (method and
 * operation) and field, with counts. A field's array positions read `*`, so the
 * same field of every row is one line. Kept apart from the request log, which forgets its oldest entries.
 */
import type { ExchangeViolation } from '../../src/contract/mock-inspect.js';

/** Distinct (endpoint, field, problem) lines kept; past it, differences are counted but not told apart. */
const MAX_LINES = 2000;

/** One line of the summary. */
export interface TallyLine {
  operation: string;
  direction: 'request' | 'answer';
  /** The field with array positions as `*`. */
  field: string;
  problem: string;
  count: number;
}

/** A field's pointer with every array position as `*`. */
export function fieldPattern(field: string): string {
  return field.replace(/\/\d+(?=\/|$)/g, '/*');
}

/** Counts of differences by endpoint and field, over the whole run. */
export class ViolationTally {
  exchanges = 0;
  /** Exchanges with at least one difference. */
  differing = 0;
  /** Differences past MAX_LINES distinct lines. */
  untold = 0;
  private readonly lines = new Map<string, TallyLine>();

  /** Counts one exchange and its differences. */
  add(violations: readonly ExchangeViolation[]): void {
    this.exchanges++;
    if (violations.length > 0) this.differing++;
    for (const v of violations) {
      const field = fieldPattern(v.field);
      const key = JSON.stringify([v.operation, v.direction, field, v.problem]);
      const line = this.lines.get(key);
      if (line) line.count++;
      else if (this.lines.size < MAX_LINES)
        this.lines.set(key, { operation: v.operation, direction: v.direction, field, problem: v.problem, count: 1 });
      else this.untold++;
    }
  }

  /** The lines, by endpoint, then direction (request first), then field. */
  list(): TallyLine[] {
    return [...this.lines.values()].sort(
      (a, b) =>
        cmp(a.operation, b.operation)
        || cmp(a.direction === 'request' ? 0 : 1, b.direction === 'request' ? 0 : 1)
        || cmp(a.field, b.field)
        || cmp(a.problem, b.problem),
    );
  }

  /** The summary as printed on stop. */
  text(): string {
    const head = `proxy: ${this.exchanges} exchange(s), ${this.differing} with differences from the OpenAPI document`;
    const lines = this.list();
    if (lines.length === 0) return `${head}\n`;
    const out = [`${head}; by endpoint and field (array positions as *):`];
    let endpoint = '';
    for (const l of lines) {
      if (l.operation !== endpoint) out.push(`  ${(endpoint = l.operation)}`);
      out.push(`    ${String(l.count).padStart(5)} × ${l.direction} ${l.field || '(whole)'}: ${l.problem}`);
    }
    if (this.untold > 0) out.push(`  and ${this.untold} more difference(s) of kinds past the first ${MAX_LINES}`);
    return `${out.join('\n')}\n`;
  }
}

function cmp<T extends string | number>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
