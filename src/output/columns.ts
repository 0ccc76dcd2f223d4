/**
 * How a column reads on a terminal: its header label, whether its numbers are rates (shown as
 * percentages) or amounts (thousands separators, two decimals), and whether long text wraps or is cut.
 * Only tables use this; json, ndjson and csv print values exactly as the API gave them.
 */

/** Short table headers for the long names of default columns (listings, notes, the mock journal), so that they fit 80 columns. */
export const LABELS: Readonly<Record<string, string>> = {
  listing_number: 'listing',
  platform_rating: 'rating',
  fico_score: 'fico',
  listing_term: 'term',
  borrower_rate: 'rate',
  listing_amount: 'amount',
  amount_remaining: 'remaining',
  percent_funded: 'funded',
  listing_title: 'title',
  borrower_state: 'state',
  loan_note_id: 'note',
  note_status_description: 'status',
  note_ownership_amount: 'owned',
  principal_balance_pro_rata_share: 'balance',
  principal_paid_pro_rata_share: 'principal paid',
  interest_paid_pro_rata_share: 'interest paid',
  transaction_effective_date: 'date',
  payment_amount: 'amount',
  principal_amount: 'principal',
  interest_amount: 'interest',
  service_fee_amount: 'service fee',
  late_fee_amount: 'late fee',
  resulting_principal_balance: 'balance after',
  duration_ms: 'ms',
  at: 'time',
};

/** The header a table shows for `name`. */
export const label = (name: string): string => LABELS[name] ?? name;

/** Fractions the API sends as 0.1299 for 12.99%: rates, yields, returns, debt-to-income, percent funded. */
const PERCENT = /(^|_)(rate|apr|yield|return|pctl|dti|threshold)(_|$)|^percent_funded$/;
/**
 * Money: amounts, balances, payments, principal, income and the like; the account's pending investments and
 * deposits; a simulated month's bid, pending, received, earned, written off and account value.
 */
const AMOUNT =
  /(^|_)(amount|balance|payment|principal|interest|cash|income|expense|borrowed|outstanding|fees?|total|invested|loan|investments|invest_orders|deposit|withdraw|proceeds|received|earned|loss)(_|$)|^(bid|pending|written_off|account_value)$/;
/** Codes, counts and identifiers whose names contain a money word (income_range, loan_number). */
const NOT_AMOUNT = /(_number|_id|_count|_term|_range|(?<!written)_off|_months?|_cycles|dpd)$/;
/** Identifiers (ids, numbers, keys, names, codes, field names, flags, URLs): a cut one could not be copied or typed. */
const IDENTIFIER = /(^|_)(id|number|key|name|code|field|flags?|url)$/;
/** Free text that reads better wrapped onto more lines than cut. */
const WRAPPED = /(^|_)(description|detail|meaning|reason|message|fix|verdict|problems?)$/;

/**
 * `x` as `new Intl.NumberFormat('en-US', { minimumFractionDigits: places, maximumFractionDigits: places })` writes it
 * (1,234.57): the shortest digits that read back as `x` (String(x)'s), rounded half away from zero at `places`, the
 * integer part grouped by threes with commas, a minus on any negative number (zero included). Written out, because
 * making an Intl formatter loads ICU's data: ~15-20 ms of every run that prints an amount in a table or text (about a
 * tenth of `mkt listings search`'s CPU on a terminal). A number that is not finite goes to Intl, which writes it as NaN
 * or ∞. test/output-decimal.test.ts holds it to Intl's output for any double.
 */
