/**
 * Gives a priced set of offers its referral code, offer ids and URLs, and keeps it in the world so
 * the offer pages answer. Codes and ids come from the world's counters: deterministic for a given world,
 * unique per response.
 */
import { sha256Hex } from '../kit/digest.js';
import type { Offer, OfferRecord, World } from '../world/world.js';
import type { PricedOffer } from './pricing.js';

/** Path of the page listing a response's offers (under root_url); an offer's page adds `/{id}`. */
export const OFFER_PAGES_PATH = '/apply/offers';

/** Most responses kept for their pages; the oldest go first. */
const MAX_RECORDS = 10_000;

/** A unique, hard-to-guess-looking referral code for response number `n` of the world seeded with `seed`. */
export function referralCode(seed: number, n: number): string {
  const tag = sha256Hex(`${seed}:${n}`).slice(0, 6).toUpperCase();
  return `${n.toString(36).toUpperCase().padStart(4, '0')}${tag}`;
}

/** The offers page of `code` at `origin` (root_url). */
export const offersPageUrl = (origin: string, code: string): string => `${origin}${OFFER_PAGES_PATH}/${encodeURIComponent(code)}`;

/** What a successful offers response carries besides identification. */
export interface IssuedOffers {
  referral_code: string;
  offers_url: string;
  offers: Offer[];
}

/** Numbers, links and stores `priced` for an applicant named `firstName`. */
export function issueOffers(
  world: World,
  origin: string,
  now: number,
  firstName: string,
  requestedAmount: number,
  priced: PricedOffer[],
): IssuedOffers {
  const code = referralCode(world.seed, world.offerCounters.response++);
  const offersUrl = offersPageUrl(origin, code);
  const offers: Offer[] = priced.map((p) => {
    const id = world.offerCounters.offer++;
    return { id, ...p, offer_url: `${offersUrl}/${id}` };
  });
  const record: OfferRecord = { referralCode: code, createdAt: now, firstName, requestedAmount, offers };
  world.offerRecords.set(code, record);
  if (world.offerRecords.size > MAX_RECORDS) world.offerRecords.delete(world.offerRecords.keys().next().value!);
  return { referral_code: code, offers_url: offersUrl, offers };
}
