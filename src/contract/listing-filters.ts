/**
 * What a listings filter parameter is and which values it takes, shared by the mock's filter
 * engine (400 naming the parameter) and the CLI's flags (exit 2 before anything is sent).
 */
import { BUREAU2_BY_SHORT, BUREAU2_ELEMENTS } from './bureau.js';
import { FILTER_DATE_FORMS, parseFilterDate } from './dates.js';
import {
  EMPLOYMENT_STATUSES,
  FICO_BINS,
  LISTING_CATEGORIES,
  LISTING_STATUSES,
  LISTING_TERMS,
  PLATFORM_RATINGS,
  RATING_ALIASES,
  US_STATES,
} from './enums.js';
import { FILTERABLE_FIELDS, LISTING_FIELD_BY_NAME, type FieldType } from './listing-fields.js';

/** A filter parameter resolved against the catalogue. */
export interface FilterParam {
  /** The listing field, or the bureau2 short name. */
  field: string;
  kind: 'boolean' | 'multivalue' | 'min' | 'max';
  type: FieldType;
  bureau: boolean;
}

/** Closed value lists of multivalue filters: a value outside them is refused. */
export const ALLOWED_VALUES: Readonly<Record<string, readonly string[]>> = {
  fico_score: FICO_BINS,
  platform_rating: PLATFORM_RATINGS,
  borrower_state: US_STATES,
  employment_status_description: EMPLOYMENT_STATUSES,
  listing_term: LISTING_TERMS.map(String),
  income_range: ['0', '1', '2', '3', '4', '5', '6', '7'],
  listing_category_id: Object.keys(LISTING_CATEGORIES),
  listing_status: Object.keys(LISTING_STATUSES),
};

/** Other spellings a closed list takes (upper case → the API's value): `NA` for the rating `N/A`. */
export const VALUE_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  platform_rating: RATING_ALIASES,
};

/** Every filter parameter name: booleans and multivalues by name, ranges with _min and _max, bureau2 short names. */
export function filterParamNames(): string[] {
  const out: string[] = [];
  for (const f of FILTERABLE_FIELDS) {
    if (f.filter === 'range') out.push(`${f.name}_min`, `${f.name}_max`);
    else out.push(f.name);
  }
  for (const e of BUREAU2_ELEMENTS) out.push(`${e.short}_min`, `${e.short}_max`);
  return out;
}

/** Resolves a parameter name, or null when it is not a filter. */
export function resolveFilterParam(name: string): FilterParam | null {
  const field = LISTING_FIELD_BY_NAME.get(name);
  if (field && (field.filter === 'boolean' || field.filter === 'multivalue')) {
    return { field: name, kind: field.filter, type: field.type, bureau: false };
  }
  const m = /^(.+)_(min|max)$/.exec(name);
  if (!m) return null;
  const base = m[1]!;
  const kind = m[2] as 'min' | 'max';
  const rangeField = LISTING_FIELD_BY_NAME.get(base);
  if (rangeField?.filter === 'range') return { field: base, kind, type: rangeField.type, bureau: false };
  if (BUREAU2_BY_SHORT.has(base)) return { field: base, kind, type: 'integer', bureau: true };
  return null;
}

/** Checks a boolean value (case-insensitive). Returns the problem, or null. */
export function checkBoolean(value: string): string | null {
  return /^(true|false)$/i.test(value.trim()) ? null : `must be true or false, got '${value}'`;
}

/**
 * Splits a multivalue and checks each part. Closed lists match case-insensitively (`a,b` is `A,B`) and
 * take their aliases (`NA` is `N/A`), so the parts come back in the API's own spelling. Returns the parts, or the problem.
 */
export function checkMultivalue(field: string, type: FieldType, value: string): string[] | string {
  const parts = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (parts.length === 0) return 'needs at least one value';
  const allowed = ALLOWED_VALUES[field];
  const out: string[] = [];
  for (const p of parts) {
    if (type === 'integer' && !/^-?\d+$/.test(p)) return `'${p}' is not a whole number`;
    const canonical = allowed ? (VALUE_ALIASES[field]?.[p.toUpperCase()] ?? allowed.find((a) => a.toUpperCase() === p.toUpperCase())) : p;
    if (canonical === undefined) return `unknown value '${p}'; expected one of ${allowed!.join(', ')}`;
    out.push(canonical);
  }
  return out;
}

/**
 * The lowest bound a numeric range filter takes: no catalogue number (amounts, rates, ratios, counts,
 * months, scores) is below 0, and a bureau2 element goes no lower than its special value (-4 "no
 * trades on file" is a value one may filter on). A bound below it can only be a slip.
 */
export function rangeFloor(p: FilterParam): number {
  const e = p.bureau ? BUREAU2_BY_SHORT.get(p.field) : undefined;
  return e ? Math.min(e.min, e.special?.value ?? e.min) : 0;
}

/** Reads a range bound: a number, or for date fields a date in `zone`. Returns the value, or the problem. */
export function checkRangeBound(p: FilterParam, text: string, zone: string | undefined): number | string {
  if (p.type === 'datetime' || p.type === 'date') {
    const ms = parseFilterDate(text, zone, p.kind === 'max');
    return ms ?? `'${text}' is not a date (${FILTER_DATE_FORMS})`;
  }
  const t = text.trim();
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(t)) return `'${text}' is not a number`;
  const n = Number(t);
  const floor = rangeFloor(p);
  if (n < floor) return `must be ${floor} or more, got '${text}'`;
  return n;
}
