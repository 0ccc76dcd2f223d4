/**
 * How help reads, set in one place for every command (as gh's does): global options in each
 * command's help, text wrapped to the terminal, and an Examples section from `examples.ts`. It loads
 * no catalogue: what a group's help needs beyond this, the group's own module brings (`listings.ts`
 * groups its filter flags).
 */
import type { Help } from '@commander-js/extra-typings';
import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Io } from '../io.js';
import { examplesOf } from './examples.js';

/** Indent of a description put under a term too long to share its line. */
const UNDER_INDENT = 8;

/** The width to wrap help to: the terminal's, else $COLUMNS, else commander's 80. */
export function helpWidth(io: Io, stream: 'stdout' | 'stderr'): number {
  const tty = stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
  const columns = (io[stream] as { columns?: unknown }).columns;
  if (tty && typeof columns === 'number' && columns > 0) return columns;
  const env = Number(io.env.COLUMNS);
  return Number.isInteger(env) && env > 0 ? env : 80;
}

/**
 * One option or command line of help. Commander pads every term to the longest one and stops wrapping
 * when that leaves too little room (a 60-column bureau2 flag would do that to all ~150 filters): here a
 * term longer than two fifths of the width gets its description on the lines below it instead.
 */
function formatItem(term: string, termWidth: number, description: string, helper: Help): string {
  if (!description) return `  ${term}`;
  const width = helper.helpWidth ?? 80;
  const column = Math.min(termWidth, Math.max(16, Math.floor(width * 0.4)));
  // A word that cannot be broken (a bureau2 element's long name) also sends the description under the term.
  const longest = Math.max(
    ...description
      .split(/\s+/)
      .filter((w) => !w.includes(','))
      .map((w) => helper.displayWidth(w)),
  );
  const fits = helper.displayWidth(term) <= column && longest <= width - column - 4;
  const indent = fits ? column + 4 : UNDER_INDENT;
  const pad = ' '.repeat(indent);
  const body = wrap(helper, description, width - indent)
    .map((l, i) => (i === 0 && fits ? l : pad + l))
    .join('\n');
  return fits ? `  ${term}${' '.repeat(column - helper.displayWidth(term))}  ${body}` : `  ${term}\n${body}`;
}

/** Wraps at spaces, then breaks what is still too long (a comma-separated default) after a comma. */
function wrap(helper: Help, text: string, width: number): string[] {
  const out: string[] = [];
  for (const line of helper.boxWrap(text, width).split('\n')) {
    let rest = line;
    for (let cut = rest.lastIndexOf(',', width - 1); helper.displayWidth(rest) > width && cut > 0; cut = rest.lastIndexOf(',', width - 1)) {
      out.push(rest.slice(0, cut + 1));
      rest = rest.slice(cut + 1);
    }
    out.push(rest);
  }
  return out;
}

/** The command's path from the root, e.g. `mkt listings search`. */
export function commandPath(cmd: CommandUnknownOpts): string {
  const names: string[] = [];
  for (let c: CommandUnknownOpts | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Configures help of one command: global options shown, wrapping to the terminal, its examples. */
export function configureHelp(cmd: CommandUnknownOpts, io: Io): void {
  // Wrap down to narrow terminals (commander stops below 40 columns of description).
  cmd.configureHelp({ showGlobalOptions: true, formatItem, minWidthToWrap: 24 });
  cmd.configureOutput({ getOutHelpWidth: () => helpWidth(io, 'stdout'), getErrHelpWidth: () => helpWidth(io, 'stderr') });
  const examples = examplesOf(commandPath(cmd));
  if (examples.length > 0) cmd.addHelpText('after', `\nExamples:\n${examples.map((e) => `  ${e}`).join('\n')}\n`);
}
