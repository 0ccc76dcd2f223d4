/**
 * The chance processes of an active listing (a withdrawal, a verification step, a whole-loan buyer)
 * and when each fires: a pure function of the seed, the listing number, the process
 * and the hour, drawn block by block from streams of their own. The timeline (timeline.ts) keeps where
 * each live listing's streams stand; the plain hourly walk of the tests asks `firesAt` hour by hour.
 */
import { mulberry32, nextState } from '../kit/rng.js';
import type { Listing } from '../world/world.js';
import { streamState } from './rng-for.js';

/** The chance processes of an active listing, as bits of a mask of those that fire in an hour (bit i is process i). */
export const WITHDRAW = 1;
export const VERIFY = 2;
export const BUY = 4;
/** How many chance processes a listing has (the timeline keeps a stream of each). */
export const PROCESS_COUNT = 3;

/**
 * Chance per hour of each process: the operator withdraws an active listing; its verification moves
 * up a stage; a whole-loan buyer takes a whole loan. (Simulated investors fund fractional listings at a
 * steady pace of their own: own-steps.ts.)
 */
export const CHANCE_PER_HOUR: readonly number[] = [0.0001, 0.05, 0.004];
const LOG_MISS = CHANCE_PER_HOUR.map((p) => Math.log(1 - p));
/** Firing hours are drawn per block of hours, each block from its own stream: long blocks for the rare processes, so a draw seldom finds nothing. */
const BLOCK_HOURS: readonly number[] = [2048, 64, 512];
/** Salt of each process's streams (keeps them apart from a listing's other draws; 0x7e12 was a funding process's, retired). */
const STREAM_SALT: readonly number[] = [0x7e10, 0x7e11, 0x7e13];

/** Where a call without a row of its own keeps its streams (it starts each over). */
const scratchHours = new Float64Array(PROCESS_COUNT);
const scratchStates = new Uint32Array(PROCESS_COUNT);

/**
 * The first hour in [from, until) at which process `i` fires for listing `n`, or Infinity. Within
 * each block of hours the firing hours are geometric gaps drawn from the block's own stream, so a
 * process fires at an hour with its chance per hour, independently of every other hour, listing and
 * process, and the answer is a function of the seed, `n`, `i` and the hour alone. The timeline
 * remembers where each stream stood (`fireAfter`), so the next call in the same block continues it
 * instead of starting over.
 */
export function nextFiring(seed: number, n: number, i: number, from: number, until: number): number {
  scratchHours[i] = Infinity;
  return fireAfter(seed, n, i, from, until, scratchHours, 0, scratchStates, 0);
}

/** `nextFiring` of a listing whose streams stand at `H[ho + i]`, `S[so + i]`, which it moves on. */
export function fireAfter(
  seed: number,
  n: number,
  i: number,
  from: number,
  until: number,
  H: Float64Array,
  ho: number,
  S: Uint32Array,
  so: number,
): number {
  const logMiss = LOG_MISS[i]!;
  const size = BLOCK_HOURS[i]!;
  let h = H[ho + i]!;
  let block = Math.floor(from / size);
  let state = S[so + i]!;
  if (!(h < from && Math.floor(h / size) === block)) {
    h = block * size - 1;
    state = streamState(seed, n, STREAM_SALT[i]!, block);
  }
  while (block * size < until) {
    const blockEnd = (block + 1) * size;
    for (;;) {
      state = nextState(state);
      h += 1 + Math.floor(Math.log(1 - mulberry32(state)) / logMiss);
      if (h >= blockEnd) break;
      if (h >= from) {
        S[so + i] = state;
        return (H[ho + i] = h < until ? h : Infinity);
      }
    }
    block++;
    h = block * size - 1;
    state = streamState(seed, n, STREAM_SALT[i]!, block);
  }
  return (H[ho + i] = Infinity);
}

/** The processes that fire for listing `l` at hour `h` (the mask a straightforward hourly walk computes). */
export function firesAt(seed: number, l: Listing, h: number): number {
  let mask = 0;
  for (let i = 0; i < PROCESS_COUNT; i++) if (nextFiring(seed, l.listing_number, i, h, h + 1) === h) mask |= 1 << i;
  return mask;
}
