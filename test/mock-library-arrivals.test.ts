/**
 * `mkt/mock` in Node draws a long clock move's arrivals on another thread, as `mkt mock serve` does
 * (library/node.ts, engine/arrivals-thread.ts): the move takes the thread's batches, the world ends as the ticks'
 * own drawing leaves it (the browser entry's marketplace, which has no thread), a short move starts no thread, and
 * the thread keeps no process alive. From the build (npm test builds first): a worker starts from a built file.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import type * as NodeEntry from '../mock-server/library/node.js';
import type * as BrowserEntry from '../mock-server/library/index.js';
import type * as Internal from '../mock-server/library/internal.js';

const dist = resolve(import.meta.dirname, '../dist');
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(join(dist, file)).href)) as T;
const node = await load<typeof NodeEntry>('mock-server/library/node.js');
const browser = await load<typeof BrowserEntry>('mock-server/library/index.js');
const { appOf, arrivalsOf } = await load<typeof Internal>('mock-server/library/internal.js');

// A month at 100,000 listings brings ~216,000: a long move (engine.ts LONG_MOVE_ARRIVALS, 150,000).
const OPTIONS = { listings: 100_000, start: '2026-06-01T12:00:00Z' };

/** What a move changes of a listing, or draws for one that arrives. */
const LISTING_FIELDS = [
  'listing_number',
  'listing_status',
  'listing_amount',
  'amount_funded',
  'borrower_rate',
  'fico_score',
  'verification_stage',
  'listing_start_date',
  'listing_end_date',
  'last_updated_date',
] as const;

/**
 * The world of `market`, settled: each listing's fields a move changes or draws, and every loan, ledger entry, note,
 * account and order whole (a month at 100,000 listings writes a state text longer than a string may be, and
 * JSON.stringify of 332,000 listings drawing their descriptions took 7 s).
 */
function digest(market: NodeEntry.Marketplace): string {
  const app = appOf(market);
  app.ctx.engine.settle();
  const world = app.ctx.world as unknown as Record<string, Iterable<unknown> & { entries?: () => Iterable<unknown> }>;
  const hash = createHash('sha256').update(String(app.ctx.clock.now()));
  for (const l of world.listings as Iterable<Record<string, unknown>>) hash.update(`${LISTING_FIELDS.map((k) => String(l[k])).join(' ')},`);
  for (const key of ['loans', 'ledger', 'notes', 'accounts', 'orders']) {
    const value = world[key]!;
    hash.update(`\n${key}:`);
    for (const part of Array.isArray(value) ? value : value.entries!()) hash.update(`${JSON.stringify(part)},`);
  }
  return hash.digest('hex');
}

describe("mkt/mock in Node: a long move's arrivals on another thread", () => {
  test('a month at 100,000 listings takes the thread, and ends in the world the ticks alone make', async () => {
    const threaded = node.createMarketplace(OPTIONS);
    const alone = browser.createMarketplace(OPTIONS);
    try {
      await threaded.clock.advance('1d');
      expect(arrivalsOf(threaded)!.jobs, 'a short move posts no job').toBe(0);
      await threaded.clock.advance('30d');
      expect(arrivalsOf(threaded)!.jobs).toBeGreaterThanOrEqual(1);
      // The ticks took the thread's batches, one an hour with arrivals (a batch drawn for other numbers is let go, and
      // the ticks draw their own: the world would be the same).
      expect(arrivalsOf(threaded)!.taken).toBeGreaterThan(0);
      expect(arrivalsOf(alone), "the browser entry's has no thread").toBeUndefined();
      await alone.clock.advance('1d');
      await alone.clock.advance('30d');
      expect(digest(threaded)).toBe(digest(alone));
    } finally {
      await threaded.close();
      await alone.close();
    }
  }, 120_000);

  test('the thread keeps no process alive: a script that never closes its marketplace ends', () => {
    const script = `
      const { createMarketplace } = await import(${JSON.stringify(pathToFileURL(join(dist, 'mock-server/library/node.js')).href)});
      const { arrivalsOf } = await import(${JSON.stringify(pathToFileURL(join(dist, 'mock-server/library/internal.js')).href)});
      const m = createMarketplace(${JSON.stringify(OPTIONS)});
      await m.clock.advance('30d');
      console.log('jobs', arrivalsOf(m).jobs);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.error, 'ended before the timeout').toBeUndefined();
    expect(run.status, run.stderr).toBe(0);
    // A job posted, and the thread drawing the next move's first release (warm) as the script ends.
    expect(run.stdout).toMatch(/^jobs [1-9]/);
  }, 90_000);
});
