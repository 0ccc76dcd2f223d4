/**
 * Renders help through commander for bin/help-cache.cjs: the text `mkt ARGV` prints at a given width,
 * caught instead of written, so that it can be kept and printed again without loading commander. Also
 * lists every command's path, for the build to render them all. An entry point beside main.ts, which it
 * runs: the build bundles it as dist/bundle/help-render.cjs (scripts/bundle.mjs).
 */
import { Writable } from 'node:stream';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { processIo, type Io } from './io.js';
import { main } from './main.js';

/** What one run printed and how it ended. */
export interface Rendered {
  code: number;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it. */
function catcher(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/**
 * Runs `mkt argv` in-process with its output caught: the process's own world but for the streams. `width`
 * is the terminal's when stdout is one (the caught stream reports it as its columns, which help wraps to:
 * src/commands/help.ts `helpWidth`); on a pipe help wraps to $COLUMNS or 80 as it would anyway.
 */
export async function renderHelp(argv: string[], width: number): Promise<Rendered> {
  const out = catcher();
  const err = catcher();
  (out.stream as Writable & { columns: number }).columns = width;
  // An error (`mkt help nosuch`) wraps to the terminal stderr is on, if it is one.
  Object.defineProperty(err.stream, 'columns', { get: () => process.stderr.columns });
  // Copied by descriptor: process.stdin is built only if something reads it.
  const io: Io = Object.defineProperties({} as Io, Object.getOwnPropertyDescriptors(processIo()));
  Object.assign(io, { stdout: out.stream, stderr: err.stream });
  const code = await main(argv, io);
  return { code, stdout: out.text(), stderr: err.text() };
}

/** Every command's path under the root (`[]` is the root itself), groups before their subcommands. */
export async function commandPaths(): Promise<string[][]> {
  const [{ buildProgram }, { CommandContext }, { defineDeferred }] = await Promise.all([
    import('./cli.js'),
    import('./context.js'),
    import('./commands/groups.js'),
  ]);
  // The argv of shell completion loads every group, as completion itself does.
  const program = await buildProgram(new CommandContext(processIo(), main), ['__complete']);
  await defineDeferred(program);
  const paths: string[][] = [];
  const walk = (cmd: CommandUnknownOpts, path: string[]) => {
    paths.push(path);
    for (const sub of cmd.commands) if (!sub.name().startsWith('__')) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return paths;
}
