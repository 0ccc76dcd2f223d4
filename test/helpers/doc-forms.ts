/**
 * Checks a command form a page shows (`mkt order submit FILE|- [--amount A] …`, or an inline `mkt listings get`)
 * against the built CLI's own help: each command word names a command, each `--flag` is one that command (or mkt
 * itself) takes. A form is not run, so this is what keeps a synopsis from naming a flag that was renamed or removed.
 */
import { execFileSync } from 'node:child_process';
import { BIN } from './cli.js';
import { MKT_COMMAND } from './doc-commands.js';

/** `mkt PATH… --help`, read once per path (bounded: one spawn per command a page names). */
export class HelpReader {
  private readonly helps = new Map<string, string>();

  /** The help text of the command at `path` ([] for mkt itself). */
  helpOf(path: readonly string[]): string {
    const key = path.join(' ');
    let help = this.helps.get(key);
    if (help === undefined) {
      help = execFileSync(process.execPath, [BIN, ...path, '--help'], {
        encoding: 'utf8',
        timeout: 20_000,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', COLUMNS: '200' },
      });
      this.helps.set(key, help);
    }
    return help;
  }

  /** The subcommands the help of `path` lists (`help` left out). */
  subcommandsOf(path: readonly string[]): string[] {
    const section =
      this.helpOf(path)
        .split(/^Commands:$/m)[1]
        ?.split(/^\S/m)[0] ?? '';
    return [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
  }
}

/** Whether `help` names `--flag` as an option (not as part of a longer flag). */
function names(help: string, flag: string): boolean {
  return new RegExp(`(?<![\\w-])${flag}(?![\\w-])`).test(help);
}

/**
 * The problems of one form: a word where a command is expected that names none, a `--flag` the command does not
 * take. Words in capitals, `[`, `<` and quoted text are placeholders and values, not checked; `a|b` and `a/b`
 * name each of a and b. A flag of a command that has subcommands may belong to one of them (`mkt notes --rating`).
 */
export function formProblems(form: string, helps: HelpReader): string[] {
  const words = form
    .replace(/^(?:.*?\s)?(?:npx\s+)?mkt\s+/, '')
    .replace(/"[^"]*"|'[^']*'/g, 'VALUE')
    .split(/\s+/)
    .filter(Boolean);
  const path: string[] = [];
  let i = 0;
  for (; i < words.length; i++) {
    const subs = helps.subcommandsOf(path);
    if (subs.length === 0) break;
    const alternatives = words[i]!.split(/[|/]/);
    if (!alternatives.every((a) => /^[a-z][a-z-]*$/.test(a))) break;
    const unknown = alternatives.filter((a) => !subs.includes(a));
    if (unknown.length > 0)
      return [`\`${form}\`: no command \`mkt ${[...path, unknown[0]].join(' ')}\` (mkt ${path.join(' ')} has ${subs.join(', ')})`];
    path.push(alternatives[0]!);
  }
  const rest = words.slice(i).join(' ');
  const flags = [...new Set([...rest.matchAll(/(?<![\w-])(--[a-z][a-z0-9_-]*)/g)].map((m) => m[1]!))];
  const problems: string[] = [];
  const own = helps.helpOf(path);
  const global = helps.helpOf([]);
  const below = helps.subcommandsOf(path).map((s) => helps.helpOf([...path, s]));
  for (const flag of flags) {
    if (names(own, flag) || names(global, flag) || below.some((h) => names(h, flag))) continue;
    problems.push(`\`${form}\`: \`mkt ${path.join(' ')}\` takes no ${flag}`);
  }
  return problems;
}

/** The inline `mkt …` code spans of a markdown text, fenced blocks left out, a span across a line break joined. */
export function inlineForms(text: string): string[] {
  const outside = text.replace(/^```[\s\S]*?^```/gm, '');
  return [...outside.matchAll(/`((?:npx )?mkt [^`]+)`/g)].map((m) => m[1]!.replace(/\s+/g, ' ').trim());
}

/** The `mkt` commands of a shell line: its stages split at pipes, `&&`, `||`, `;` and substitutions. */
export function stagesOf(line: string): string[] {
  return line
    .split(/\|\|?|&&|;|\$\(|<\(|\)/)
    .map((stage) => stage.replace(/&\s*$/, '').trim())
    .filter((stage) => MKT_COMMAND.test(stage));
}
