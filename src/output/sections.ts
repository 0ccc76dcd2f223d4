/**
 * One record as `key: value` lines grouped under section headings, nested objects flattened to dotted
 * keys (`credit_bureau_values_bureau2_indexed.g980s: 2`) instead of one JSON cell hundreds of columns wide.
 */
import { display } from './columns.js';
import { cut } from './table.js';

/** A heading and the fields under it: named, or matched by a pattern. */
export interface Section {
  title: string;
  fields: readonly string[] | RegExp;
}

/** The sections of a listing, in the order a person reads one; a field in none of them goes under "other". */
export const LISTING_SECTIONS: readonly Section[] = [
  {
    title: 'listing', fields: [
      'listing_number', 'listing_title', 'listing_status', 'listing_status_reason', 'listing_amount', 'amount_funded',
      'amount_remaining', 'percent_funded', 'amount_participation', 'funding_threshold', 'partial_funding_indicator',
      'listing_term', 'listing_monthly_payment', 'listing_category_id', 'listing_purpose', 'investment_typeid',
      'investment_type_description', 'investment_product_id', 'verification_stage', 'listing_creation_date',
      'listing_start_date', 'listing_end_date', 'whole_loan_start_date', 'whole_loan_end_date', 'last_updated_date',
      'loan_number', 'loan_origination_date', 'biddable', 'invested', 'channel_code',
    ],
  },
  {
    title: 'rates', fields: [
      'borrower_rate', 'borrower_apr', 'lender_yield', 'effective_yield', 'estimated_loss_rate', 'estimated_return',
      'historical_return', 'historical_return_10th_pctl', 'historical_return_90th_pctl',
    ],
  },
  {
    title: 'borrower', fields: [
      'member_key', 'borrower_state', 'occupation', 'employment_status_description', 'months_employed', 'income_range',
      'income_range_description', 'income_verifiable', 'stated_monthly_income', 'estimated_monthly_housing_expense',
      'has_mortgage', 'dti_wplatform_loan', 'lender_indicator', 'co_borrower_application', 'combined_dti_wplatform_loan',
      'combined_stated_monthly_income', 'borrower_listing_description',
    ],
  },
  { title: 'credit', fields: ['platform_rating', 'platform_score', 'fico_score', 'decision_bureau'] },
  { title: 'prior loans', fields: /^(prior_platform_|max_prior_|min_prior_)/ },
  { title: 'bureau', fields: /^credit_bureau_values_/ },
];

/** `[key, value]` pairs of `item`, nested objects flattened to dotted keys. */
export function flatten(item: Record<string, unknown>, prefix = ''): [string, unknown][] {
  return Object.entries(item).flatMap(([k, v]): [string, unknown][] =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? flatten(v as Record<string, unknown>, `${prefix}${k}.`) : [[`${prefix}${k}`, v]]);
}

const inSection = (s: Section, field: string): boolean => (Array.isArray(s.fields) ? s.fields.includes(field) : (s.fields as RegExp).test(field));

/** The lines of `item` under `sections` (fields of none go under "other"), values cut to `width` when given. */
export function sectionLines(item: Record<string, unknown>, sections: readonly Section[], width?: number, paint?: (s: string) => string): string[] {
  const groups = new Map<string, [string, unknown][]>();
  for (const [top, value] of Object.entries(item)) {
    const section = sections.find((s) => inSection(s, top))?.title ?? 'other';
    const rows = groups.get(section) ?? [];
    rows.push(...(value !== null && typeof value === 'object' && !Array.isArray(value) ? flatten({ [top]: value }) : [[top, value] as [string, unknown]]));
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
    const keyWidth = Math.max(...rows.map(([k]) => k.length)) + 1;
    for (const [k, v] of rows) {
      const head = `  ${`${k}:`.padEnd(keyWidth)} `;
      const text = display(k.slice(k.lastIndexOf('.') + 1), v).text;
      lines.push(`${head}${width === undefined ? text : cut(text, Math.max(8, width - head.length))}`.trimEnd());
    }
  }
  return lines;
}
