/**
 * "Did you mean …?" for every name a person types: flags, commands, sort fields, strategy keys,
 * columns, config keys. A close spelling wins (edit distance, `-` and `_` alike); failing that, a
 * name the word is a whole part or the start of (`fico` → `fico_score`, `state` → `borrower_state`),
 * since people type the part of a long name they remember.
 */

/** Lower case, `-` read as `_`: `--Fico-Scor` and `fico_scor` are the same typo. */
const norm = (s: string): string => s.toLowerCase().replaceAll('-', '_');

/** Levenshtein distance. */
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

/** True when `word` is whole `_`/`.`-separated parts of `name`, or (3 characters or more) its start. */
function partOf(word: string, name: string): boolean {
  if (word.length >= 3 && name.startsWith(word)) return true;
  const parts = (s: string): string => `_${s.replaceAll('.', '_')}_`;
  return parts(name).includes(parts(word));
}

/**
 * The best matches of `candidates` for `word`, at most `limit`, best first: the closest by edit
 * distance when close enough, else those the word is part of, shortest first. Empty when none fits.
 * A leading `--` is compared as typed (a flag against flags).
 */
export function suggestions(word: string, candidates: readonly string[], limit = 3): string[] {
  const bare = (s: string): string => norm(s.replace(/^--?/, ''));
  const w = bare(word);
  if (w === '') return [];
  const unique = [...new Set(candidates)].filter((c) => c !== word);
  const within = Math.max(2, Math.floor(w.length / 3));
  const scored = unique.map((c) => ({ c, d: distance(w, bare(c)) })).filter((x) => x.d <= within && x.d < bare(x.c).length);
  if (scored.length > 0) {
    const best = Math.min(...scored.map((x) => x.d));
    return scored
      .filter((x) => x.d === best)
      .map((x) => x.c)
      .slice(0, limit);
  }
  const parts = unique.filter((c) => partOf(w, bare(c)));
  const shortest = Math.min(...parts.map((c) => bare(c).length));
  return parts.filter((c) => bare(c).length === shortest).slice(0, limit);
}

/** The one best match of `candidates` for `word`, or undefined. */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  return suggestions(word, candidates, 1)[0];
}

/** "a", "a or b", "one of a, b or c": the suggestions as a hint's words. */
export function alternatives(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  const last = names[names.length - 1]!;
  return `${names.length > 2 ? 'one of ' : ''}${names.slice(0, -1).join(', ')} or ${last}`;
}

/**
 * The hint for a sort field the listings search does not know, from its reader's problem ("unknown field 'x'"):
 * the near names among `sortable`, else where the names are listed; none for any other problem. One hint for
 * `mkt listings search --sort-by` and a strategy file's `sort_by`.
 */
export function sortFieldHint(problem: string, sortable: readonly string[]): string | undefined {
  const field = /^unknown field '(.*)'$/.exec(problem)?.[1];
  if (field === undefined) return undefined;
  const near = suggestions(field, sortable);
  return near.length > 0
    ? `did you mean ${alternatives(near)}? (\`mkt listings fields\` lists the field names)`
    : 'run `mkt listings fields` for the field names';
}
