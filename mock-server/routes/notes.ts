/** Notes: GET {base_url}/notes/ and /notes/{loan_note_id}, the caller's notes only. */
import { PAGINATION } from '../../src/contract/enums.js';
import { NOTE_FIELDS, NOTE_ID } from '../../src/contract/note-fields.js';
import { ApiError, validationError } from '../kit/api-error.js';
import type { MockContext } from '../context.js';
import { noteFieldReader, noteViews } from '../views/note-view.js';
import { keptOrder } from '../views/kept-orders.js';
import { orderBy, parseSortBy } from '../search/query-params.js';
import { notesOf, notesOfLoan } from '../world/world-index.js';
import { authedRoute, http, listEnvelope, pageItems } from '../route-helper/route.js';

/** A list may be sorted by any note field (each has one value). */
const NOTE_SORT_FIELDS: ReadonlySet<string> = new Set(NOTE_FIELDS);

/** The notes handlers. */
export function notesHandlers(ctx: MockContext) {
  return [
    http.get(
      '*/v1/notes',
      authedRoute(
        ctx,
        'read_note',
        ({ caller, url, zone, page }) => {
          const asked = page(); // paging is checked before sorting
          const sort = parseSortBy(url.searchParams.get('sort_by'), NOTE_SORT_FIELDS, [{ field: 'origination_date', desc: true }]);
          const now = ctx.clock.now();
          const held = notesOf(ctx.world, caller.accountId);
          // Ordered by the sort's fields alone, newest note first where it leaves them tied; only the page's notes are viewed.
          const notes = keptOrder(ctx, { list: 'notes', accountId: caller.accountId, sort, zone, count: held.length }, () =>
            orderBy([...held].reverse(), sort, noteFieldReader(ctx.world, now, zone)),
          );
          return listEnvelope(noteViews(ctx.world, pageItems(notes, asked), now, zone), notes.length);
        },
        { list: PAGINATION.notes },
      ),
    ),
    http.get(
      '*/v1/notes/:noteId',
      authedRoute(ctx, 'read_note', ({ caller, params, zone }) => {
        const text = String(params.noteId);
        const id = NOTE_ID.exec(text);
        if (!id)
          throw validationError(
            'loan_note_id',
            `must be a note id such as 500123-900456 (loan number, dash, note number), got '${text.slice(0, 40)}'`,
          );
        const note = notesOfLoan(ctx.world, Number(id[1])).find((n) => n.note_number === text && n.accountId === caller.accountId);
        if (!note) throw new ApiError(404, { code: 'NOT_FOUND', message: `No note ${text} among your notes` });
        return noteViews(ctx.world, [note], ctx.clock.now(), zone)[0]!;
      }),
    ),
  ];
}
