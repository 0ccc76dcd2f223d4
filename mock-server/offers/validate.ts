/**
 * Checks an offers request's applicant data and lists every problem found as an MKTPL-1012
 * assertion (all of them, not just the first), along with the values that did parse, which the
 * eligibility checks and the pricing read. A required object that is missing or not an object
 * counts as an object whose required elements are all missing.
 */
import { OFFER_ASSERTIONS } from '../../src/contract/errors.js';
import { US_STATES } from '../../src/contract/enums.js';
import {
  ANNUAL_INCOME_MAX,
  CREDIT_SCORES,
  EMPLOYMENT_STATUS_IDS,
  LOAN_AMOUNT_MAX,
  LOAN_AMOUNT_MIN,
  LOAN_PURPOSE_IDS,
  MINIMUM_AGE,
} from './rules.js';

/** One MKTPL-1012 assertion. */
export interface Assertion {
  code: string;
  message: string;
}

/** A calendar date. */
export interface Ymd {
  y: number;
  m: number;
  d: number;
}

/** The applicant values that parsed (undefined where missing or malformed). */
export interface ApplicantFacts {
  amount?: number;
  purposeId?: number;
  /** Omitted by the applicant (allowed) or a valid code. */
  creditScore?: number;
  firstName?: string;
  lastName?: string;
  dateOfBirth?: Ymd;
  ssn?: string;
  state?: string;
  email?: string;
  income?: number;
  underAge: boolean;
}

/** What the validator found. */
export interface Validation {
  /** Every problem, ordered by code; MKTPL-1012-173 included when the applicant is under age. */
  assertions: Assertion[];
  facts: ApplicantFacts;
}

type Obj = Record<string, unknown>;

/** True for a plain JSON object. */
export const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Missing: absent, null, or a blank string. */
const absent = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

const section = (body: Obj, name: string): Obj => (isObject(body[name]) ? (body[name] as Obj) : {});

