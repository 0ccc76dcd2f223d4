/**
 * The lock protocols under every interleaving (STYLE 24): two and three contenders, each step of the
 * protocol a point where another may run, from a planted stale lock (a file naming a process that died,
 * or an empty one), with one contender killed at any point. The invariant: never two holders. The
 * protocols of 9fed8f5 (the CLI's `withLock` and the mock's `takeLock`) are modelled step for step too:
 * the same exploration finds their two holders, so it is a search that can fail.
 */
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { alive, fileLockSteps, kernelLockSteps, parseHolder } from '../src/os/exclusive-lock.js';
import { exploreInterleavings, type Contender } from './helpers/interleave.js';

/** A run's world: the lock file and who believes it holds the lock. */
interface World {
  dir: string;
  path: string;
  holders: Set<number>;
  ever: Set<number>;
  /** A contender was killed (its finally ran before it finished). */
  killed: boolean;
  /** A try begun after a kill was refused (with two contenders, the lock was then free: a dead holder kept it). */
  refusedAfterKill: boolean;
}

const DEAD = '999999999\n12345\n';

/** One folder for every run (in memory where the system has one): each run's lock is a file of its own in it. */
const DIR = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'mkt-lock-il-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
let runs = 0;

function world(planted: string | undefined): World {
  const path = join(DIR, `r${++runs}.lock`);
  if (planted !== undefined) writeFileSync(path, planted);
  return { dir: DIR, path, holders: new Set(), ever: new Set(), killed: false, refusedAfterKill: false };
}

/** The run's files: the lock and what sits beside it (the file lock's own files). */
const filesOf = (w: World): string[] =>
  readdirSync(w.dir)
    .filter((n) => n.startsWith(basename(w.path)))
    .sort();

/** The file's content (or its absence) and the other files of its run: all a contender can observe. */
function signature(w: World): string {
  const content = existsSync(w.path) ? JSON.stringify(readFileSync(w.path, 'utf8')) : '-';
  // Named without the run's own prefix, so that equal states of two runs are one.
  return `${content}|${filesOf(w)
    .map((n) => n.slice(basename(w.path).length))
    .join(',')}|${w.ever.size > 0}|${w.refusedAfterKill}`;
}

const oneHolder = (w: World): void => {
  if (w.holders.size > 1) throw new Error(`${w.holders.size} holders: ${[...w.holders].join(', ')}`);
};

/** A held lock as a contender uses it: steps to let it go, and the file the kernel holds, if any. */
type ModelLock = { releaseSteps(): Generator<string, void>; fd?: number };

type Steps = (w: World, id: number, attempt: number) => Generator<string, { held: true; lock: ModelLock } | { held: false }>;

/** A contender of the protocol `steps`: up to `attempts` tries; holding, it runs one step of work and lets go. Killed, it holds nothing (its file closed, as the kernel does). */
function* contender(w: World, id: number, attempts: number, steps: Steps): Contender {
  let lock: ModelLock | undefined;
  let finished = false;
  try {
    for (let a = 0; a < attempts; a++) {
      // Marked when a kill came first, so that a state says whether this try may be refused.
      const afterKill = w.killed;
      yield afterKill ? 'try*' : 'try';
      const got = yield* steps(w, id, a);
      if (got.held) {
        lock = got.lock;
        w.holders.add(id);
        w.ever.add(id);
        yield 'work';
        w.holders.delete(id);
        const l = lock;
        lock = undefined;
        yield* l.releaseSteps();
        finished = true;
        return;
      }
      if (afterKill) w.refusedAfterKill = true;
      if (a + 1 < attempts) yield 'wait';
    }
    finished = true;
  } finally {
    if (!finished) w.killed = true;
    if (lock) {
      w.holders.delete(id);
      if (lock.fd !== undefined) closeSync(lock.fd);
    }
  }
}

const kernel: Steps = (w) => kernelLockSteps(w.path, () => 5);
const file: Steps = (w, id, a) => fileLockSteps(w.path, () => 5, `c${id}a${a}`);

function explore(o: {
  planted?: string;
  contenders: number;
  attempts: number;
  steps: Steps;
  kills?: number;
  symmetric?: boolean;
  end?: (w: World, trace: readonly string[]) => void;
}) {
  return exploreInterleavings<World>({
    setup: () => world(o.planted),
    contenders: (w) => Array.from({ length: o.contenders }, (_, id) => contender(w, id, o.attempts, o.steps)),
    signature,
    check: oneHolder,
    ...(o.end ? { end: o.end } : {}),
    teardown: (w) => {
      for (const n of filesOf(w)) rmSync(join(w.dir, n), { force: true });
    },
    kills: o.kills ?? 0,
    symmetric: o.symmetric ?? false,
  });
}

/**
 * At the end of a run: the file is still there (nobody removed it), and, when nobody was killed, someone
 * held the lock (a stale one stopped nobody; a contender killed with the lock half-taken may have held it
 * through every other's tries).
 */
const kernelEnd = (w: World, trace: readonly string[]): void => {
  if (!existsSync(w.path)) throw new Error('the lock file was removed');
  if (w.ever.size === 0 && !trace.some((t) => t.endsWith(':killed'))) throw new Error('nobody ever held the lock');
};

