/**
 * The bundles the bin runs (scripts/bundle.mjs) carry source maps: with them on (the bin turns them on for
 * --verbose, which prints an internal error's stack), a stack names the src/ file and line the code came
 * from, not the bundle's.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const MAIN = resolve(import.meta.dirname, '../dist/bundle/main.cjs');

/** The stack of an error thrown inside the bundled main (an io without stdout), source maps on or off. */
function stackOfBundledError(maps: boolean): string {
  const script = `
    process.setSourceMapsEnabled(${maps});
    require(${JSON.stringify(MAIN)}).main(['--version'], { stdout: null }).catch((err) => console.log(err.stack));
  `;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('source maps of the bundles', () => {
  it('lead a stack from the bundle to the line of src/main.ts that threw', () => {
    const line =
      readFileSync(resolve(import.meta.dirname, '../src/main.ts'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('io.stdout.write(`${VERSION}')) + 1;
    expect(line).toBeGreaterThan(0);
    expect(stackOfBundledError(true)).toContain(`src/main.ts:${line}:`);
    // Without them the stack is the bundle's own.
    expect(stackOfBundledError(false)).toMatch(/dist\/bundle\/core\.cjs:\d+:/);
  });
});
