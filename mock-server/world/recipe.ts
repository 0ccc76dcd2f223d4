/**
 * What a seeded world is made from: the seed's options (seed/seed.ts builds the world from them); kept in
 * a --state folder's base record and a reset's, so the layers below the seed name it too.
 */
import { DEFAULT_RELEASE_MINUTES } from '../../src/contract/releases.js';

/** Whether the world starts with a history of originated loans and notes ('seeded', the default) or none. */
export type SeedHistory = 'seeded' | 'none';

/** What to build. */
export interface SeedOptions {
  seed: number;
  /** Active listings (0: none; the market then adds none either, arrivals keeping the seeded number steady). */
  listings: number;
  /** 'none': no history listings, loans or notes; the investors keep their funded accounts (their deposits and withdrawals). */
  history?: SeedHistory;
  /** The virtual time the world is built around. */
  now: number;
  /** A fresh investor, one funded account and no history (`mkt invest simulate`); the rest of the world is unchanged. */
  investor?: { id: string; cash: number };
  /**
   * When new listings arrive: in batches at these times (minutes after midnight, America/New_York:
   * src/contract/releases.ts), or 'steady' (every hour). Absent means steady: a --state folder's base written
   * before release times had none, and replays as it was made; a mock writes it into every recipe it makes.
   */
  releases?: readonly number[] | 'steady';
}

/** What a seeded world is made from, its time aside (a fresh --state folder's base, a reset's). */
export type SeedRecipe = Omit<SeedOptions, 'now'>;

/** The recipe of a mock's options: the release times always written (absent means steady, as before them), by default noon and 6 pm. */
export function recipeFrom(o: SeedRecipe): SeedRecipe {
  const { seed, listings, investor, history } = o;
  const releases = o.releases ?? DEFAULT_RELEASE_MINUTES;
  return { seed, listings, ...(history ? { history } : {}), ...(investor ? { investor } : {}), releases };
}
