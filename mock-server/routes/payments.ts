/**
 * Payments: GET {base_url}/loans/payments?loan_number=N[,M…], the caller's share of each payment of the
 * loans named, one row per payment per note held, newest first. Registered before the loans routes:
 * `/loans/{loan_id}` would take `payments` for a loan id.
 */
import { parseFilterDate } from '../../src/contract/dates.js';
import { PAGINATION } from '../../src/contract/enums.js';
import { validationError } from '../kit/api-error.js';
import type { MockContext } from '../context.js';
import { paymentAnswer, paymentRows, type PaymentRow } from '../views/payment-view.js';
import { authedRoute, http, paged } from '../route-helper/route.js';

/** The loan numbers asked for: comma-separated (and/or the parameter repeated), each a whole number, in the order first asked. */
function loanNumbers(params: URLSearchParams): number[] {
  const values = params.getAll('loan_number');
  if (values.length === 0) throw validationError('loan_number', 'is required: one loan number or several separated by commas');
  const out = new Set<number>();
  for (const text of values.join(',').split(',')) {
    const item = text.trim();
    if (!/^\d{1,15}$/.test(item))
      throw validationError('loan_number', `must be loan numbers separated by commas, got '${item.slice(0, 40)}'`);
    out.add(Number(item));
  }
  return [...out];
}

/** The first instant of the `transaction_effective_date` day in `zone`, or null when not asked. */
function since(params: URLSearchParams, zone: string | undefined): number | null {
  const text = params.get('transaction_effective_date');
  if (text === null) return null;
  const start = /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? parseFilterDate(text, zone, false) : null;
  if (start === null) throw validationError('transaction_effective_date', `must be a date, yyyy-MM-dd, got '${text.slice(0, 40)}'`);
  return start;
}

/** Newest payment first; then by loan and note (a longer note number is a later one), so that a page is the same page each time. */
function newestFirst(a: PaymentRow, b: PaymentRow): number {
  const [x, y] = [a.note.note_number, b.note.note_number];
  return b.payment.at - a.payment.at || a.loan.loan_number - b.loan.loan_number || x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
}

/** The payments handlers. */
export function paymentsHandlers(ctx: MockContext) {
  return [
    http.get(
      '*/v1/loans/payments',
      authedRoute(
        ctx,
        'read_loan',
        ({ caller, url, zone, page }) => {
          const asked = page();
          const numbers = loanNumbers(url.searchParams);
          const from = since(url.searchParams, zone);
          const rows: PaymentRow[] = [];
          for (const n of numbers) {
            const loan = ctx.world.loans.get(n);
            // A loan the caller holds no note in (or no loan at all) has no rows for it: not an error.
            if (!loan) continue;
            for (const row of paymentRows(ctx.world, loan, caller.accountId)) if (from === null || row.payment.at >= from) rows.push(row);
          }
          rows.sort(newestFirst);
          return paged(rows, asked, (row) => paymentAnswer(ctx.world, row, zone));
        },
        { list: PAGINATION.payments },
      ),
    ),
  ];
}
