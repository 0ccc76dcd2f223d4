/**
 * One record as `key: value` lines grouped under section headings, a nested object as its name over
 * its own indented fields (`credit_bureau_values_bureau2_indexed`, then `g980s: 2`) instead of one JSON
 * cell hundreds of columns wide; fitted to the terminal's width with every value whole.
 */
import { display } from './columns.js';
import { wrapText } from './table.js';

/** A heading and the fields under it: named, or matched by a pattern. */
export interface Section {
  title: string;
  fields: readonly string[] | RegExp;
}

/** The sections of a listing, in the order a person reads one; a field in none of them goes under "other". */
export const LISTING_SECTIONS: readonly Section[] = [
  {
    title: 'listing',
    fields: [
      'listing_number',
      'listing_title',
      'listing_status',
      'listing_status_reason',
      'listing_amount',
      'amount_funded',
      'amount_remaining',
      'percent_funded',
      'amount_participation',
      'funding_threshold',
      'partial_funding_indicator',
      'listing_term',
      'listing_monthly_payment',
      'listing_category_id',
      'listing_purpose',
      'investment_typeid',
      'investment_type_description',
      'investment_product_id',
      'loan_product_id',
      'verification_stage',
      'listing_creation_date',
      'listing_start_date',
      'listing_end_date',
      'listing_duration',
      'whole_loan_start_date',
      'whole_loan_end_date',
      'last_updated_date',
      'loan_number',
      'loan_origination_date',
      'biddable',
      'invested',
      'channel_code',
    ],
  },
  {
    title: 'rates',
    fields: [
      'borrower_rate',
      'borrower_apr',
      'lender_yield',
      'effective_yield',
      'estimated_loss_rate',
      'estimated_return',
      'historical_return',
      'historical_return_10th_pctl',
      'historical_return_90th_pctl',
    ],
  },
  {
    title: 'borrower',
    fields: [
      'member_key',
      'borrower_state',
      'occupation',
      'employment_status_description',
      'months_employed',
      'income_range',
      'income_range_description',
      'income_verifiable',
      'stated_monthly_income',
      'estimated_monthly_housing_expense',
      'has_mortgage',
      'dti_wplatform_loan',
      'lender_indicator',
      'co_borrower_application',
      'combined_dti_wplatform_loan',
      'combined_stated_monthly_income',
      'borrower_listing_description',
    ],
  },
  { title: 'credit', fields: ['platform_rating', 'platform_score', 'fico_score', 'decision_bureau'] },
  { title: 'prior loans', fields: /^(prior_platform_|max_prior_|min_prior_)/ },
  { title: 'bureau', fields: /^credit_bureau_values_/ },
];

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const inSection = (s: Section, field: string): boolean =>
  Array.isArray(s.fields) ? s.fields.includes(field) : (s.fields as RegExp).test(field);
const len = (s: string): number => [...s].length;

/** A field name on lines of at most `room`, broken after its underscores where it can be. */
const wrapName = (name: string, room: number): string[] =>
  wrapText(name.replace(/_/g, '_ '), Math.max(1, room)).map((l) => l.replace(/_ /g, '_'));

/** A run of `key: value` lines at one indent, or a nested object's name above its own block. */
type Entry = { key: string; text: string } | { heading: string; block: Entry[] };

/** The entries of `pairs`: a nested object becomes a heading over its fields, so no key repeats its parent's name. */
function entries(pairs: readonly [string, unknown][]): Entry[] {
  return pairs.map(([k, v]) => (isRecord(v) ? { heading: k, block: entries(Object.entries(v)) } : { key: k, text: display(k, v).text }));
}

/**
 * The lines of one block at `indent`. Keys are padded to one column so values line up; within `width`
 * that column is narrowed until the values fit, and a key too long for it is given its own line(s),
 * its value on the next. Values are never cut: a long one wraps onto lines of its own column.
 */
function blockLines(block: readonly Entry[], indent: number, width: number | undefined): string[] {
  const pad = ' '.repeat(indent);
  const fields = block.filter((e): e is { key: string; text: string } => 'key' in e);
  const natural = Math.max(0, ...fields.map((e) => len(e.key) + 1));
  const widest = Math.max(0, ...fields.map((e) => len(e.text)));
  // Keys keep at least half the line when values are long; otherwise they give way so the values fit.
  const column = width === undefined ? natural : Math.min(natural, Math.max(width - indent - 1 - widest, Math.floor((width - indent) / 2)));
  const valueAt = indent + column + 1;
  const lines: string[] = [];
  for (const e of block) {
    if ('heading' in e) {
      const names = width === undefined ? [e.heading] : wrapName(e.heading, width - indent);
      lines.push(...names.map((l) => `${pad}${l}`), ...blockLines(e.block, indent + 2, width));
      continue;
    }
    const key = `${e.key}:`;
    if (width === undefined || (len(key) <= column && valueAt + len(e.text) <= width)) {
      lines.push(`${pad}${key.padEnd(column)} ${e.text}`.trimEnd());
    } else if (indent + len(key) + 1 + len(e.text) <= width) {
      lines.push(`${pad}${key} ${e.text}`);
    } else {
      // Too long for one line: the key (wrapped at the width) above its value, wrapped in the value column.
      const room = Math.max(1, width - valueAt);
      const keyLines = len(key) <= column ? [] : wrapName(key, width - indent).map((l) => `${pad}${l}`);
      const valueLines = wrapText(e.text, room);
      if (keyLines.length === 0) lines.push(`${pad}${key.padEnd(column)} ${valueLines.shift() ?? ''}`.trimEnd());
      lines.push(...keyLines, ...valueLines.map((l) => `${' '.repeat(valueAt)}${l}`));
    }
  }
  return lines;
}

/** The `field: value` lines of one record (a nested object as its name over its own fields), fitted to `width` when given, nothing cut. */
export function fieldLines(item: Record<string, unknown>, width?: number): string[] {
  return blockLines(entries(Object.entries(item)), 0, width);
}

/** The lines of `item` under `sections` (fields of none go under "other"), fitted to `width` when given. */
export function sectionLines(
  item: Record<string, unknown>,
  sections: readonly Section[],
  width?: number,
  paint?: (s: string) => string,
): string[] {
  const groups = new Map<string, [string, unknown][]>();
  for (const [top, value] of Object.entries(item)) {
    const section = sections.find((s) => inSection(s, top))?.title ?? 'other';
    const rows = groups.get(section) ?? [];
    rows.push([top, value]);
    groups.set(section, rows);
  }
  const lines: string[] = [];
  for (const title of [...sections.map((s) => s.title), 'other']) {
    const rows = groups.get(title);
    if (!rows?.length) continue;
    // Named fields keep the section's reading order; the answer's order decides the rest.
    const order = sections.find((s) => s.title === title)?.fields;
    if (Array.isArray(order)) rows.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
    if (lines.length > 0) lines.push('');
    lines.push(paint ? paint(title) : title);
    lines.push(...blockLines(entries(rows), 2, width));
  }
  return lines;
}
