import { closeSync, existsSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors.js';
import { readInput } from '../src/input.js';
import type { Io } from '../src/io.js';
import { runMkt } from './helpers/cli.js';

const MiB = 1 << 20;
const dir = mkdtempSync(join(tmpdir(), 'mkt-input-cap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A sparse file of `size` bytes: it takes no disk, and reading it whole would take `size` of memory. */
function sparseFile(name: string, size: number): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  ftruncateSync(fd, size);
  closeSync(fd);
  return path;
}

/** An Io whose stdin is `stdin` (readInput touches nothing else). */
function ioWith(stdin: Readable): Io {
  return { stdin } as unknown as Io;
}

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  return (err as Error).message;
}

describe('input size cap', () => {
  it('refuses a regular file over the cap from its size, before reading it', async () => {
    // 4 GiB: the old whole-file read could not even start on it (Node refuses buffers over 2 GiB).
    const big = sparseFile('big.csv', 4 * 1024 * MiB);
    expect(await refusal(readInput(ioWith(Readable.from([])), big, 16 * MiB))).toBe(
      `${big} is larger than the 16 MiB limit (16777216 bytes); nothing was sent`,
    );
  });

  it('takes a file of exactly the cap and refuses one byte more', async () => {
    const exact = join(dir, 'exact.csv');
    writeFileSync(exact, 'x'.repeat(MiB));
    expect((await readInput(ioWith(Readable.from([])), exact, MiB)).text).toHaveLength(MiB);
    writeFileSync(exact, 'x'.repeat(MiB + 1));
    expect(await refusal(readInput(ioWith(Readable.from([])), exact, MiB))).toMatch(/larger than the 1 MiB limit/);
  });

  it.skipIf(!existsSync('/dev/zero'))('stops reading an endless device past the cap', async () => {
    expect(await refusal(readInput(ioWith(Readable.from([])), '/dev/zero', MiB))).toMatch(/^\/dev\/zero is larger than the 1 MiB limit/);
  });

  it('stops pulling standard input as soon as the cap is crossed', async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled += 64 * 1024;
        this.push(Buffer.alloc(64 * 1024, 0x31));
      },
    });
    expect(await refusal(readInput(ioWith(endless), '-', MiB))).toMatch(/^stdin is larger than the 1 MiB limit/);
    // The cap plus what the stream had buffered ahead (its high-water mark), never the endless rest.
    expect(pulled).toBeLessThanOrEqual(MiB + 2 * 64 * 1024);
    expect(endless.destroyed).toBe(true);
  });

  it('reports an unreadable path in words, with its error code', async () => {
    expect(await refusal(readInput(ioWith(Readable.from([])), join(dir, 'missing.csv'), MiB))).toBe(
      `cannot read ${join(dir, 'missing.csv')}: no such file or directory (ENOENT)`,
    );
    expect(await refusal(readInput(ioWith(Readable.from([])), dir, MiB))).toBe(`cannot read ${dir}: is a directory, not a file (EISDIR)`);
  });
});

describe('mkt order submit over the 16 MiB cap (spawned binary)', () => {
  const NOWHERE = { MKT_ROOT_URL: 'http://127.0.0.1:9', MKT_ACCESS_TOKEN: 'x' };

  it('refuses a 1 GiB file with exit 2 naming the cap', async () => {
    const big = sparseFile('huge.csv', 1024 * MiB);
    const r = await runMkt(['order', 'submit', big, '--yes'], { env: NOWHERE });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${big} is larger than the 16 MiB limit`);
    expect(r.stdout).toBe('');
  });

  it('refuses standard input over the cap with exit 2 naming the cap', async () => {
    const rows = '10000001,25\n'.repeat(Math.ceil((16 * MiB) / 12) + 1);
    const r = await runMkt(['order', 'submit', '-', '--yes'], { env: NOWHERE, input: `listing_id,bid_amount\n${rows}` });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('stdin is larger than the 16 MiB limit');
  });
});
