/**
 * No source file past 400 lines (STYLE 13: anything past 400 is a split). The formatter wraps long lines,
 * so a file can cross the bar without a line of new code; this says so at once, naming the files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAX_LINES = 400;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The files among `files` longer than `max` lines, as 'path: N lines'. */
function overLong(files: string[], max: number): string[] {
  return files.flatMap((f) => {
    const lines = readFileSync(f, 'utf8').replace(/\n$/, '').split('\n').length;
    return lines > max ? [`${relative(ROOT, f)}: ${lines} lines`] : [];
  });
}

describe('source file sizes', () => {
  it('sees a file past the bar', () => {
    const files = tsFiles(join(ROOT, 'mock-server', 'world'));
    const longest = Math.max(...files.map((f) => readFileSync(f, 'utf8').replace(/\n$/, '').split('\n').length));
    expect(overLong(files, longest - 1)).toHaveLength(1);
    expect(overLong(files, longest)).toEqual([]);
  });

  it(`holds every file of src/ and mock-server/ to ${MAX_LINES} lines`, () => {
    const files = [...tsFiles(join(ROOT, 'src')), ...tsFiles(join(ROOT, 'mock-server'))];
    expect(files.length).toBeGreaterThan(100);
    expect(overLong(files, MAX_LINES)).toEqual([]);
  });
});
