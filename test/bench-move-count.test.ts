// The clock move's count (bench/move-count.js): reading cachegrind's summary, and its command line.
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachegrindCounts, moveCountArgs } from '../bench/move-count.js';

// The summary valgrind 3.19 (Debian's) printed for `node -e ''` with the script's cache options, 2026-12-02.
const SUMMARY = `==7055== Cachegrind, a cache and branch-prediction profiler
==7055== Command: node -e
==7055== 
--7055-- warning: L3 cache found, using its data for the LL simulation.
--7055-- warning: specified LL cache: line_size 64  assoc 16  total_size 503,316,480
--7055-- warning: simulated LL cache: line_size 64  assoc 30  total_size 503,316,480
==7055== 
==7055== I   refs:      504,210,213
==7055== I1  misses:      1,240,123
==7055== LLi misses:         34,745
==7055== I1  miss rate:        0.25%
==7055== LLi miss rate:        0.01%
==7055== 
==7055== D   refs:      186,740,439  (123,678,354 rd   + 63,062,085 wr)
==7055== D1  misses:      1,846,248  (  1,538,110 rd   +    308,138 wr)
==7055== LLd misses:        195,750  (     93,220 rd   +    102,530 wr)
==7055== D1  miss rate:         1.0% (        1.2%     +        0.5%  )
==7055== LLd miss rate:         0.1% (        0.1%     +        0.2%  )
==7055== 
==7055== LL refs:         3,086,371  (  2,778,233 rd   +    308,138 wr)
==7055== LL misses:         230,495  (    127,965 rd   +    102,530 wr)
==7055== LL miss rate:          0.0% (        0.0%     +        0.2%  )
`;

describe('cachegrindCounts', () => {
  it('reads the instructions, the D1 misses and the last level misses (data and instructions), not the LLd line', () => {
    expect(cachegrindCounts(SUMMARY)).toEqual({ ir: 504_210_213, d1: 1_846_248, ll: 230_495 });
  });

  it('refuses a summary without one of them, naming it', () => {
    expect(() => cachegrindCounts(SUMMARY.replace(/^.*LL misses:.*$/m, ''))).toThrow(/no 'LL misses' line/);
    expect(() => cachegrindCounts('node: bad option: --no-such-flag\n')).toThrow(/no 'I refs' line/);
  });
});

describe('moveCountArgs', () => {
  it('takes 100,000 listings, a 15-day move, three runs and this checkout by default', () => {
    expect(moveCountArgs([])).toEqual({ listings: 100_000, runs: 3, span: '15d', roots: [resolve(join(__dirname, '..'))] });
  });

  it('takes a before and an after build', () => {
    expect(moveCountArgs(['--span', '6h', '--runs', '1', 'a', 'b']).roots).toEqual([resolve('a'), resolve('b')]);
  });

  it.each([
    [['--listings', '1e5'], /--listings: not a whole number: 1e5/],
    [['--listings', '2000'], /--listings: at least 50000 \(a smaller world's runs vary by more than its move\): 2000/],
    [['--runs', '10'], /--runs: not a whole number from 1 to 9: 10/],
    [['--span', '15'], /--span: not a duration such as 15d or 6h: 15/],
    [['--span', '0d'], /--span/],
    [['a', 'b', 'c'], /at most two builds, a before and an after: 3 given/],
  ])('refuses %j, naming what is wrong', (args, message) => {
    expect(() => moveCountArgs(args)).toThrow(message);
  });
});
