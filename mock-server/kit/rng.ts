/** A small seeded PRNG (mulberry32) so that the same seed always builds the same world. */

/** The state of a stream started from `seed` (as the Rng constructor takes it). */
export function initialState(seed: number): number {
  return seed >>> 0 || 0x9e3779b9;
}

/** The state after `state`: each step of the stream advances it once. */
export function nextState(state: number): number {
  return (state + 0x6d2b79f5) >>> 0;
}

/** mulberry32's output in [0, 1) for an advanced state; engines that draw in a hot loop step a plain number with these. */
export function mulberry32(state: number): number {
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** A deterministic random source. */
export class Rng {
  /**
   * The state as two 16-bit halves: a field holding a uint32 above 2^30 is a boxed number, and every draw
   * allocated a new box (seeding a million listings makes about 90 million draws); halves stay small
   * integers, and a generator is still a plain object, cheap to make (engines make one per listing).
   */
  private hi: number;
  private lo: number;

  constructor(seed: number) {
    const s = initialState(seed);
    this.hi = s >>> 16;
    this.lo = s & 0xffff;
  }

  /** Where the stream stands: the state its next draw steps from (`Rng.resume` continues it). */
  get state(): number {
    return ((this.hi << 16) | this.lo) >>> 0;
  }

  /** Moves the stream to `state` (read from `state`: a hot loop steps a plain number with nextState and hands it back). */
  set state(state: number) {
    this.hi = state >>> 16;
    this.lo = state & 0xffff;
  }

  /** A source continuing a stream from `state`, read earlier from `state`. */
  static resume(state: number): Rng {
    const rng = new Rng(1);
    rng.hi = state >>> 16;
    rng.lo = state & 0xffff;
    return rng;
  }

  /** Steps over `n` draws without computing them (each draw steps the state by the same constant). */
  skip(n: number): void {
    const s = (((this.hi << 16) | this.lo) >>> 0) + Math.imul(n, 0x6d2b79f5);
    this.hi = (s >>> 16) & 0xffff;
    this.lo = s & 0xffff;
  }

  /** A float in [0, 1). */
  next(): number {
    const s = nextState(((this.hi << 16) | this.lo) >>> 0);
    this.hi = s >>> 16;
    this.lo = s & 0xffff;
    return mulberry32(s);
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  range(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of `items`. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** `n` hex digits. */
  hex(n: number): string {
    let s = '';
    while (s.length < n) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }

  /** A version-4-shaped UUID from this source. */
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[parseInt(h[16]!, 16) & 3]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}
