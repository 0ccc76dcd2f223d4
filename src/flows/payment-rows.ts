/**
 * A payment row of GET {base_url}/loans/payments as the flows reckon with it: its day, whether it is a
 * charge-off, and each figure in whole units of a ten-thousandth of a dollar. The real answer writes its
 * amounts to four places ("0.7812"), the mock's to the cent; both are whole units, so a sum of rows is
 * exact (no float is added) and a total equals its rows to the last place sent.
 */
import { toNumber } from '../contract/decode-kit.js';
import type { Payment } from '../contract/decode.js';
import { parseDay } from '../contract/calendar.js';

/** Units in a dollar: the real answer's four decimal places. */
export const UNITS_PER_DOLLAR = 10_000;

/** Dollars as whole units (an amount with more places is rounded to the fourth). */
export function toUnits(dollars: number): number {
  return Math.round(dollars * UNITS_PER_DOLLAR);
}

/** Whole units as dollars, exact to the fourth place. */
export function toDollars(units: number): number {
  return Number((units / UNITS_PER_DOLLAR).toFixed(4));
}

/** The money figures of a row, in the order a statement lists them. */
export const ROW_FIGURES = ['principal', 'interest', 'lateFees', 'serviceFees', 'collectionFees'] as const;
/** One of the figures. */
export type RowFigure = (typeof ROW_FIGURES)[number];
/** Whole units of each figure: fees count up (a positive fee is money the note paid). */
export type RowUnits = Record<RowFigure, number>;

/** One payment row, read. */
export interface FlowRow extends RowUnits {
  loan: number;
  /** The UTC day of its `transaction_effective_date` as written (its own calendar day, whatever the offset). */
  day: number;
  /** One loan payment's id, the same on every note's row of it: `match_back_id`, else the date and transaction code. */
  key: string;
  /** A charge-off (the collection agency's row, `CAP`): principal written off, not paid. */
  chargeOff: boolean;
  /** Days past due after the row (null: current after it). */
  postDaysPastDue: number | null;
  /** The note's principal left after the row (`resulting_principal_balance`), whole units; null when not sent. */
  balance: number | null;
  /** `transaction_id`, which orders the rows of one loan payment as their notes are ordered; null when not sent. */
  id: number | null;
}

/** The money of a row: principal, interest and late fees in, less the fees. */
export function netUnits(r: RowUnits): number {
  return r.principal + r.interest + r.lateFees - r.serviceFees - r.collectionFees;
}

/** Zero of every figure. */
export const noUnits = (): RowUnits => ({ principal: 0, interest: 0, lateFees: 0, serviceFees: 0, collectionFees: 0 });

const units = (v: unknown): number => toUnits(toNumber(v) ?? 0);

/**
 * The row, or null when it moved no money: a payment whose status is not a success (a returned or
 * failed ACH credits nothing), or one without a date to put it on.
 */
export function readRow(p: Payment): FlowRow | null {
  const status = typeof p.payment_status === 'string' ? p.payment_status : 'Success';
  if (!/^success/i.test(status.trim())) return null;
  const day = parseDay(typeof p.transaction_effective_date === 'string' ? p.transaction_effective_date : '');
  if (day === null) return null;
  const code = typeof p.payment_transaction_code === 'string' ? p.payment_transaction_code : '';
  const type = typeof p.loan_payment_cashflow_type === 'string' ? p.loan_payment_cashflow_type : '';
  const post = toNumber(p.post_days_past_due);
  const balance = toNumber(p.resulting_principal_balance);
  return {
    loan: toNumber(p.loan_number) ?? 0,
    day,
    key: typeof p.match_back_id === 'string' && p.match_back_id !== '' ? p.match_back_id : `${p.transaction_effective_date}:${code}`,
    chargeOff: /^CAP$/i.test(code) || /charge.?off/i.test(type),
    postDaysPastDue: post === undefined ? null : post,
    balance: balance === undefined ? null : toUnits(balance),
    id: toNumber(p.transaction_id) ?? null,
    principal: units(p.principal_amount),
    interest: units(p.interest_amount),
    lateFees: units(p.late_fee_amount),
    serviceFees: units(p.service_fee_amount),
    collectionFees: units(p.collection_fee_amount),
  };
}
