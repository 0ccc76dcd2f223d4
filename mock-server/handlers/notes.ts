/** Notes: GET {base_url}/notes/ and /notes/{loan_note_id}, the caller's notes only. */
import { http } from 'msw';
import { PAGINATION } from '../../src/contract/enums.js';
import type { Note as NoteAnswer } from '../../src/contract/resources.js';
import { ApiError, validationError } from '../api-error.js';
import type { MockContext } from '../context.js';
import { noteViews } from '../engine/note-view.js';
import { parseSortBy, sortBy } from '../query-params.js';
import { notesOf, notesOfLoan } from '../store-index.js';
import { authedRoute } from './route.js';

/** The note fields a list may be sorted by: every field with one value (all of them). */
const NOTE_SORT_FIELDS = new Set<string>([
  'loan_note_id', 'loan_number', 'listing_number', 'note_ownership_amount', 'principal_balance_pro_rata_share',
  'principal_paid_pro_rata_share', 'interest_paid_pro_rata_share', 'service_fees_paid_pro_rata_share',
  'platform_fees_paid_pro_rata_share', 'late_fees_paid_pro_rata_share', 'collection_fees_paid_pro_rata_share',
  'debt_sale_proceeds_received_pro_rata_share', 'next_payment_due_amount_pro_rata_share', 'next_payment_due_date',
  'note_status', 'note_status_description', 'note_default_reason', 'note_default_reason_description', 'platform_rating',
  'term', 'borrower_rate', 'lender_yield', 'amount_borrowed', 'age_in_months', 'days_past_due', 'origination_date',
  'ownership_start_date', 'ownership_end_date', 'is_sold', 'is_sold_folio', 'note_sale_gross_amount_received',
  'note_sale_fees_paid', 'is_in_bankruptcy', 'co_borrower_application',
] satisfies (keyof NoteAnswer)[]);

/** A loan_note_id as the API hands them out: `{loan_number}-{n}`. */
const NOTE_ID = /^(\d{1,15})-\d{1,15}$/;

/** The notes handlers. */
export function notesHandlers(ctx: MockContext) {
  return [
    http.get('*/v1/notes', authedRoute(ctx, 'read_note', ({ caller, url, zone, page }) => {
      page(); // paging is checked before sorting
      const sort = parseSortBy(url.searchParams.get('sort_by'), NOTE_SORT_FIELDS, [{ field: 'origination_date', desc: true }]);
      // Newest note first before the sort, so notes the sort leaves tied keep that order (the sort is stable).
      const items = noteViews(ctx.store, [...notesOf(ctx.store, caller.accountId)].reverse(), ctx.clock.now(), zone);
      return sortBy(items, sort, (i, f) => i[f]);
    }, { list: PAGINATION.notes })),
    http.get('*/v1/notes/:noteId', authedRoute(ctx, 'read_note', ({ caller, params, zone }) => {
      const text = String(params.noteId);
      const id = NOTE_ID.exec(text);
      if (!id) throw validationError('loan_note_id', `must be a note id such as 500123-900456 (loan number, dash, note number), got '${text.slice(0, 40)}'`);
      const note = notesOfLoan(ctx.store, Number(id[1])).find((n) => n.note_number === text && n.accountId === caller.accountId);
      if (!note) throw new ApiError(404, { code: 'NOT_FOUND', message: `No note ${text} among your notes` });
      return noteViews(ctx.store, [note], ctx.clock.now(), zone)[0]!;
    })),
  ];
}
