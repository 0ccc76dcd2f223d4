/**
 * Passwords of the seeded investors, for the opt-in password grant (`mkt mock serve --allow-password-grant`,
 * an extension outside the spec: the public clients of the real marketplace sign in this way). Derived from
 * the world's seed and the user's id: each seed has its own, the same seed always the same, none stored.
 */
import { sameSecret, sha256Base64url } from '../kit/digest.js';

/** The password of seeded user `userId` in the world of `seed`. */
export function userPassword(seed: number, userId: string): string {
  return sha256Base64url(`mkt-mock-password:${seed}:${userId}`).slice(0, 16);
}

/** True when `given` is the password of `userId` (compared in constant time). */
export function passwordMatches(seed: number, userId: string, given: string): boolean {
  return sameSecret(given, userPassword(seed, userId));
}
