/** Loans: GET {base_url}/loans/ and /loans/{id}, only loans the caller holds notes in. */
import { LOAN_SORT_FIELDS, PAGINATION } from '../../src/contract/enums.js';
import { ApiError, validationError } from '../kit/api-error.js';
import type { MockContext } from '../context.js';
import { loanView, originationDate } from '../views/views.js';
import { keptOrder } from '../views/kept-orders.js';
import { orderBy, parseSortBy } from '../search/query-params.js';
import { notesOf } from '../world/world-index.js';
import { authedRoute, http, paged } from '../route-helper/route.js';

/** The loans `accountId` holds notes in. */
function heldLoans(ctx: MockContext, accountId: string): Set<number> {
  return new Set(notesOf(ctx.world, accountId).map((n) => n.loanNumber));
}

/** The loans handlers. */
export function loansHandlers(ctx: MockContext) {
  return [
    http.get(
      '*/v1/loans',
      authedRoute(
        ctx,
        'read_loan',
        ({ caller, url, zone, page }) => {
          const asked = page(); // paging is checked before sorting
          const sort = parseSortBy(url.searchParams.get('sort_by'), LOAN_SORT_FIELDS, [{ field: 'origination_date', desc: true }]);
          const now = ctx.clock.now();
          const view = (n: number) => loanView(ctx.world, ctx.world.loans.get(n)!, now, zone);
          // Ordered by the sort's fields alone (the origination and the number without a view); only the page's loans are viewed.
          const value = (n: number, field: string): unknown => {
            if (field === 'loan_number') return n;
            if (field === 'origination_date') return originationDate(ctx.world.loans.get(n)!, zone);
            return view(n)[field];
          };
          const held = heldLoans(ctx, caller.accountId);
          const loans = keptOrder(ctx, { list: 'loans', accountId: caller.accountId, sort, zone, count: held.size }, () =>
            orderBy(
              [...held].sort((a, b) => b - a),
              sort,
              value,
            ),
          );
          return paged(loans, asked, view);
        },
        { list: PAGINATION.loans },
      ),
    ),
    http.get(
      '*/v1/loans/:loanId',
      authedRoute(ctx, 'read_loan', ({ caller, params, zone }) => {
        const text = String(params.loanId);
        if (!/^\d{1,15}$/.test(text)) throw validationError('loan_id', `must be a loan number, got '${text}'`);
        const n = Number(text);
        if (!heldLoans(ctx, caller.accountId).has(n) || !ctx.world.loans.has(n)) {
          throw new ApiError(404, { code: 'NOT_FOUND', message: `No loan ${n} among the loans you hold notes in` });
        }
        return loanView(ctx.world, ctx.world.loans.get(n)!, ctx.clock.now(), zone);
      }),
    ),
  ];
}
