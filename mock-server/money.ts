/** Money arithmetic of the mock: cents and amortisation. */

import { toCents as cents } from '../src/contract/bid-rules.js';

/** Rounds to cents (the contract's rounding, shared with the client's checks). */
export { cents };

/** The level monthly payment of an amortised loan. */
export function monthlyPayment(principal: number, annualRate: number, months: number): number {
  const r = annualRate / 12;
  if (r === 0) return cents(principal / months);
  return cents((principal * r) / (1 - Math.pow(1 + r, -months)));
}
