/**
 * The account as GET /accounts/platform returns it, and the outstanding principal it shares with the
 * notes (apart from views.ts: it reads the notes' view, which reads the loans' view there).
 */
import { sha256Hex } from '../kit/digest.js';
import { formatDateTime } from '../../src/contract/dates.js';
import { ACCOUNT_RATING_KEYS, accountRatingKey } from '../../src/contract/enums.js';
import type { AccountAnswerFields, AmountsByRating } from '../../src/contract/resources.js';
import { cents } from '../kit/money.js';
import type { Account, World } from '../world/world.js';
import { notesOf, ordersOf } from '../world/world-index.js';
import { balancesOf, bidPending, lastEntry, LEDGER_KINDS } from '../engine/ledger.js';
import { noteOutstanding } from './note-view.js';

/** Zero under every rating key of the account answer. */
function byRating(): AmountsByRating {
  return Object.fromEntries(ACCOUNT_RATING_KEYS.map((k) => [k, 0])) as AmountsByRating;
}

/** Adds `amount` under the map's key of `rating`: `NA` for the loans rated `N/A`, as the real account answer keys them. */
function addTo(to: AmountsByRating, rating: string | undefined, amount: number): void {
  const key = accountRatingKey(rating);
  to[key] = cents(to[key] + amount);
}

/** The outstanding principal of an account's notes as GET /notes shows it (the account answer's figure). */
export function accountOutstanding(world: World, accountId: string): number {
  const outstandingOf = noteOutstanding(world);
  let outstanding = 0;
  for (const n of notesOf(world, accountId)) outstanding = cents(outstanding + Math.max(0, outstandingOf(n)));
  return outstanding;
}

/**
 * An account as GET /accounts/platform returns it. A note is active while it holds principal. What ties the
 * figures together (test/account-identities.test.ts checks each after random orders and clock moves):
 * - available_cash_balance is the sum of the account's ledger;
 * - pending_investments_primary_market is what its PENDING bids hold, and the sum of pending_bids;
 * - outstanding_principal_on_active_notes is the sum of invested_notes, and of the notes' outstanding principal as
 *   GET /notes shows it (note-view.ts `noteOutstanding`: each note's share rounded to the cent, once), so the
 *   account and its notes agree to the cent;
 * - total_amount_invested_on_active_notes = total_principal_received_on_active_notes + outstanding_principal_on_active_notes;
 * - total_account_value = cash + the three pending figures + outstanding principal on active notes.
 * The mock has no secondary market, quick invest or deposits in flight: those figures are 0.
 */
export function accountView(world: World, account: Account, now: number, zone: string | undefined): AccountAnswerFields {
  const b = balancesOf(world, account.id);
  const invested = byRating();
  const pending = byRating();
  const outstandingOf = noteOutstanding(world);
  let investedActive = 0;
  let outstanding = 0;
  for (const n of notesOf(world, account.id)) {
    const principal = outstandingOf(n);
    if (principal <= 0) continue;
    investedActive += n.amount;
    outstanding = cents(outstanding + principal);
    addTo(invested, world.loans.get(n.loanNumber)?.platform_rating, principal);
  }
  for (const o of ordersOf(world, account.id)) {
    for (const bid of o.bids) {
      const amount = bidPending(bid);
      if (amount > 0) addTo(pending, world.listingByNumber.get(bid.listing_id)?.platform_rating, amount);
    }
  }
  const deposit = lastEntry(world, account.id, LEDGER_KINDS.DEPOSIT);
  const withdrawal = lastEntry(world, account.id, LEDGER_KINDS.WITHDRAWAL);
  return {
    available_cash_balance: account.cash,
    pending_investments_primary_market: b.pending,
    pending_investments_secondary_market: 0,
    pending_quick_invest_orders: 0,
    total_principal_received_on_active_notes: cents(investedActive - outstanding),
    total_amount_invested_on_active_notes: cents(investedActive),
    outstanding_principal_on_active_notes: outstanding,
    total_account_value: cents(account.cash + b.pending + outstanding),
    pending_deposit: 0,
    ...(deposit ? { last_deposit_amount: deposit.amount, last_deposit_date: formatDateTime(deposit.at, zone) } : {}),
    ...(withdrawal ? { last_withdraw_amount: -withdrawal.amount, last_withdraw_date: formatDateTime(withdrawal.at, zone) } : {}),
    external_user_id: account.externalUserId,
    platform_account_digest: sha256Hex(`${account.id}:${account.externalUserId}`),
    invested_notes: invested,
    pending_bids: pending,
  };
}
