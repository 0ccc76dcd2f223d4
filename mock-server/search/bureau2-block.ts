/**
 * A listing's full bureau2 block (`credit_bureau_values_bureau2`), built only when a search asks for it
 * (`include_credit_bureau_values=bureau2`) and kept with the row's bytes (listing-json.ts), never stored
 * in the world: 319 attributes drawn from a stream fixed by the listing, so the same listing always shows
 * the same block. The 18 attributes the indexed block also carries are copied from it; the rest follow the
 * forms of the 2025 answers (docs/fidelity.md): a trade family with no trade (its `01s` count 0) is -1 in
 * every other attribute, one with trades but none open is -3 in its balance and count figures (-2 in its
 * `101s` total), the `36s` months since a delinquency are 999 when there was none, public-record months
 * are -4 without a record, and the few attributes every real answer sends as -1 or -6 are those.
 */
import { BUREAU2_BLOCK_KEYS } from '../../src/contract/bureau2-block.js';
import { formatDateTime } from '../../src/contract/dates.js';
import { Rng } from '../kit/rng.js';
import type { Listing } from '../world/world.js';

/** Trade families: an attribute `<family><number><letter>` is about that family's trades. */
const FAMILIES = new Set(['at', 'au', 'bc', 'hi', 'hr', 'in', 'mt', 're', 'rt', 'st', 'co']);
/** Every real answer sends these as -1 (`g2xx` no trades of the kind, the 'a' public-record forms, cv01). */
const ALWAYS_NO_TRADE = new Set([
  'g104s',
  'g209s',
  'g210s',
  'g211s',
  'g212s',
  'g225s',
  'g228s',
  'g230s',
  'g233s',
  'g239s',
  'g099a',
  's207a',
  'cv01',
]);
/** Public-record figures: -4 (none on file) when the listing's indexed public records are 0. */
const PUBLIC_RECORD = new Set(['s063s', 's063a', 's204s', 's206s', 's209s', 's064a', 's071a']);
/** Figures of a family that cannot be computed when none of its trades is open (-3 in the real answers). */
const NEEDS_OPEN = new Set([3, 12, 24, 25, 27, 28, 29, 32, 34, 35, 57]);
/** Figures in dollars. */
const DOLLARS = new Set([28, 32, 35, 101, 102, 103]);
const ATTRIBUTE = /^([a-z]{2})(\d+)([a-z])$/;

/** The stream of a listing's block: fixed by its number and its report date. */
function streamOf(l: Listing): Rng {
  let h = Math.imul(l.listing_number ^ 0x5bd1e995, 0x01000193);
  h = Math.imul(h ^ (l.creditReportDate / 1000) ^ (h >>> 15), 0x2c1b3c6d);
  return new Rng((h ^ (h >>> 13)) >>> 0);
}

/**
 * A family's trades and open trades: all trades (`at`) as the indexed block has them; charge-offs (`co`) rare;
 * any other family has no trade one time in four, and trades none of them open one time in six.
 */
function familyCounts(rng: Rng, family: string, indexed: Record<string, number>): [number, number] {
  if (family === 'at') return [Math.max(0, indexed.at01s ?? 0), Math.max(0, indexed.at02s ?? 0)];
  const count = family === 'co' ? (rng.chance(0.9) ? 0 : rng.int(1, 3)) : rng.chance(0.25) ? 0 : rng.int(1, 12);
  return [count, count === 0 || rng.chance(1 / 6) ? 0 : rng.int(1, count)];
}

/** One attribute of a trade family with `count` trades, `open` of them open. */
function familyValue(rng: Rng, family: string, n: number, letter: string, count: number, open: number): number {
  if (count === 0) return -1;
  if (n === 2) return open;
  if (open === 0 && NEEDS_OPEN.has(n)) return -3;
  if (open === 0 && n === 101) return -2;
  if (n === 36) return rng.chance(0.85) ? 999 : rng.int(1, 84);
  if (n === 24 || n === 25 || n === 27) return rng.chance(0.1) ? -6 : rng.int(0, open);
  if (n === 57) return rng.chance(0.95) ? 0 : rng.int(1, 2000);
  if (n === 34) return family === 'mt' && letter === 'b' && rng.chance(0.15) ? -0.5 : rng.int(0, 110);
  if (n === 99) return rng.chance(0.5) ? -5 : rng.int(0, 40);
  if (n === 20 || n === 21) return rng.int(1, 400);
  if (DOLLARS.has(n)) return rng.int(0, family === 'mt' ? 500_000 : 60_000);
  return rng.int(0, count);
}

/** Any other attribute: a small count, months, or dollars for the `ap01` payments and the `cv19`–`cv24` totals. */
function otherValue(rng: Rng, key: string): number {
  if (key === 'cv04') return -6;
  if ((key === 'cv21' || key === 'cv24') && rng.chance(0.2)) return -2;
  if (key === 's061s' || key === 's062s') return rng.chance(0.7) ? 999 : rng.int(1, 120);
  if (key.endsWith('ap01') || /^cv(19|2\d)$/.test(key)) return rng.int(0, 5000);
  if (key === 'g106s' || key === 's004s') return rng.int(1, 480);
  return rng.int(0, 10);
}

/** The block as the search sends it: every key of BUREAU2_BLOCK_KEYS, in that order. */
export function bureau2Block(l: Listing, zone: string | undefined): Record<string, string | number> {
  const rng = streamOf(l);
  const indexed = l.bureau2;
  const publicRecords = indexed.g093s ?? 0;
  const counts = new Map<string, [number, number]>();
  const out: Record<string, string | number> = {};
  for (const key of BUREAU2_BLOCK_KEYS) {
    if (key === 'credit_report_date') out[key] = formatDateTime(l.creditReportDate, zone);
    else if (key === 'fico_score') out[key] = l.fico_score;
    else if (key in indexed) out[key] = indexed[key]!;
    else if (ALWAYS_NO_TRADE.has(key)) out[key] = -1;
    else if (PUBLIC_RECORD.has(key)) out[key] = publicRecords <= 0 ? -4 : rng.int(1, 120);
    else {
      const m = ATTRIBUTE.exec(key);
      if (m && FAMILIES.has(m[1]!)) {
        const family = m[1]!;
        let c = counts.get(family);
        if (!c) counts.set(family, (c = familyCounts(rng, family, indexed)));
        out[key] = m[2] === '01' ? c[0] : familyValue(rng, family, Number(m[2]), m[3]!, c[0], c[1]);
      } else out[key] = otherValue(rng, key);
    }
  }
  return out;
}
