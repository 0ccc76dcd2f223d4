/** The investor's account: cash balance, pending investments, total value, external_user_id. */
import { decodeAccount } from '../contract/decode.js';
import type { Account } from '../contract/decode.js';
import type { ApiClient } from './client.js';

export type { Account } from '../contract/decode.js';

/** The caller's account summary. */
export function platform(client: ApiClient): Promise<Account> {
  return client.call({ method: 'GET', base: 'base', path: '/accounts/platform', what: 'account', decode: decodeAccount });
}
