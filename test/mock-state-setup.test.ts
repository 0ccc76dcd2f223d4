/**
 * `mkt mock serve --state FILE` where FILE cannot be written at start: the setup's to fix, so exit 2
 * with a message naming the path and why, never exit 1 (a bug) with a stack.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { stateWriteError, StateWriteError } from '../mock-server/world/persistence.js';
import type { Io } from '../src/io.js';
import { main } from '../src/main.js';

/** Runs `mkt mock serve` in-process on port 0 with `--state file`; its exit code and stderr. */
async function serve(file: string): Promise<{ code: number; err: string }> {
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (d) => (err += String(d)));
  const io: Io = {
    stdout: new PassThrough(),
    stderr,
    stdin: new PassThrough(),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    env: { MKT_CONFIG_DIR: '/nonexistent-mkt-config' },
    sleep: async () => undefined,
    now: () => 0,
    // Were the mock to start, it would stop at once: the test is about not starting.
    stopSignal: async () => 'SIGTERM',
  };
  const code = await main(['mock', 'serve', '--port', '0', '--listings', '10', '--state', file], io);
  return { code, err };
}

const fresh = () => mkdtempSync(join(tmpdir(), 'mkt-state-'));

describe('mkt mock serve --state at start', () => {
  test('a file in a folder that does not exist is exit 2 naming the path and the missing folder', async () => {
    const file = join(fresh(), 'no-such-folder', 'world.json');
    const { code, err } = await serve(file);
    expect(code).toBe(2);
    expect(err).toContain(`mock state ${file} cannot be created: the folder ${join(file, '..')} does not exist`);
    expect(err).not.toMatch(/\n\s+at /);
  });

  test('a file under a path that is a file, not a folder, is exit 2 saying so', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'plain'), '');
    const { code, err } = await serve(join(dir, 'plain', 'world.json'));
    expect(code).toBe(2);
    expect(err).toContain(`mock state ${join(dir, 'plain', 'world.json')} cannot be created: ${join(dir, 'plain')} is not a folder`);
  });

  // Root writes into a read-only folder regardless of its mode; the mapping below covers EACCES and EROFS either way.
  test.skipIf(process.getuid?.() === 0)('a file in a read-only folder is exit 2 naming the path', async () => {
    const dir = fresh();
    chmodSync(dir, 0o555);
    try {
      const { code, err } = await serve(join(dir, 'world.json'));
      expect(code).toBe(2);
      expect(err).toContain(`mock state ${join(dir, 'world.json')} cannot be written: no permission to write in ${dir}`);
    } finally {
      chmodSync(dir, 0o755);
    }
  });

  test('a working folder still starts (and stops) the mock with exit 0', async () => {
    expect((await serve(join(fresh(), 'world.json'))).code).toBe(0);
  });
});

describe("stateWriteError: a file system refusal as the setup's to fix", () => {
  const fsError = (code: string) => Object.assign(new Error(`${code}: refused`), { code });

  test.each([
    ['ENOENT', 'cannot be created: the folder /data/mock does not exist'],
    ['ENOTDIR', 'cannot be created: /data/mock is not a folder'],
    ['EACCES', 'cannot be written: no permission to write in /data/mock'],
    ['EPERM', 'cannot be written: no permission to write in /data/mock'],
    ['EROFS', 'cannot be written: /data/mock is on a read-only file system'],
    ['ENOSPC', 'cannot be written: no space left on the disk that holds /data/mock'],
    ['EDQUOT', 'cannot be written: no space left on the disk that holds /data/mock'],
    ['EIO', 'cannot be written (EIO: EIO: refused)'],
  ])('%s names the path and says why', (code, problem) => {
    const err = stateWriteError('/data/mock/world.json', fsError(code));
    expect(err).toBeInstanceOf(StateWriteError);
    expect((err as Error).message).toBe(
      `mock state /data/mock/world.json ${problem}; give --state a path in a folder that exists and can be written`,
    );
  });

  test('an error that is no file system refusal stays what it was (a bug)', () => {
    const bug = new TypeError('x is undefined');
    expect(stateWriteError('/data/world.json', bug)).toBe(bug);
  });
});
