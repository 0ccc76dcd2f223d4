/**
 * A long clock move's arrivals drawn on another thread (engine/arrivals-thread.ts): the ticks take each hour's
 * batch, its listings and their places in the timeline, and the world ends as the ticks' own drawing leaves it. The
 * thread is the build's (npm test builds first): a worker starts from a built file, tsc's or the CLI bundle's.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import type * as ThreadModule from '../mock-server/engine/arrivals-thread.js';
import type { ArrivalsAhead } from '../mock-server/world/derived.js';
import { serializeState } from '../mock-server/world/persistence.js';
import type { World } from '../mock-server/world/world.js';
import { testMockApp } from './helpers/mock.js';

const dist = resolve(import.meta.dirname, '../dist');
const { ArrivalsThread } = (await import(pathToFileURL(join(dist, 'mock-server/engine/arrivals-thread.js')).href)) as typeof ThreadModule;

const START = Date.parse('2026-06-01T12:00:00Z');
const DAY = 86_400_000;
const LISTINGS = 6000;

/** What a move asked of the thread and got from it; the jobs the thread was given (ArrivalsThread `jobs`) as the mock ends. */
interface Counts {
  asked: number;
  taken: number;
  jobs?: number;
}

/** `ahead` counted: each hour it is asked for, each batch it gives. */
function counted(ahead: ArrivalsAhead | null, counts: Counts): ArrivalsAhead | null {
  if (!ahead) return null;
  return {
    take(t, number) {
      counts.asked++;
      const batch = ahead.take(t, number);
      if (batch) counts.taken++;
      return batch;
    },
    stop: () => ahead.stop(),
  };
}

/** Run before the moves, while the mock waits (`thread` is null when the ticks draw every arrival). */
type Before = (app: MockApp, thread: InstanceType<typeof ArrivalsThread> | null) => Promise<unknown>;

/**
 * Moves a world of LISTINGS `days` forward, `moves` times, its arrivals drawn by the worker in `file` (one thread for
 * every move, given the moves of `least` arrivals or more; none: by the ticks), with `before` run first and
 * `between(day)` after each day; returns the settled world's digest, as a restart would read it.
 */
async function moved(
  days: number,
  file: string | null,
  counts: Counts = { asked: 0, taken: 0 },
  between?: (app: MockApp, day: number) => Promise<unknown>,
  moves = 1,
  { before, least = 0 }: { before?: Before; least?: number } = {},
): Promise<string> {
  const thread = file === null ? null : new ArrivalsThread(least, file);
  const arrivalsAhead = thread ? (world: World, from: number, to: number) => counted(thread.ahead(world, from, to), counts) : undefined;
  const app = testMockApp({ seed: 11, listings: LISTINGS, frozen: true, start: START, admin: true, arrivalsAhead }, () => START);
  try {
    await before?.(app, thread);
    const done: Promise<unknown>[] = [];
    let day = 0;
    for (let m = 0; m < moves; m++)
      await app.ctx.engine.moveClock(
        (now) => now + days * DAY,
        () => void (between && done.push(between(app, ++day))),
      );
    await Promise.all(done);
    app.ctx.engine.settle();
    counts.jobs = thread?.jobs;
    return createHash('sha256').update(serializeState(app.ctx.world, app.ctx.clock.now())).digest('hex');
  } finally {
    await app.close?.();
    await thread?.close();
  }
}

/** A listing added through the admin route, as a client developer's test adds one: it takes the world's next number. */
const addListing = (app: MockApp) =>
  app.handle(
    new Request('http://mock.test/__mock/listings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ listing_amount: 5000 }),
    }),
  );

const worker = join(dist, 'mock-server/engine/arrivals-worker.js');
const bundled = join(dist, 'bundle/arrivals-worker.cjs');

