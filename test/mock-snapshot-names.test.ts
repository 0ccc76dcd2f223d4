/** The snapshot name rule (src/contract/mock-snapshots.ts): what it takes stays one file inside the snapshot folder; what it refuses it names. */
import { basename, dirname, join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { SNAPSHOT_NAME_MAX, snapshotNameProblem } from '../src/contract/mock-snapshots.js';

const FOLDER = '/srv/state.snapshots';
const ALLOWED = 'abcXYZ019._-';

describe('snapshotNameProblem', () => {
  test('a name it takes is one plain file directly in the folder, never hidden', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (name) => {
        if (snapshotNameProblem(name) !== null) return;
        const path = resolve(join(FOLDER, `${name}.snapshot`));
        expect(dirname(path)).toBe(FOLDER);
        expect(basename(path)).toBe(`${name}.snapshot`);
        expect(name.startsWith('.')).toBe(false);
        expect(name.length).toBeLessThanOrEqual(SNAPSHOT_NAME_MAX);
      }),
      { numRuns: 2000 },
    );
  });

  test("over the allowed characters, it takes exactly the names of 1 to 64 without '..' and not starting with '.'", () => {
    const chars = fc.constantFrom(...ALLOWED);
    fc.assert(
      fc.property(fc.string({ unit: chars, maxLength: 70 }), (name) => {
        const ok = name.length >= 1 && name.length <= SNAPSHOT_NAME_MAX && !name.includes('..') && !name.startsWith('.');
        expect(snapshotNameProblem(name) === null).toBe(ok);
      }),
      { numRuns: 2000 },
    );
  });

  test('a path separator, anywhere, is named as one', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.constantFrom('/', '\\'), fc.string({ maxLength: 30 }), (a, sep, b) => {
        expect(snapshotNameProblem(`${a}${sep}${b}`)).toMatch(/path separator|is \d+ characters long/);
      }),
    );
  });

  test('each refusal says what was wrong', () => {
    expect(snapshotNameProblem('')).toBe('is empty');
    expect(snapshotNameProblem('a'.repeat(65))).toBe('is 65 characters long; at most 64');
    expect(snapshotNameProblem('a..b')).toBe("holds '..'");
    expect(snapshotNameProblem('.x')).toBe("starts with '.'");
    expect(snapshotNameProblem('a:b')).toBe(`holds ":"; a name may hold only letters, digits, '.', '_' and '-'`);
    expect(snapshotNameProblem('run-2.before_x')).toBeNull();
  });
});
