/** Checks of option values shared by the commands; every failure is a UsageError (exit 2). */
import { UsageError } from '../errors.js';

/** The parsed options of a command, typed by its definition (for helpers that take them from the action). */
export type OptionsOf<C extends { opts(): unknown }> = ReturnType<C['opts']>;

/** A whole number of at least `min`. */
export function parseCount(flag: string, text: string, min: number): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < min) {
    throw new UsageError(`${flag} must be a whole number${min > 0 ? ` of at least ${min}` : ' (0 or more)'}, got '${text}'`);
  }
  return Number(text);
}

/** A comma-separated column list, each one of `known` (an unknown one gets a suggestion). */
export function parseColumns(text: string, known: readonly string[]): string[] {
  const cols = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (cols.length === 0) throw new UsageError('--columns needs at least one column name');
  for (const c of cols) {
    if (!known.includes(c)) {
      const near = suggest(c, known);
      throw new UsageError(`--columns: unknown column '${c}'`, near ? `did you mean '${near}'?` : undefined);
    }
  }
  return cols;
}

/** The closest of `candidates` to `word` by edit distance, when close enough. */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const c of candidates) {
    const d = distance(word, c);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}