describe("a long move's arrivals drawn on another thread", () => {
  test('the world ends the same, every release taken from the thread (tsc build and CLI bundle)', async () => {
    const plain = await moved(20, null);
    for (const file of [worker, bundled]) {
      const counts = { asked: 0, taken: 0 };
      expect(await moved(20, file, counts)).toBe(plain);
      // 20 days from a Monday's 8 am in New York: three weeks of weekdays, two releases each (the ticks wait for a batch under way).
      expect(counts.asked).toBe(30);
      expect(counts.taken).toBe(counts.asked);
    }
  });

  test('a listing added between two days of the move lets the later batches go, and the world is the one the ticks would draw', async () => {
    // The listing is added on the fourth day's turn, as a request answered between days is.
    const add = (app: MockApp, day: number) => (day === 4 ? addListing(app) : Promise.resolve());
    const plain = await moved(10, null, undefined, add);
    const counts = { asked: 0, taken: 0 };
    expect(await moved(10, worker, counts, add)).toBe(plain);
    // Taken until the added listing took the next number (the days before it hold its releases), none after.
    expect(counts.taken).toBeGreaterThan(0);
    expect(counts.taken).toBeLessThan(counts.asked);
    // The listing was added (the world differs from one moved without it).
    expect(await moved(10, null)).not.toBe(plain);
  });

  test('a worker that dies is waited for once, then the ticks draw every arrival: the same world', async () => {
    const dies = join(mkdtempSync(join(tmpdir(), 'mkt-arrivals-')), 'dies.mjs');
    writeFileSync(dies, "throw new Error('this worker dies as it starts');\n");
    const counts = { asked: 0, taken: 0 };
    expect(await moved(8, dies, counts)).toBe(await moved(8, null));
    expect(counts.asked).toBeGreaterThan(0);
    expect(counts.taken).toBe(0);
  });

  test('a thread that dies while the mock waits is let go with the release it drew ahead; the next warm starts another, and the moves take every release from it', async () => {
    // The first thread draws the next move's first release ahead, then dies as it would wait for the move (its own
    // Atomics.wait ends it, and leaves a marker file that says so); a thread started after the marker runs as the build's.
    const dir = mkdtempSync(join(tmpdir(), 'mkt-arrivals-'));
    const dies = join(dir, 'dies-idle.mjs');
    const marker = join(dir, 'died-idle');
    writeFileSync(
      dies,
      [
        "import { existsSync, writeFileSync } from 'node:fs';",
        `const marker = ${JSON.stringify(marker)};`,
        'if (!existsSync(marker)) {',
        '  Atomics.wait = () => {',
        "    writeFileSync(marker, '');",
        '    process.exit(1);',
        '  };',
        '}',
        `await import(${JSON.stringify(pathToFileURL(worker).href)});`,
      ].join('\n'),
    );
    const died: Before = async (app, thread) => {
      thread!.warm(app.ctx.world);
      expect(thread!.jobs).toBe(1);
      // While the thread lives, a warm keeps the job it drew; once its death is seen, the job is let go and a warm posts
      // another to a new thread (bounded: the thread dies as soon as its release is drawn).
      for (let i = 0; i < 500 && thread!.jobs === 1; i++) {
        await new Promise((r) => setTimeout(r, 20));
        thread!.warm(app.ctx.world);
      }
      expect(thread!.jobs).toBe(2);
      // It died at the wait, its release drawn: not as it started.
      expect(existsSync(marker)).toBe(true);
    };
    const counts: Counts = { asked: 0, taken: 0 };
    expect(await moved(7, dies, counts, undefined, 2, { before: died })).toBe(await moved(7, null, undefined, undefined, 2));
    expect(counts.asked).toBeGreaterThan(5);
    expect(counts.taken).toBe(counts.asked);
    // The dead thread's job, the one drawn ahead again, and one as each move ended (the second move took the first's).
    expect(counts.jobs).toBe(4);
    rmSync(dir, { recursive: true, force: true });
  });

  test('a thread that cannot start (its file refused as Worker is made) leaves every move to the ticks, drawn ahead or not', async () => {
    // A relative path: worker_threads refuses it at once (ERR_WORKER_PATH), as it would a thread it cannot make.
    const warm: Before = async (app, thread) => thread?.warm(app.ctx.world);
    const counts: Counts = { asked: 0, taken: 0 };
    expect(await moved(7, 'not-a-path.js', counts, undefined, 2, { before: warm })).toBe(await moved(7, null, undefined, undefined, 2));
    expect(counts).toEqual({ asked: 0, taken: 0, jobs: 0 });
  });

  test('one thread serves the next moves too', async () => {
    const counts = { asked: 0, taken: 0 };
    expect(await moved(7, worker, counts, undefined, 3)).toBe(await moved(7, null, undefined, undefined, 3));
    // Three weeks from a Monday's 8 am in New York, a week a move: 15 weekdays, two releases each.
    expect(counts.asked).toBe(30);
    expect(counts.taken).toBe(30);
  });

  test("the next move's first release is drawn while the mock waits, and that move takes it", async () => {
    const warm: Before = async (app, thread) => thread?.warm(app.ctx.world);
    const plain = await moved(7, null, undefined, undefined, 2, { before: warm });
    const counts: Counts = { asked: 0, taken: 0 };
    expect(await moved(7, worker, counts, undefined, 2, { before: warm })).toBe(plain);
    expect(counts.taken).toBe(counts.asked);
    // One job drawn as the mock waited, taken by the first move; one drawn as it ended, taken by the second; one for a
    // third move that does not come. A job a move (none taken) would make five.
    expect(counts.jobs).toBe(3);
  });

  test('a release drawn ahead is let go when the world moved on before the move (a listing added, the clock moved), and the world is the same', async () => {
    // 6,000 listings bring ~15 an hour: a 7-day move (~2,500) is long for a least of 1,000, a 2-hour one is not.
    const cases: Record<string, Before> = {
      'a listing added': async (app, thread) => {
        thread?.warm(app.ctx.world);
        await addListing(app);
      },
      'a short move over a release': async (app, thread) => {
        thread?.warm(app.ctx.world);
        // From a Monday's 8 am in New York, over its noon release (~250 listings: it draws no thread, below the least).
        await app.ctx.engine.moveClock((now) => now + 5 * 3_600_000);
      },
    };
    for (const [name, before] of Object.entries(cases)) {
      const plain = await moved(7, null, undefined, undefined, 1, { before, least: 1000 });
      const counts: Counts = { asked: 0, taken: 0 };
      expect(await moved(7, worker, counts, undefined, 1, { before, least: 1000 }), name).toBe(plain);
      // Every release is the move's own: a stale one taken would fail its numbers and leave the ticks to draw the rest.
      expect(counts.taken, name).toBe(counts.asked);
      expect(counts.asked, name).toBeGreaterThan(5);
      // The job drawn ahead, the move's own, and the next move's.
      expect(counts.jobs, name).toBe(3);
    }
  });

  test("a host's hook that throws as the move ends fails that move, and the engine takes the next", async () => {
    let stops = 0;
    const arrivalsAhead = (): ArrivalsAhead => ({
      take: () => undefined,
      stop: () => {
        stops++;
        throw new Error('the hook failed as the move ended');
      },
    });
    const app = testMockApp({ seed: 11, listings: LISTINGS, frozen: true, start: START, arrivalsAhead }, () => START);
    try {
      await expect(app.ctx.engine.moveClock((now) => now + DAY)).rejects.toThrow('the hook failed as the move ended');
      // The first move was closed all the same: the second begins (it waited for the first to end), and ends.
      await expect(app.ctx.engine.moveClock((now) => now + DAY)).rejects.toThrow('the hook failed as the move ended');
      expect(stops).toBe(2);
      expect(app.ctx.clock.now()).toBe(START + 2 * DAY);
    } finally {
      await app.close?.();
    }
  });

  test('a closed thread is not started again by a move that begins or ends after it', async () => {
    const app = testMockApp({ seed: 11, listings: LISTINGS, frozen: true, start: START }, () => START);
    try {
      const thread = new ArrivalsThread(0, worker);
      thread.warm(app.ctx.world);
      expect(thread.jobs).toBe(1);
      await thread.close();
      expect(thread.ahead(app.ctx.world, START, START + 15 * DAY)).toBeNull();
      thread.warm(app.ctx.world);
      expect(thread.jobs).toBe(1);
    } finally {
      await app.close?.();
    }
  });

  test('a short move asks no thread', () => {
    const app = testMockApp({ seed: 11, listings: LISTINGS, frozen: true, start: START }, () => START);
    try {
      // ~15 listings an hour at this size: 15 days bring ~5,000, far below a long move's 150,000.
      expect(new ArrivalsThread(undefined, worker).ahead(app.ctx.world, START, START + 15 * DAY)).toBeNull();
      const thread = new ArrivalsThread(0, worker);
      const ahead = thread.ahead(app.ctx.world, START, START + 15 * DAY);
      expect(ahead).not.toBeNull();
      ahead!.stop();
      void thread.close();
    } finally {
      void app.close?.();
    }
  });
});
