/** The investor's account: cash balance, pending investments, total value, external_user_id. */
import type { ApiClient } from './client.js';

/** The account summary. */
export interface AccountSummary {
  available_cash_balance: number;
  pending_investments: number;
  total_account_value: number;
  external_user_id: string;
  [field: string]: unknown;
}

/** The caller's account summary. */
export function platform(client: ApiClient): Promise<AccountSummary> {
  return client.call<AccountSummary>({ method: 'GET', base: 'base', path: '/accounts/platform', what: 'account' });
}
