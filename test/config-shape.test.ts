import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../src/config/keys.js';
import { readConfig } from '../src/config/settings.js';
import { UsageError } from '../src/errors.js';

/** Whether `v` is a config file mkt can use: an object, profiles (if any) objects of string settings. */
function usable(v: unknown): boolean {
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (!isObject(v)) return false;
  if (v.profiles === undefined) return true;
  if (!isObject(v.profiles)) return false;
  return Object.values(v.profiles).every((p) => isObject(p) && CONFIG_KEYS.every((k) => p[k] === undefined || typeof p[k] === 'string'));
}

describe('config.json of any shape', () => {
  it('is read when usable, and otherwise refused with exit 2 naming a key and a type, never a TypeError', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mkt-config-shape-'));
    const setting = fc.oneof(fc.constantFrom(...CONFIG_KEYS), fc.string({ maxLength: 6 }));
    const profile = fc.oneof(
      fc.dictionary(setting, fc.oneof(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 })), { maxKeys: 4 }),
      fc.jsonValue({ maxDepth: 1 }),
    );
    const file = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.record(
        {
          profiles: fc.oneof(
            fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), profile, { maxKeys: 3 }),
            fc.jsonValue({ maxDepth: 1 }),
          ),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(file, (value) => {
        writeFileSync(join(dir, 'config.json'), JSON.stringify(value));
        let read;
        try {
          read = readConfig({ MKT_CONFIG_DIR: dir });
        } catch (err) {
          expect(err).toBeInstanceOf(UsageError);
          expect((err as Error).message).toMatch(
            /: (the top level|profiles|profiles\.([\w-]+|".*")(\.\w+)?) must be (an object|a string).*, found (null|an? \w+)$/,
          );
          expect(usable(value)).toBe(false);
          return;
        }
        expect(usable(value)).toBe(true);
        expect(read.profiles).toEqual((value as { profiles?: unknown }).profiles ?? {});
      }),
      { numRuns: 400 },
    );
  });
});
