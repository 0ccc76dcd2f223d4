/**
 * The seeded streams are the ones they were: every world, arrival and chance process is drawn from them,
 * so a change in how a stream's start is hashed would change every world of a seed. Pinned values were
 * computed before the hash kept its state as a signed 32-bit integer (the same bits).
 */
import { expect, test } from 'vitest';
import { firstDraw, rngFor, streamState } from '../mock-server/engine/rng-for.js';

test('stream starts, first draws and sources hash as they always did', () => {
  const pinned: Array<[[number, number, number, number], number, number, number]> = [
    [[1, 10000000, 42865, 5], 200737699, 0.7839808680582792, 0.49315362656489015],
    [[7, 2147483653, 32273, 3], 3542518654, 0.5058349161408842, 0.6577461403794587],
    [[-3, 493812, 1049, 0], 1357722534, 0.31709332345053554, 0.7208065006416291],
    [[4294967295, 1700000000000, 9, 1099511627776], 1134658477, 0.36561568081378937, 0.4443271146155894],
    [[0, 0, 0, 0], 3303749576, 0.9392299635801464, 0.19563709758222103],
  ];
  for (const [[s, a, b, c], state, first, next] of pinned) {
    expect(streamState(s, a, b, c)).toBe(state);
    expect(firstDraw(s, a, b)).toBe(first);
    expect(rngFor(s, a, b, c).next()).toBe(next);
  }
});
