/** Money arithmetic of the mock: cents and amortisation. */

import { toCents as cents } from '../../src/contract/bid-rules.js';

/** Rounds to cents (the contract's rounding, shared with the client's checks). */
export { cents };

/** The level monthly payment of an amortised loan (the contract's, which the portfolio report rebuilds schedules with). */
export { monthlyPayment } from '../../src/contract/amortisation.js';
