/** Checks of option values shared by the commands; every failure is a UsageError (exit 2). */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
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

/**
 * A page size for an endpoint with this maximum. The API would clamp a larger one and answer with
 * fewer items than asked; a script is better told at once.
 */
export function parseLimit(text: string, page: { readonly max: number }): number {
  const n = parseCount('--limit', text, 1);
  if (n > page.max)
    throw new UsageError(`--limit must be at most ${page.max}, the marketplace's largest page for this list; got '${text}'`);
  return n;
}

/** The query of one page of a list from `--sort-by`, `--limit` (at most the endpoint's maximum) and `--offset`, added to `q`. */
export function pageQuery(
  opts: { sortBy?: string; limit?: string; offset?: string },
  page: { readonly max: number },
  q = new URLSearchParams(),
): URLSearchParams {
  if (opts.sortBy) q.set('sort_by', opts.sortBy);
  if (opts.limit !== undefined) q.set('limit', String(parseLimit(opts.limit, page)));
  if (opts.offset !== undefined) q.set('offset', String(parseCount('--offset', opts.offset, 0)));
  return q;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Refuses an order id that is not a UUID, as the marketplace's order ids are, before anything is sent. */
export function checkOrderId(text: string): void {
  if (!UUID_RE.test(text)) throw new UsageError(`order id must be a UUID (as \`mkt order list\` shows it), got '${text}'`);
}

/**
 * Lets every long flag of `cmd` be typed in either spelling, `--fico_score` or `--fico-score`, as the
 * API's names are snake case and CLI habit is kebab case. Commander matches an option by its `short`
 * or `long` flag (two long flags are its own form of alias) while help prints `flags`, so help still
 * lists one spelling per flag.
 */
export function acceptBothSpellings(cmd: CommandUnknownOpts): void {
  const taken = new Set(cmd.options.flatMap((o) => [o.short, o.long]));
  for (const o of cmd.options) {
    if (o.short !== undefined || o.long === undefined) continue;
    const name = o.long.slice(2);
    const other = `--${name.includes('_') ? name.replaceAll('_', '-') : name.replaceAll('-', '_')}`;
    if (other === o.long) continue;
    // Two flags spelt alike would make one of them unreachable: a programming error, not a user's.
    if (taken.has(other)) throw new Error(`flag ${other} of ${cmd.name()} clashes with another spelling`);
    o.short = other;
    taken.add(other);
  }
}

/**
 * The flags of `catalogue` (names, either spelling) that `argv` names, when that is all a run needs of them: the
 * others would change nothing in how commander reads argv (none has a default, a short flag or a conflict), and
 * defining the search's 109 took a few percent of a search's start-up. Undefined (define them all) when the run
 * may show them (a help flag or word, anywhere) or meets a flag that is neither theirs nor one of `commands`' own:
 * an unknown flag's suggestion is drawn from every flag, as before.
 */
export function namedOnly(
  argv: readonly string[],
  catalogue: readonly string[],
  commands: readonly (CommandUnknownOpts | null | undefined)[],
): Set<string> | undefined {
  const theirs = new Map<string, string>();
  for (const name of catalogue) for (const flag of spellings(`--${name}`)) theirs.set(flag, name);
  const known = new Set<string>();
  for (const cmd of commands)
    for (const o of cmd?.options ?? []) for (const flag of [o.short, ...(o.long ? spellings(o.long) : [])]) if (flag) known.add(flag);
  const named = new Set<string>();
  for (const arg of argv) {
    // Not the end of the flags: `--` may be a flag's value (`--limit -- --fico_score=1` names fico_score).
    if (arg === '--') continue;
    if (arg === 'help' || arg === '-h' || arg === '--help') return undefined;
    if (!arg.startsWith('-') || arg === '-') continue;
    const flag = arg.startsWith('--') ? arg.split('=')[0]! : arg.slice(0, 2);
    const name = theirs.get(flag);
    if (name !== undefined) named.add(name);
    else if (!known.has(flag)) return undefined;
  }
  return named;
}

/** A long flag and its other spelling (acceptBothSpellings): `--fico_score`, `--fico-score`. */
function spellings(long: string): string[] {
  const name = long.slice(2);
  return [long, `--${name.includes('_') ? name.replaceAll('_', '-') : name.replaceAll('-', '_')}`];
}

/** The closest of `candidates` to `word` (one helper for every name typed: src/suggest.ts). */
export { suggest } from '../suggest.js';

/**
 * The request log's size flag: `--request-log-size`, or `--journal-size`, its name before the request log had
 * one word (kept, hidden from help, so scripts that name it go on working). Exit 2 past `max`.
 */
export function requestLogSizeOption(opts: { requestLogSize: string; journalSize?: string | undefined }, max: number): number {
  const [flag, text] = opts.journalSize !== undefined ? ['--journal-size', opts.journalSize] : ['--request-log-size', opts.requestLogSize];
  const size = parseCount(flag, text, 0);
  if (size > max) throw new UsageError(`${flag} must be at most ${max}, got '${text}'`);
  return size;
}
