/**
 * A dry run with hundreds of skipped listings (issue 42, item 6): the table shows the bids first and the
 * skips counted by reason, a rating_share skip naming its rating and cap; --show-skipped lists every skip,
 * and -o json / -o csv carry every decision. decisionTable alone, then `mkt invest run --dry-run`
 * in-process against a mock on 127.0.0.1.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.js';
import { decisionTable } from '../src/commands/invest-output.js';
import type { Decision } from '../src/invest/planner.js';
import { main } from '../src/main.js';
import { startMock, TEST_START, type TestMock } from './helpers/mock.js';
import { captureIo } from './helpers/capture-io.js';

describe('decisionTable', () => {
  // 24 bids among 700 skips, the bids scattered through the plan as a greedy plan leaves them.
  const decisions: Decision[] = [];
  const ratings = new Map<number, string>();
  for (let i = 1; i <= 724; i++) {
    const bid = i % 30 === 0;
    const rating = i % 2 === 0 ? 'HR' : 'B';
    ratings.set(i, rating);
    if (bid) decisions.push({ listing_id: i, rule: 'r', action: 'bid', amount: 25, reason: 'ok' });
    else if (i % 7 === 0)
      decisions.push({ listing_id: i, rule: 'r', action: 'skip', amount: 25, reason: 'rating_share', detail: `${rating}: …` });
    else decisions.push({ listing_id: i, rule: 'r', action: 'skip', amount: null, reason: i % 3 === 0 ? 'held' : 'max_listings' });
  }

  it('puts the 24 bids first and counts the 700 skips by reason, rating_share by rating with its cap', () => {
    const t = decisionTable(decisions, ratings, { rating_share: { HR: 0.05 }, rules: [] }, false);
    expect(t.rows).toHaveLength(24);
    expect(t.rows.every((r) => r.action === 'bid')).toBe(true);
    expect(t.skips).toBe(700);
    const counts = Object.fromEntries(t.skipped.map((r) => [r.skipped, r.listings]));
    const skips = decisions.filter((d) => d.action === 'skip');
    const n = (f: (d: Decision) => boolean): number => skips.filter(f).length;
    expect(counts).toEqual({
      max_listings: n((d) => d.reason === 'max_listings'),
      held: n((d) => d.reason === 'held'),
      'rating_share HR (cap 5.00%)': n((d) => d.reason === 'rating_share' && ratings.get(d.listing_id) === 'HR'),
      'rating_share B': n((d) => d.reason === 'rating_share' && ratings.get(d.listing_id) === 'B'),
    });
    // Most first.
    const listed = t.skipped.map((r) => r.listings as number);
    expect(listed).toEqual([...listed].sort((a, b) => b - a));
  });

  it('with --show-skipped lists every decision, the bids first, a skip reason with its detail', () => {
    const t = decisionTable(decisions, ratings, undefined, true);
    expect(t.rows).toHaveLength(724);
    expect(t.rows.slice(0, 24).every((r) => r.action === 'bid')).toBe(true);
    expect(t.rows.slice(24).every((r) => r.action === 'skip')).toBe(true);
    expect(t.rows.find((r) => r.listing_id === 14)!.reason).toBe('rating_share (HR: …)');
    expect(t.skipped).toEqual([]);
  });
});

describe('mkt invest run --dry-run -o table with hundreds of skips', () => {
  let mock: TestMock;
  let home: string;
  beforeAll(async () => {
    mock = await startMock({ listings: 300, frozen: true, start: TEST_START });
    home = mkdtempSync(join(tmpdir(), 'mkt-dry-table-'));
  });
  afterAll(async () => {
    await mock.close();
  });

  async function mkt(args: string[]) {
    const stdin = new PassThrough();
    stdin.end();
    const env = { ...mock.env, MKT_CONFIG_DIR: join(home, 'config'), MKT_STATE_DIR: join(home, 'state'), NO_COLOR: '1' };
    const run = captureIo(env, { stdin, ...systemClock });
    const code = await main(args, run.io);
    return { code, stdout: run.out(), stderr: run.err() };
  }

  it('shows the bids, then the skips counted; --show-skipped and -o json have every decision', async () => {
    const f = join(home, 'strategy.yaml');
    // Every listing the mock has, 24 bids at most: the rest are skipped for max_bids_per_run (or held, filter…).
    writeFileSync(f, 'max_bids_per_run: 24\nrules:\n  - name: all\n    sort_by: lender_yield desc\n    amount: 25\n');
    const json = await mkt(['invest', 'run', f, '--dry-run', '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const decisions = (JSON.parse(json.stdout) as { decisions: Decision[] }).decisions;
    const bids = decisions.filter((d) => d.action === 'bid');
    expect(bids).toHaveLength(24);
    expect(decisions.length - 24).toBeGreaterThan(200);

    const table = await mkt(['invest', 'run', f, '--dry-run', '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.split('\n');
    const bidLines = lines.filter((l) => /\bbid\b/.test(l) && /\bok\b/.test(l));
    expect(bidLines).toHaveLength(24);
    for (const b of bids) expect(table.stdout).toContain(String(b.listing_id));
    // No skip row: the skips are counted, most first, after the bids.
    expect(lines.filter((l) => /\bskip\b/.test(l))).toEqual([]);
    const skippedAt = lines.findIndex((l) => /^\s*skipped\s+listings\s*$/.test(l));
    expect(skippedAt).toBeGreaterThan(lines.indexOf(bidLines.at(-1)!));
    const capped = decisions.filter((d) => d.reason === 'max_bids_per_run').length;
    expect(lines.slice(skippedAt)).toContainEqual(expect.stringMatching(new RegExp(`^\\s*max_bids_per_run\\s+${capped}\\s*$`)));

    const all = await mkt(['invest', 'run', f, '--dry-run', '-o', 'table', '--show-skipped']);
    const rows = all.stdout.split('\n').filter((l) => /\b(bid|skip)\b/.test(l) && /^\s*\d/.test(l));
    expect(rows).toHaveLength(decisions.length);
    expect(rows.slice(0, 24).every((l) => /\bbid\b/.test(l))).toBe(true);
  });
});
