/**
 * The indexed bureau2 elements returned in `credit_bureau_values_bureau2_indexed`.
 * Responses use the long name; range filters accept the short name with `_min` / `_max`.
 */

/** A value outside the range that carries a meaning of its own (for example -4: no trades on file). */
export interface SpecialValue {
  value: number;
  meaning: string;
}

/** One indexed bureau2 element. */
export interface BureauElement {
  long: string;
  short: string;
  units: string;
  min: number;
  max: number;
  special: SpecialValue | null;
}

/** Every indexed bureau2 element, in the spec's order. */
export const BUREAU2_ELEMENTS: readonly BureauElement[] = [
  { long: 'at01s_credit_lines', short: 'at01s', units: 'trades', min: 0, max: 999, special: null },
  { long: 'at02s_open_accounts', short: 'at02s', units: 'trades', min: 0, max: 999, special: { value: -4, meaning: 'no trades on file' } },
  {
    long: 'at03s_current_credit_lines',
    short: 'at03s',
    units: 'trades',
    min: 0,
    max: 999,
    special: { value: -2, meaning: 'not verified in time period' },
  },
  {
    long: 'at20s_oldest_trade_open_date',
    short: 'at20s',
    units: 'months',
    min: 0,
    max: 999,
    special: { value: -4, meaning: 'no trades on file' },
  },
  {
    long: 'at57s_amount_delinquent',
    short: 'at57s',
    units: 'USD',
    min: 0,
    max: 999999999,
    special: { value: -2, meaning: 'not verified in time period' },
  },
  {
    long: 'bc34s_bankcard_utilization',
    short: 'bc34s',
    units: 'percentage',
    min: 0,
    max: 999,
    special: { value: -1, meaning: 'no trades of this type' },
  },
  {
    long: 'g041s_accounts_30_or_more_days_past_due_ever',
    short: 'g041s',
    units: 'trades',
    min: 0,
    max: 999,
    special: { value: -4, meaning: 'no trades on file' },
  },
  { long: 'g093s_number_of_public_records', short: 'g093s', units: 'records', min: 0, max: 999, special: null },
  {
    long: 'g094s_number_of_public_record_bankruptcies',
    short: 'g094s',
    units: 'bankruptcies',
    min: 0,
    max: 999,
    special: { value: -4, meaning: 'no trades on file' },
  },
  {
    long: 'g095s_months_since_most_recent_public_record',
    short: 'g095s',
    units: 'months',
    min: 0,
    max: 999,
    special: { value: -4, meaning: 'no trades on file' },
  },
  {
    long: 'g099s_public_records_last_24_months',
    short: 'g099s',
    units: 'bankruptcies',
    min: 0,
    max: 999,
    special: { value: -1, meaning: 'no trades of this type' },
  },
  {
    long: 'g102s_months_since_most_recent_inquiry',
    short: 'g102s',
    units: 'months',
    min: 0,
    max: 999,
    special: { value: -4, meaning: 'no trades on file' },
  },
  {
    long: 'g218b_number_of_delinquent_accounts',
    short: 'g218b',
    units: 'trades',
    min: 0,
    max: 999,
    special: { value: -2, meaning: 'not verified in time period' },
  },
  {
    long: 'g980s_inquiries_in_the_last_6_months',
    short: 'g980s',
    units: 'inquiries',
    min: 0,
    max: 999,
    special: { value: -4, meaning: 'no trades on file' },
  },
  {
    long: 're20s_age_of_oldest_revolving_account_in_months',
    short: 're20s',
    units: 'months',
    min: 0,
    max: 999,
    special: { value: -1, meaning: 'no trades of this type' },
  },
  {
    long: 's207s_months_since_most_recent_public_record_bankruptcy',
    short: 's207s',
    units: 'months',
    min: 0,
    max: 999,
    special: { value: -1, meaning: 'no trades of this type' },
  },
  {
    long: 're33s_balance_owed_on_all_revolving_accounts',
    short: 're33s',
    units: 'USD',
    min: 0,
    max: 999999999,
    special: { value: -1, meaning: 'no trades of this type' },
  },
  {
    long: 're101s_revolving_balance',
    short: 're101s',
    units: 'USD',
    min: 0,
    max: 999999999,
    special: { value: -1, meaning: 'no trades of this type' },
  },
];

/** Elements by short name, as range filters name them. */
export const BUREAU2_BY_SHORT: ReadonlyMap<string, BureauElement> = new Map(BUREAU2_ELEMENTS.map((e) => [e.short, e]));

/** Non-numeric members of the indexed object. `fico_score` there is a multivalue filter like the listing's own. */
export const BUREAU2_EXTRA_FIELDS = ['credit_report_date', 'fico_score'] as const;
