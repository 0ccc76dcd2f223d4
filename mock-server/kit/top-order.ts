/**
 * The first `k` positions of the order `radixOrder` (radix-order.ts) gives, without ordering the rest: a page of 25
 * sorted listings out of 900,000 matches needs the 25 first, and ordering them all was most of a new search (a tenth
 * of a second at a million listings). One pass keeps the k best seen in a heap (most positions lose to its worst at
 * the first comparison, of one number), then the heap is put in order.
 */

/**
 * The first `k` of positions 0..n−1 in the order `radixOrder(keys, desc, n, room)` gives (each clause ascending, or descending
 * where `desc` says, NaN (null) last either way, -0 and 0 equal, ties in position order), in order; null when a key is
 * infinite (then it would tie with a null here: the caller orders them all, `keys` as they were). Otherwise `keys` are overwritten.
 */
export function topOrder(keys: readonly Float64Array[], desc: readonly boolean[], n: number, k: number): Uint32Array | null {
  // Ranks, smaller first: the value (negated for a descending clause), a null after every finite number.
  for (let c = 0; c < keys.length; c++) {
    const key = keys[c]!;
    const neg = desc[c]!;
    for (let i = 0; i < n; i++) {
      const v = key[i]!;
      if (v === Infinity || v === -Infinity) {
        // Put back what was ranked (each step is its own inverse on finite numbers), and decline.
        for (let d = 0; d <= c; d++) unrank(keys[d]!, desc[d]!, d < c ? n : i);
        return null;
      }
      key[i] = v !== v ? Infinity : neg ? -v : v;
    }
  }
  const first = keys[0]!;
  const size = Math.min(k, n);
  // A max-heap: its root is the worst of the best `size` seen so far. Every position in it is below the one looked at.
  const heap = new Uint32Array(size);
  const worse = (a: number, b: number): boolean => {
    for (let c = 0; c < keys.length; c++) {
      const x = keys[c]![a]!;
      const y = keys[c]![b]!;
      if (x !== y) return x > y;
    }
    return a > b;
  };
  const down = (from: number, len: number): void => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= len) return;
      const r = l + 1;
      const m = r < len && worse(heap[r]!, heap[l]!) ? r : l;
      if (!worse(heap[m]!, heap[i]!)) return;
      const t = heap[i]!;
      heap[i] = heap[m]!;
      heap[m] = t;
      i = m;
    }
  };
  for (let p = 0; p < size; p++) heap[p] = p;
  for (let i = (size >> 1) - 1; i >= 0; i--) down(i, size);
  if (size > 0) {
    let worst = first[heap[0]!]!;
    for (let p = size; p < n; p++) {
      const x = first[p]!;
      // Behind the heap's worst on the first clause, or tied on every clause (its position is later): out.
      if (x > worst || (x === worst && !worse(heap[0]!, p))) continue;
      heap[0] = p;
      down(0, size);
      worst = first[heap[0]!]!;
    }
  }
  // Heap sort: the worst to the end, one at a time.
  for (let len = size - 1; len > 0; len--) {
    const t = heap[0]!;
    heap[0] = heap[len]!;
    heap[len] = t;
    down(0, len);
  }
  return heap;
}

/** Undoes the ranking of the first `m` keys of a clause: a rank of Infinity was a null (NaN), a descending one's rank its negation. */
function unrank(key: Float64Array, neg: boolean, m: number): void {
  for (let i = 0; i < m; i++) {
    const r = key[i]!;
    key[i] = r === Infinity ? NaN : neg ? -r : r;
  }
}