describe('the kernel lock, every interleaving', () => {
  for (const [name, planted] of [
    ['a lock naming a dead process', DEAD],
    ['an empty lock (created, never written)', ''],
    ['no lock file', undefined],
  ] as const) {
    it(`two contenders, two tries each, one of them killed at any point, from ${name}: one holder at every point`, () => {
      const r = explore({ planted, contenders: 2, attempts: 2, steps: kernel, kills: 1, end: kernelEnd });
      expect(r.interleavings).toBeGreaterThan(1000n);
    });
  }

  it('three contenders, two tries each, one killed at any point, from a lock naming a dead process: one holder at every point', () => {
    const r = explore({ planted: DEAD, contenders: 3, attempts: 2, steps: kernel, kills: 1, symmetric: true, end: kernelEnd });
    expect(r.interleavings).toBeGreaterThan(10_000n);
  });

  it("a contender killed at any point holds nothing after: the other's next try takes the lock", () => {
    const r = exploreInterleavings<World>({
      setup: () => world(DEAD),
      contenders: (w) => [contender(w, 0, 3, kernel), contender(w, 1, 3, kernel)],
      signature,
      check: (w) => {
        oneHolder(w);
        if (w.refusedAfterKill) throw new Error('a try after the kill was refused: the dead contender kept the lock');
      },
      teardown: (w) => {
        for (const n of filesOf(w)) rmSync(join(w.dir, n), { force: true });
      },
      kills: 1,
    });
    expect(r.interleavings).toBeGreaterThan(1000n);
  });
});

describe('the file lock (no kernel lock on the platform), every interleaving', () => {
  // Not explored as symmetric: each contender's nonce is its own, and which one the file holds tells them apart.
  it('two contenders with two tries each, and three with one, one killed at any point: one holder at every point', () => {
    explore({ contenders: 2, attempts: 2, steps: file, kills: 1 });
    explore({ contenders: 3, attempts: 1, steps: file, kills: 1 });
  });

  it('from no lock, with nobody killed, someone holds it', () => {
    explore({ contenders: 3, attempts: 1, steps: file, end: (w) => void expect(w.ever.size).toBeGreaterThan(0) });
  });

  it('from a lock naming a dead process: nobody takes it, nobody removes it', () => {
    explore({
      planted: `${DEAD}x`,
      contenders: 3,
      attempts: 1,
      steps: file,
      end: (w) => {
        expect(w.ever.size).toBe(0);
        expect(readFileSync(w.path, 'utf8')).toBe(`${DEAD}x`);
      },
    });
  });
});

/** The CLI's withLock of 9fed8f5, step for step: create exclusive, write; else read the holder, remove it when its pid is dead, try again. */
function* cliLockOf9fed8f5(w: World): Generator<string, { held: true; lock: ModelLock } | { held: false }> {
  for (let tries = 0; tries < 3; tries++) {
    yield 'create';
    let fd: number | undefined;
    try {
      fd = openSync(w.path, 'wx');
    } catch {
      /* EEXIST */
    }
    if (fd !== undefined) {
      yield 'write';
      writeSync(fd, `${process.pid}\n5\n`);
      closeSync(fd);
      const lock: ModelLock = {
        releaseSteps: function* () {
          yield 'remove';
          rmSync(w.path, { force: true });
        },
      };
      return { held: true, lock };
    }
    yield 'read';
    let holder = null;
    try {
      holder = parseHolder(readFileSync(w.path, 'utf8'));
    } catch {
      /* gone */
    }
    const stale = holder !== null && holder.pid !== process.pid && !alive(holder.pid);
    if (!stale) return { held: false };
    yield 'remove-stale';
    rmSync(w.path, { force: true });
  }
  return { held: false };
}

/** The mock's takeLock of 9fed8f5, step for step: create exclusive, write the pid; else read it, and remove the file unless the pid it names runs. */
function* mockLockOf9fed8f5(w: World): Generator<string, { held: true; lock: ModelLock } | { held: false }> {
  for (let tries = 0; tries < 3; tries++) {
    yield 'create';
    let fd: number | undefined;
    try {
      fd = openSync(w.path, 'wx');
    } catch {
      /* EEXIST */
    }
    if (fd !== undefined) {
      yield 'write';
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      const lock: ModelLock = {
        releaseSteps: function* () {
          yield 'remove';
          try {
            if (Number(readFileSync(w.path, 'utf8').trim()) === process.pid) unlinkSync(w.path);
          } catch {
            /* gone */
          }
        },
      };
      return { held: true, lock };
    }
    yield 'read';
    let pid = Number.NaN;
    try {
      pid = Number.parseInt(readFileSync(w.path, 'utf8').trim(), 10);
    } catch {
      /* gone */
    }
    if (Number.isSafeInteger(pid) && pid > 0 && alive(pid)) return { held: false };
    yield 'remove-stale';
    try {
      unlinkSync(w.path);
    } catch {
      /* gone */
    }
  }
  return { held: false };
}

describe('the same exploration against the protocols it replaced', () => {
  it("finds two holders of the CLI's old lock from a lock naming a dead process", () => {
    expect(() => explore({ planted: DEAD, contenders: 2, attempts: 1, steps: cliLockOf9fed8f5 })).toThrow(/2 holders/);
  });

  it("finds two holders of the mock's old lock with no stale lock at all: a lock not yet written is removed as stale", () => {
    expect(() => explore({ contenders: 2, attempts: 1, steps: mockLockOf9fed8f5 })).toThrow(/2 holders/);
  });
});
