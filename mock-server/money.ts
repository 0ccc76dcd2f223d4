/** Money arithmetic of the mock: cents and amortisation. */

/** Rounds to cents. */
export const cents = (x: number): number => Math.round(x * 100) / 100;

/** The level monthly payment of an amortised loan. */
export function monthlyPayment(principal: number, annualRate: number, months: number): number {
  const r = annualRate / 12;
  if (r === 0) return cents(principal / months);
  return cents((principal * r) / (1 - Math.pow(1 + r, -months)));
}
