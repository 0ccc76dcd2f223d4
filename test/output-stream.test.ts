// Streams (`--all`, `--follow`) in the line formats: rows are gathered into few writes, never held back
// while the next row is not ready, and the rows before a failure are printed.
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { render } from '../src/output/render.js';

/** A stdout that records each write. */
function recorder(): { out: Writable; writes: string[] } {
  const writes: string[] = [];
  const out = new Writable({
    write(chunk, _enc, done) {
      writes.push(String(chunk));
      done();
    },
  });
  return { out, writes };
}

/** Items as pages arrive: each page's items at once, then a wait of a turn of the event loop (a fetch). */
async function* pages(sizes: readonly number[]): AsyncGenerator<Record<string, unknown>> {
  let n = 0;
  for (const size of sizes) {
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < size; i++) yield { n: n++, name: `row "${n}"` };
  }
}

const stream = (items: AsyncIterable<Record<string, unknown>>, live = false) => ({
  kind: 'stream' as const,
  items,
  columns: ['n', 'name'],
  live,
});

describe('streamed line formats', () => {
  it('print the same text as one write a row, in a write per page rather than per row', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 5 }),
        fc.constantFrom('ndjson', 'csv', 'json'),
        async (sizes, format) => {
          const { out, writes } = recorder();
          await render(out, stream(pages(sizes)), format as 'ndjson');
          const rows = Array.from({ length: sizes.reduce((a, b) => a + b, 0) }, (_, n) => ({ n, name: `row "${n + 1}"` }));
          const expected =
            format === 'ndjson'
              ? rows.map((r) => `${JSON.stringify(r)}\n`).join('')
              : format === 'csv'
                ? `n,name\n${rows.map((r) => `${r.n},"${r.name.replace(/"/g, '""')}"\n`).join('')}`
                : rows.length === 0
                  ? '[]\n'
                  : `[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;
          expect(writes.join('')).toBe(expected);
          // Pages of up to 300 short rows fit one write each (plus csv's header and json's closing bracket).
          expect(writes.length).toBeLessThanOrEqual(sizes.filter((s) => s > 0).length + 2);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('print a row at once when the next one is not ready (a --follow that waits)', async () => {
    const { out, writes } = recorder();
    let release!: () => void;
    async function* follow(): AsyncGenerator<Record<string, unknown>> {
      yield { n: 1, name: 'first' };
      await new Promise<void>((resolve) => (release = resolve));
      yield { n: 2, name: 'second' };
    }
    const done = render(out, stream(follow(), true), 'ndjson');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(writes.join('')).toBe('{"n":1,"name":"first"}\n');
    release();
    await done;
    expect(writes.join('')).toBe('{"n":1,"name":"first"}\n{"n":2,"name":"second"}\n');
  });

  it('print the rows before a failure, then fail', async () => {
    const { out, writes } = recorder();
    async function* failing(): AsyncGenerator<Record<string, unknown>> {
      yield { n: 1, name: 'a' };
      yield { n: 2, name: 'b' };
      throw new Error('page 2 failed');
    }
    await expect(render(out, stream(failing()), 'ndjson')).rejects.toThrow('page 2 failed');
    expect(writes.join('')).toBe('{"n":1,"name":"a"}\n{"n":2,"name":"b"}\n');
  });
});
