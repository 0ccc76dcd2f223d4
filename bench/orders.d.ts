// Types of bench/orders.js for the tests that import it (test/bench-orders.test.ts).

/** True once a client's rates, window by window, have stopped rising (bench/orders.js). */
export function steady(rates: readonly number[]): boolean;

/** The orders section of `npm run bench`; rows go to `row`. */
export function ordersSection(row: (what: string, value: string, bar: string, ok: boolean) => void): Promise<void>;