export function decimal(x: number, places: number): string {
  if (!Number.isFinite(x))
    return new Intl.NumberFormat('en-US', { minimumFractionDigits: places, maximumFractionDigits: places }).format(x);
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  // The digits without the point, and how many of them come before it (negative: zeros after the point first).
  const text = String(Math.abs(x));
  const e = text.indexOf('e');
  const mantissa = e < 0 ? text : text.slice(0, e);
  const point = mantissa.indexOf('.');
  let digits = point < 0 ? mantissa : mantissa.slice(0, point) + mantissa.slice(point + 1);
  let before = (point < 0 ? mantissa.length : point) + (e < 0 ? 0 : Number(text.slice(e + 1)));
  const lead = /^0*/.exec(digits)![0].length;
  digits = digits.slice(lead);
  before -= lead;
  // Kept: the digits down to the last place; the first digit past it rounds them.
  const keep = before + places;
  let kept: string;
  if (keep < 0 || digits === '') kept = '';
  else if (keep >= digits.length) kept = digits + '0'.repeat(keep - digits.length);
  else {
    kept = digits.slice(0, keep);
    if (digits.charCodeAt(keep) >= 53 /* '5' */) {
      const up = increment(kept);
      if (up.length > kept.length) before++;
      kept = up;
    }
  }
  // `kept` holds `before` whole digits and `places` more (fewer where the number rounds to 0: zeros stand for them).
  const wholeDigits = before <= 0 ? '0' : kept.slice(0, before);
  const fractionDigits = (before >= 0 ? kept.slice(before) : '0'.repeat(-before) + kept).padEnd(places, '0').slice(0, places);
  const fraction = places === 0 ? '' : `.${fractionDigits}`;
  return `${sign}${grouped(wholeDigits)}${fraction}`;
}

/** A string of decimal digits plus one in its last place ('' is 0: '1'; '999': '1000'). */
function increment(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i--;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return digits.slice(0, i) + String.fromCharCode(digits.charCodeAt(i) + 1) + '0'.repeat(digits.length - i - 1);
}

/** Decimal digits with a comma before each group of three from the right (1234567: 1,234,567). */
function grouped(digits: string): string {
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}

/** `text` without the sign of a negative zero: -0.004 rounds to "-0.00", which reads as a loss that is not there. */
const unsigned0 = (text: string): string => (/^-0(\.0+)?$/.test(text) ? text.slice(1) : text);

/** A whole number with thousands separators (1,800). */
export const count = (n: number): string => unsigned0(decimal(n, 0));

/** Money as every table and text line shows it: two decimals, thousands separators (11,850.00; never -0.00). */
export const money = (x: number): string => unsigned0(decimal(x, 2));

/** A fraction (0.1299) as a percentage with `places` decimals (12.99%; never -0.00%). */
export function percent(fraction: number, places = 2): string {
  const text = places === 2 ? decimal(fraction * 100, 2) : (fraction * 100).toFixed(places);
  return `${unsigned0(text)}%`;
}

/** A decimal number written as text. */
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** An ISO 8601 date-time with `T`, optional milliseconds and a zone (`Z`, `+0000` or `+00:00`). */
const ISO_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

/** `2025-02-03T08:00:00.000+0000` as `2025-02-03 08:00:00 +0000`, the API's own form. */
function isoAsApi(v: string): string {
  const [, day, time, zone] = ISO_DATE_TIME.exec(v)!;
  return `${day} ${time} ${zone === 'Z' ? '+0000' : zone!.replace(':', '')}`;
}

/** True when column `name` holds identifiers, which a table never cuts. */
export const identifies = (name: string): boolean => IDENTIFIER.test(name);

/** True when long text in column `name` wraps rather than being cut with …. */
export const wraps = (name: string): boolean => WRAPPED.test(name);

/** A value as a table shows it; `numeric` cells are right-aligned. */
export function display(name: string, v: unknown): { text: string; numeric: boolean } {
  // The marketplace sends some amounts as decimal strings ("0.7812"): a money or rate column shows them as numbers.
  if (typeof v === 'string' && DECIMAL.test(v) && (PERCENT.test(name) || (AMOUNT.test(name) && !NOT_AMOUNT.test(name))))
    return display(name, Number(v));
  // The marketplace's ISO date fields (`2025-02-03T08:00:00.000+0000`) read as its other dates do; the mock's
  // own times (the journal's `at`) keep their milliseconds.
  if (typeof v === 'string' && name.endsWith('_date') && ISO_DATE_TIME.test(v)) return { text: isoAsApi(v), numeric: false };
  if (typeof v === 'number' && Number.isFinite(v)) {
    if (PERCENT.test(name)) return { text: percent(v), numeric: true };
    if (AMOUNT.test(name) && !NOT_AMOUNT.test(name)) return { text: money(v), numeric: true };
    return { text: String(v), numeric: true };
  }
  if (v === null || v === undefined) return { text: '', numeric: false };
  if (typeof v === 'object') return { text: JSON.stringify(v), numeric: false };
  // Control characters from the answer would move the cursor and break the layout: show them as spaces.
  return { text: String(v).replace(/[\u0000-\u001f\u007f]/g, ' '), numeric: false };
}
