/**
 * The mock keeps no state beside its objects: every cache of a world is a field of that world
 * (mock-server/world/derived.ts), made with it and dropped with it. No module of mock-server/ holds a
 * WeakMap at its top level, and after a reset the new world reaches none of the old world's caches.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { issueTestToken, TEST_START, testMockApp } from './helpers/mock.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Lines of `text` that make a WeakMap at the module's top level (a declaration that starts the line). */
function moduleWeakMaps(text: string): string[] {
  return text.split('\n').filter((line) => /^(export\s+)?(const|let|var)\s[^=]*=\s*new\s+WeakMap\b/.test(line));
}

/** Every object reachable from `root` through own properties, array elements and Map and Set entries. */
function reachable(root: unknown): Set<object> {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || seen.has(v) || ArrayBuffer.isView(v)) continue;
    seen.add(v);
    if (v instanceof Map) for (const [k, x] of v) stack.push(k, x);
    else if (v instanceof Set) for (const x of v) stack.push(x);
    else for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
  }
  return seen;
}

describe('module-level state', () => {
  it('sees a WeakMap made at the top of a module, and not one made inside a function or class', () => {
    const text = [
      'const kept = new WeakMap<World, X>();',
      'export const cache = new WeakMap();',
      'let later: WeakMap<A, B> = new WeakMap();',
      'function f() {\n  const local = new WeakMap();\n}',
      'class C {\n  private readonly m = new WeakMap();\n}',
    ].join('\n');
    expect(moduleWeakMaps(text)).toEqual([
      'const kept = new WeakMap<World, X>();',
      'export const cache = new WeakMap();',
      'let later: WeakMap<A, B> = new WeakMap();',
    ]);
  });

  it('no module of mock-server/ makes a WeakMap at its top level', () => {
    const found = tsFiles(join(ROOT, 'mock-server')).flatMap((f) =>
      moduleWeakMaps(readFileSync(f, 'utf8')).map((l) => `${relative(ROOT, f)}: ${l}`),
    );
    expect(found).toEqual([]);
  });
});

describe("a world's caches", () => {
  let app: MockApp;
  afterAll(async () => {
    await app.close?.();
  });

  it('are filled in the world that is searched and ticked, and a reset leaves them with the old world', async () => {
    app = testMockApp({ seed: 3, listings: 60, frozen: true, start: TEST_START, admin: true });
    const token = issueTestToken(app, 'alice-1');
    const get = (path: string) => app.handle(new Request(`http://127.0.0.1:1${path}`, { headers: { authorization: `bearer ${token}` } }));
    const post = (path: string, body: unknown) =>
      app.handle(
        new Request(`http://127.0.0.1:1${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );

    expect((await get('/listingsvc/v2/listings?limit=25')).status).toBe(200);
    expect((await post('/__mock/clock', { advance: '3h' })).status).toBe(200);
    const old = app.ctx.world;
    const caches = old.index;
    expect(caches.listingTexts.size).toBeGreaterThan(0);
    expect(caches.keptPages.size).toBe(1);
    expect(caches.participation.has('alice-1')).toBe(true);
    expect(caches.listings).not.toBeNull();
    expect(caches.timeline).not.toBeNull();

    expect((await post('/__mock/reset', {})).status).toBe(200);
    const world = app.ctx.world;
    expect(world).not.toBe(old);
    expect(world.index.listingTexts.size).toBe(0);
    expect(world.index.keptPages.size).toBe(0);
    expect(world.index.participation.size).toBe(0);
    expect(world.index.listings).toBeNull();
    expect(world.index.timeline).toBeNull();
    const fromNew = reachable(world);
    for (const cache of [
      caches,
      caches.listingTexts,
      caches.keptPages,
      caches.participation,
      caches.listings!,
      caches.timeline!,
      old.listingTable,
      old.loanTable,
    ]) {
      expect(fromNew.has(cache)).toBe(false);
    }
    // The walk does reach what it should: the new world's own caches.
    expect(fromNew.has(world.index.listingTexts)).toBe(true);
  });

  it('a page kept whole does not keep the world it was made of once a reset replaces it', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const mock = testMockApp({ seed: 3, listings: 60, frozen: true, start: TEST_START, admin: true });
    try {
      const token = issueTestToken(mock, 'alice-1');
      const get = (path: string) =>
        mock.handle(new Request(`http://127.0.0.1:1${path}`, { headers: { authorization: `bearer ${token}` } }));
      expect((await get('/listingsvc/v2/listings?limit=25')).status).toBe(200);
      const old = new WeakRef(mock.ctx.world);
      expect(old.deref()!.index.keptPages.size).toBe(1);
      expect(
        (
          await mock.handle(
            new Request('http://127.0.0.1:1/__mock/reset', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
          )
        ).status,
      ).toBe(200);
      const fresh = issueTestToken(mock, 'alice-1');
      expect(
        (
          await mock.handle(
            new Request('http://127.0.0.1:1/listingsvc/v2/listings?limit=26', { headers: { authorization: `bearer ${fresh}` } }),
          )
        ).status,
      ).toBe(200);
      // A WeakRef's target lives to the end of the job that read it, and one collection may leave it (under load a
      // full suite saw that once): collect again a few turns later; a world still held by anything is never freed.
      for (let i = 0; i < 5 && old.deref() !== undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        gc();
      }
      expect(old.deref()).toBeUndefined();
    } finally {
      await mock.close?.();
    }
  });
});
