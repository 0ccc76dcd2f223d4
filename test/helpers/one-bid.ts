/** A bids file of one 25.00 bid that alice may place now, and the orders a mock holds: for the order desk's e2e tests. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestMock } from './mock.js';

/** Every order the mock holds. */
export const ordersIn = (m: TestMock) => [...m.app.ctx.world.orders.values()];

/** A bids file with one 25.00 bid on an active fractional listing alice may bid on now. */
export function bidsFile(m: TestMock, home: string): string {
  const now = m.app.ctx.clock.now();
  const l = m.app.ctx.world.listings.find(
    (x) =>
      x.listing_status === 2
      && x.investment_typeid === 1
      && x.amount_remaining >= 100
      && !x.borrowerUserId
      && now - x.listing_creation_date > 2 * 86_400_000
      && x.listing_start_date < now
      && !x.mockRole
      && !x.authorizedUsers
      && !x.investmentTypeUnset,
  )!;
  const path = join(home, 'bids.csv');
  writeFileSync(path, `listing_id,bid_amount\n${l.listing_number},25\n`);
  return path;
}
