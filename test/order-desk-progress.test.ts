/**
 * The order desk's two channels (issue 42, item 4): what went as asked (an order accepted, held bids
 * left out with --skip-held) is progress, quiet off a terminal; what needs the person (a failure, an order
 * whose answer was lost, a bid left out as unbiddable) is info, always printed. With two faults at once
 * the quiet channel must not hide what the loud one needs: a failure after an accepted order names it.
 */
import { describe, expect, it } from 'vitest';
import { RejectedError } from '../src/api/errors.js';
import { EXIT } from '../src/errors.js';
import { bidsOn, failure, range, setup } from './helpers/desk-fakes.js';

/** A desk whose progress lines are kept apart from its info lines. */
function quietSetup(on?: NonNullable<Parameters<typeof setup>[0]>['on']) {
  const progress: string[] = [];
  const s = setup({ deps: { progress: (l) => progress.push(l) }, ...(on ? { on } : {}) });
  return { ...s, progress };
}

describe('the order desk, off a terminal', () => {
  it('says each order accepted on the progress channel only: a run that succeeds has nothing to mail', async () => {
    const { desk, lines, progress } = quietSetup();
    const placed = await desk.place(bidsOn(range(150)));
    expect(placed.exitCode).toBe(EXIT.OK);
    expect(lines).toEqual([]);
    expect(progress).toEqual(['order 1/2 accepted: o1 (100 bids)', 'order 2/2 accepted: o2 (50 bids)']);
  });

  it('--skip-held is progress (asked for); a bid left out as unbiddable is info (a bid asked for and not placed)', async () => {
    const { api, desk, lines, progress } = quietSetup();
    api.participation.set(1000, 25);
    api.unbiddable.set(1001, 'it has not started');
    await desk.place(bidsOn(range(3)), { skipHeld: true });
    expect(progress[0]).toMatch(/^leaving out 1 bid on listings already held:/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^leaving out 1 bid on listings that cannot take bids now:\n {2}listing 1001: it has not started$/);
  });

  it('order 1 accepted, then order 2 rejected: the failure, all that is mailed, names order 1', async () => {
    const { api, desk, lines, progress } = quietSetup();
    api.next.push('ok', new RejectedError('order submit failed (HTTP 400): ORD0001: bad', EXIT.REJECTED, 400, 'ORD0001', null));
    const err = await failure(desk.place(bidsOn(range(150))));
    expect(err.exitCode).toBe(EXIT.REJECTED);
    expect(err.message).toMatch(/^order 2\/2 rejected: .*\. Orders already placed: o1\.$/);
    expect(progress).toEqual(['order 1/2 accepted: o1 (100 bids)']);
    expect(lines).toEqual([]);
  });

  it("an answer lost, then the next run: the failure, and the rerun's reconciling, reach info; only its own order is progress", async () => {
    const first = quietSetup();
    first.api.next.push('ok', 'lose');
    const err = await failure(first.desk.place(bidsOn(range(150))));
    expect(err.message).toMatch(/order 2\/2: no answer from the marketplace .* Orders already placed: o1\./);
    expect(first.lines).toEqual([]);

    // The rerun shares the journal's view through the marketplace: the lost order is found and recorded, not sent again.
    const rerun = quietSetup({ clock: first.clock, api: first.api });
    const journalled = first.journal.list;
    for (const e of journalled) rerun.journal.append(e);
    await rerun.desk.place(bidsOn(range(1, 5000)));
    expect(rerun.lines.join('\n')).toMatch(
      /reconciling 1 order whose answer was lost…\n {2}order o2 was placed \(the answer had been lost\)/,
    );
    expect(rerun.progress).toEqual(['order 1/1 accepted: o3 (1 bids)']);
  });
});
