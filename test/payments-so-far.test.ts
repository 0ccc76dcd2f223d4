/**
 * The month ends of `mkt invest simulate` read the payments since the last one (src/flows/gather.ts `PaymentsSoFar`):
 * at every read each loan's rows are those one read of everything gives, in its order, whether the loan was seen at the
 * last read, is new, or the last read was not at a day's end.
 */
import { describe, expect, test } from 'vitest';
import { createMarketplace } from '../mock-server/library/index.js';
import { ApiClient } from '../src/api/client.js';
import * as listings from '../src/api/listings.js';
import * as orders from '../src/api/orders.js';
import { addMonths } from '../src/contract/amortisation.js';
import { READ_WRITE_SCOPES } from '../src/contract/enums.js';
import { PaymentsSoFar, readPayments } from '../src/flows/gather.js';
import type { FlowRow } from '../src/flows/payment-rows.js';
import { InProcessHttp, SIMULATION_START } from '../src/invest/simulate.js';

const ORIGIN = 'http://127.0.0.1';

/** Rows by loan, each loan's in the order given. */
function byLoan(rows: readonly FlowRow[]): Map<number, FlowRow[]> {
  const out = new Map<number, FlowRow[]>();
  for (const r of rows) out.set(r.loan, [...(out.get(r.loan) ?? []), r]);
  return new Map([...out].sort((a, b) => a[0] - b[0]));
}

describe('payments read since the last read', () => {
  test("each read gives every loan's rows as a read of everything does, asking for less after a day's end", async () => {
    const mock = createMarketplace({ seed: 4, listings: 300, start: SIMULATION_START });
    try {
      const token = await mock.tokenFor('alice', { scopes: READ_WRITE_SCOPES, expiresIn: '400d' });
      const client = new ApiClient(
        new InProcessHttp(mock),
        { baseUrl: `${ORIGIN}/v1`, rootUrl: ORIGIN, authUrl: ORIGIN, clientId: 'mkt-demo', timezone: undefined } as never,
        { accessToken: async () => token },
      );
      const books = mock.account('alice-1');
      const kept = new PaymentsSoFar();
      const filtered: boolean[] = [];
      const held: number[] = [];
      // Month ends (the last instant of a day), and once a read at noon: the next read then reads everything again.
      const reads = [1, 2, 2.5, 3, 4, 5].map((m) =>
        m % 1 === 0 ? addMonths(SIMULATION_START, m) - 1 : addMonths(SIMULATION_START, Math.floor(m)) + 12 * 3_600_000,
      );
      for (const [i, at] of reads.entries()) {
        await mock.clock.to(at);
        if (i === 1) {
          // New notes on the way: their loans' payments are all read, whenever they come.
          const page = await listings.search(client, new URLSearchParams({ biddable: 'true', limit: '5', sort_by: 'percent_funded desc' }));
          for (const l of page.result)
            await orders.submit(client, [{ listing_id: Number(l.listing_number), bid_amount: 25 }]).catch(() => {});
        }
        const loans = books.notes().map((n) => n.loan_number);
        const before = (await mock.requests.list({ limit: 1 }))[0]?.id;
        const rows = await kept.read(client, loans, mock.clock.now().getTime());
        const log = await mock.requests.list({ limit: 500 });
        // The log is newest first: this read's requests are those before the newest one seen ahead of it.
        const mine =
          before === undefined
            ? log
            : log.slice(
                0,
                log.findIndex((q) => q.id === before),
              );
        const asked = mine.filter((q) => q.path.endsWith('/loans/payments'));
        expect(byLoan(rows)).toEqual(byLoan(await readPayments(client, loans)));
        filtered.push(asked.some((q) => q.query.includes('transaction_effective_date=')));
        held.push(new Set(loans).size);
      }
      // A read after a month end asks for less; the first, and the one after the noon read, read everything.
      expect(filtered).toEqual([false, true, true, false, true, true]);
      // Loans were held from the start, and more came after the first reads (the notes bought).
      expect(held[0]).toBeGreaterThan(0);
      expect(held.at(-1)).toBeGreaterThan(held[1]!);
    } finally {
      await mock.close();
    }
  }, 120_000);
});