/** A non-negative decimal with at most 2 places, as a JSON number or a plain digit string (no symbols, no commas). */
function decimal(v: unknown): number | undefined {
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0 || Math.abs(v * 100 - Math.round(v * 100)) > 1e-6) return undefined;
    return v;
  }
  if (typeof v === 'string' && /^\d{1,12}(\.\d{1,2})?$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

/** An integer, as a JSON number or a string of digits. */
function integer(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^\d{1,9}$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

const NAME = /^\p{L}[\p{L}\p{M} .'-]{0,49}$/u;
const PO_BOX = /\b(p\.?\s*o\.?\s*box|post\s+office\s+box)\b/i;
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const STATES: ReadonlySet<string> = new Set(US_STATES);

/** Parses MM/dd/yyyy or MM-dd-yyyy into a real calendar date (year 1900 on), else undefined. */
export function parseDateOfBirth(text: string): Ymd | undefined {
  const m = /^(\d{2})([/-])(\d{2})\2(\d{4})$/.exec(text.trim());
  if (!m) return undefined;
  const [mo, d, y] = [Number(m[1]), Number(m[3]), Number(m[4])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1900 || t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return undefined;
  return { y, m: mo, d };
}

/** Whole years from `dob` to `today` (negative for a date in the future). */
export function ageOn(dob: Ymd, today: Ymd): number {
  const birthdayPassed = today.m > dob.m || (today.m === dob.m && today.d >= dob.d);
  return today.y - dob.y - (birthdayPassed ? 0 : 1);
}

/** Validates the applicant objects of `body`; `today` is the mock clock's UTC date. */
export function validateApplicant(body: Obj, today: Ymd): Validation {
  const out: Assertion[] = [];
  const facts: ApplicantFacts = { underAge: false };
  const fail = (code: string, field: string, detail: string): void => {
    out.push({ code, message: `${OFFER_ASSERTIONS[code] ?? code} (${field}: ${detail})` });
  };

  const loan = section(body, 'loan_info');
  if (absent(loan.loan_amount)) fail('MKTPL-1012-101', 'loan_info.loan_amount', 'required');
  else {
    const amount = decimal(loan.loan_amount);
    if (amount === undefined) fail('MKTPL-1012-102', 'loan_info.loan_amount', 'a number with at most 2 decimals, no symbols or commas');
    else if (amount < LOAN_AMOUNT_MIN) fail('MKTPL-1012-103', 'loan_info.loan_amount', `${amount} is below ${LOAN_AMOUNT_MIN}`);
    else if (amount > LOAN_AMOUNT_MAX) fail('MKTPL-1012-104', 'loan_info.loan_amount', `${amount} is above ${LOAN_AMOUNT_MAX}`);
    else facts.amount = amount;
  }
  if (absent(loan.loan_purpose_id)) fail('MKTPL-1012-111', 'loan_info.loan_purpose_id', 'required');
  else {
    const purpose = integer(loan.loan_purpose_id);
    if (purpose === undefined || !LOAN_PURPOSE_IDS.has(purpose))
      fail('MKTPL-1012-112', 'loan_info.loan_purpose_id', 'an integer from 1 to 21');
    else facts.purposeId = purpose;
  }
  if ('self_reported_credit_score' in loan) {
    const raw = loan.self_reported_credit_score;
    const score = integer(raw);
    if (absent(raw)) fail('MKTPL-1012-121', 'loan_info.self_reported_credit_score', 'present but empty (leave it out if unknown)');
    else if (score === undefined) fail('MKTPL-1012-122', 'loan_info.self_reported_credit_score', 'not an integer');
    else if (!CREDIT_SCORES[score]) fail('MKTPL-1012-123', 'loan_info.self_reported_credit_score', `${score} is not one of 1-6`);
    else facts.creditScore = score;
  }

  const person = section(body, 'personal_info');
  const first = person.first_name;
  const last = person.last_name;
  if (absent(first) && absent(last)) fail('MKTPL-1012-131', 'personal_info', 'first_name and last_name are both missing');
  else {
    if (absent(first)) fail('MKTPL-1012-141', 'personal_info.first_name', 'required');
    else if (typeof first !== 'string' || !NAME.test(first.trim()))
      fail('MKTPL-1012-142', 'personal_info.first_name', 'letters, spaces, hyphens and apostrophes only, at most 50');
    else facts.firstName = first.trim();
    if (absent(last)) fail('MKTPL-1012-151', 'personal_info.last_name', 'required');
    else if (typeof last !== 'string' || !NAME.test(last.trim()))
      fail('MKTPL-1012-152', 'personal_info.last_name', 'letters, spaces, hyphens and apostrophes only, at most 50');
    else facts.lastName = last.trim();
  }
  const middle = person.middle_initial;
  if (!absent(middle) && (typeof middle !== 'string' || !/^\p{L}$/u.test(middle.trim()))) {
    fail('MKTPL-1012-161', 'personal_info.middle_initial', 'one letter');
  }
  const dobRaw = person.date_of_birth;
  if (absent(dobRaw)) fail('MKTPL-1012-171', 'personal_info.date_of_birth', 'required');
  else {
    const dob = typeof dobRaw === 'string' ? parseDateOfBirth(dobRaw) : undefined;
    if (!dob) fail('MKTPL-1012-172', 'personal_info.date_of_birth', 'MM/dd/yyyy or MM-dd-yyyy, a real date');
    else {
      facts.dateOfBirth = dob;
      const age = ageOn(dob, today);
      if (age < MINIMUM_AGE) {
        facts.underAge = true;
        fail('MKTPL-1012-173', 'personal_info.date_of_birth', `age ${Math.max(0, age)}, minimum ${MINIMUM_AGE}`);
      }
    }
  }
  const ssn = person.ssn;
  if (!absent(ssn)) {
    if (typeof ssn !== 'string' || !/^\d{9}$/.test(ssn.trim()))
      fail('MKTPL-1012-181', 'personal_info.ssn', 'a string of 9 digits, no separators');
    else facts.ssn = ssn.trim();
  }

  const address = section(body, 'address_info');
  const { street, city, state, zip_code: zip } = address;
  if ([street, city, state, zip].every(absent)) fail('MKTPL-1012-191', 'address_info', 'street, city, state and zip_code are all missing');
  else {
    if (absent(street) || typeof street !== 'string') fail('MKTPL-1012-201', 'address_info.street', 'required');
    else if (PO_BOX.test(street)) fail('MKTPL-1012-202', 'address_info.street', 'a PO Box is not a residence');
    if (absent(city) || typeof city !== 'string') fail('MKTPL-1012-211', 'address_info.city', 'required');
    if (absent(state) || typeof state !== 'string' || state.trim().length !== 2)
      fail('MKTPL-1012-221', 'address_info.state', 'a two-letter postal code');
    else if (!STATES.has(state.trim().toUpperCase()))
      fail('MKTPL-1012-222', 'address_info.state', `'${state.trim()}' is not a US postal code`);
    else facts.state = state.trim().toUpperCase();
    if (absent(zip)) fail('MKTPL-1012-231', 'address_info.zip_code', 'required');
    else if (typeof zip !== 'string' || !/^\d{5}(-?\d{4})?$/.test(zip.trim()))
      fail('MKTPL-1012-232', 'address_info.zip_code', '5 digits or 5+4 (a string)');
  }

  const contact = section(body, 'contact_info');
  if (absent(contact.email)) fail('MKTPL-1012-242', 'contact_info.email', 'required');
  else if (typeof contact.email !== 'string' || !EMAIL.test(contact.email.trim()))
    fail('MKTPL-1012-243', 'contact_info.email', 'not an email address');
  else facts.email = contact.email.trim().toLowerCase();

  const job = section(body, 'employment_info');
  if (!absent(job.employment_month)) {
    const month = integer(job.employment_month);
    if (month === undefined || month < 1 || month > 12) fail('MKTPL-1012-261', 'employment_info.employment_month', 'a month from 1 to 12');
  }
  if (!absent(job.employment_year)) {
    const year = integer(job.employment_year);
    if (year === undefined || year < 1900 || year > today.y)
      fail('MKTPL-1012-271', 'employment_info.employment_year', `a four-digit year from 1900 to ${today.y}`);
  }
  if (absent(job.employment_status_id)) fail('MKTPL-1012-281', 'employment_info.employment_status_id', 'required');
  else {
    const status = integer(job.employment_status_id);
    if (status === undefined || !EMPLOYMENT_STATUS_IDS.has(status))
      fail('MKTPL-1012-282', 'employment_info.employment_status_id', 'one of 3, 5, 6, 7');
  }
  if (absent(job.annual_income)) fail('MKTPL-1012-291', 'employment_info.annual_income', 'required');
  else {
    const income = decimal(job.annual_income);
    if (income === undefined)
      fail('MKTPL-1012-292', 'employment_info.annual_income', 'a number with at most 2 decimals, no symbols or commas');
    else if (income > ANNUAL_INCOME_MAX) fail('MKTPL-1012-293', 'employment_info.annual_income', `above ${ANNUAL_INCOME_MAX}`);
    else facts.income = income;
  }

  out.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return { assertions: out, facts };
}
