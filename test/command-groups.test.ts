import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli.js';
import { GROUPS } from '../src/commands/groups.js';
import { CommandContext } from '../src/context.js';
import { MOCK_ADMIN_PREFIX, mockAdminUrl } from '../src/contract/mock-admin.js';
import type { Io } from '../src/io.js';
import { main } from '../src/main.js';

const io: Io = {
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  stdin: Readable.from([]),
  stdoutIsTTY: false,
  stderrIsTTY: false,
  stdinIsTTY: false,
  env: {},
  sleep: async () => undefined,
  now: () => 0,
  stopSignal: () => new Promise(() => undefined),
};

describe('command groups', () => {
  it('lists every group in the root help from the one table, in its order, without loading them', async () => {
    const program = await buildProgram(new CommandContext(io, main), ['--help']);
    expect(program.commands.map((c) => [c.name(), c.summary()])).toEqual(GROUPS.map((g) => [g.name, g.summary]));
    expect(program.commands.every((c) => c.commands.length === 0 && c.options.length === 0)).toBe(true);
  });

  it.each(GROUPS.map((g) => [g.name, g] as const))(
    'builds %s, when run, with the summary and description of the table',
    async (name, group) => {
      const program = await buildProgram(new CommandContext(io, main), [name, '--help']);
      const loaded = program.commands.find((c) => c.name() === name)!;
      expect(loaded.summary()).toBe(group.summary);
      expect(loaded.description()).toBe('description' in group ? group.description : group.summary);
    },
  );
});

describe('the mock admin URL', () => {
  it('joins the root URL and the route with exactly one slash each side of the prefix', () => {
    expect(mockAdminUrl('http://127.0.0.1:4010', 'clock')).toBe(`http://127.0.0.1:4010${MOCK_ADMIN_PREFIX}/clock`);
    expect(mockAdminUrl('http://127.0.0.1:4010//', '/listings/7/withdraw')).toBe('http://127.0.0.1:4010/__mock/listings/7/withdraw');
    expect(mockAdminUrl('http://h:1/base/', 'state')).toBe('http://h:1/base/__mock/state');
  });
});
