/**
 * Every flag the CLI suggests exists where it is suggested: the page footer of every command, each
 * `mkt <command> … --flag` written anywhere in src/, and each flag a command group's own text names.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli.js';
import { defineDeferred } from '../src/commands/groups.js';
import { CommandContext } from '../src/context.js';
import type { Io } from '../src/io.js';
import { main } from '../src/main.js';
import { pageFooter } from '../src/output/render.js';

const SRC = resolve(import.meta.dirname, '../src');

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

/** The whole program, every group and every deferred flag loaded (as shell completion loads them). */
const program = (await buildProgram(new CommandContext(io, main), ['__complete'])) as unknown as CommandUnknownOpts;
await defineDeferred(program);

/** Flags commander takes on every command without declaring them. */
const IMPLICIT = ['--help'];

function longFlags(cmd: CommandUnknownOpts): string[] {
  return cmd.options.flatMap((o) => (o.long ? [o.long] : []));
}

/** The flags `cmd` takes: its own, its ancestors' (the global options) and commander's. */
function accepted(cmd: CommandUnknownOpts): Set<string> {
  const flags = new Set(IMPLICIT);
  for (let c: CommandUnknownOpts | null = cmd; c; c = c.parent as CommandUnknownOpts | null)
    for (const f of longFlags(c)) flags.add(spelling(f));
  return flags;
}

function* leaves(cmd: CommandUnknownOpts, path: string[] = []): Generator<[string, CommandUnknownOpts]> {
  const visible = cmd.commands.filter((c) => c.name() !== '__complete');
  if (visible.length === 0) yield [path.join(' '), cmd];
  for (const sub of visible) yield* leaves(sub as CommandUnknownOpts, [...path, sub.name()]);
}

function* commands(cmd: CommandUnknownOpts): Generator<CommandUnknownOpts> {
  yield cmd;
  for (const sub of cmd.commands) yield* commands(sub as CommandUnknownOpts);
}

const flagsIn = (text: string): string[] => [...text.matchAll(/(?<![\w-])--[a-z][a-z0-9_-]*[a-z0-9]/g)].map((m) => m[0]);

/** A flag in one spelling: every long flag is taken as `--fico_score` or `--fico-score` (options.ts). */
const spelling = (flag: string): string => flag.replace(/_/g, '-');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The text of every string literal and template part in `file` (comments are not read). */
function stringsOf(file: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, readFileSync(file, 'utf8'));
  const out: string[] = [];
  for (let k = scanner.scan(); k !== ts.SyntaxKind.EndOfFileToken; k = scanner.scan()) {
    if (k === ts.SyntaxKind.CloseBraceToken) k = scanner.reScanTemplateToken(false);
    if (
      k === ts.SyntaxKind.StringLiteral
      || k === ts.SyntaxKind.NoSubstitutionTemplateLiteral
      || k === ts.SyntaxKind.TemplateHead
      || k === ts.SyntaxKind.TemplateMiddle
      || k === ts.SyntaxKind.TemplateTail
    )
      out.push(scanner.getTokenValue());
  }
  return out;
}

/** The command `words` name, as far as they name one, and the words used. */
function resolveCommand(words: readonly string[]): [CommandUnknownOpts, number] {
  let cmd = program;
  let used = 0;
  for (const w of words) {
    const sub = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (!sub) break;
    cmd = sub as CommandUnknownOpts;
    used++;
  }
  return [cmd, used];
}

/** Each `mkt <words> … --flag` in `text`: one per command named, up to the next pipe or line. */
function commandLines(text: string): { command: string; flags: string[]; cmd: CommandUnknownOpts }[] {
  return [...text.matchAll(/(?<![\w-])mkt((?: [a-z][a-z-]*)+)([^|\n;]*)/g)].flatMap((m) => {
    const words = m[1]!.trim().split(' ');
    const [cmd, used] = resolveCommand(words);
    if (used === 0) return [];
    return [{ command: `mkt ${words.slice(0, used).join(' ')}`, flags: flagsIn(`${words.slice(used).join(' ')} ${m[2]}`), cmd }];
  });
}

describe('flags the CLI suggests', () => {
  it.each([...leaves(program)])('the page footer of `mkt %s` names only flags it takes', (_path, cmd) => {
    const footer = pageFooter(8, 120, longFlags(cmd));
    for (const flag of flagsIn(footer)) expect(accepted(cmd), footer).toContain(spelling(flag));
  });

  it('the footer of mock requests and outbox names --offset, and of a list with --all both', () => {
    expect(pageFooter(8, 120, longFlags(resolveCommand(['mock', 'requests'])[0]))).toBe('8 of 120 — use --offset');
    expect(pageFooter(8, 120, longFlags(resolveCommand(['mock', 'outbox'])[0]))).toBe('8 of 120 — use --offset');
    expect(pageFooter(25, 1200, longFlags(resolveCommand(['loans', 'list'])[0]))).toBe('25 of 1,200 — use --all or --offset');
    expect(pageFooter(8, 120, ['--limit'])).toBe('8 of 120 — use --limit');
    expect(pageFooter(8, 120, [])).toBe('8 of 120');
  });

  it('each `mkt <command> … --flag` written in src/ names a flag of that command', () => {
    const wrong: string[] = [];
    let seen = 0;
    for (const file of sourceFiles(SRC)) {
      for (const text of stringsOf(file)) {
        for (const { command, flags, cmd } of commandLines(text)) {
          const takes = accepted(cmd);
          seen += flags.length;
          for (const f of flags)
            if (!takes.has(spelling(f))) wrong.push(`${relative(SRC, file)}: ${command} ${f} (in "${text.slice(0, 100)}")`);
        }
      }
    }
    expect(seen).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });

  it("each flag in a command group's own strings is one of that group's flags or a global one", () => {
    const wrong: string[] = [];
    for (const file of sourceFiles(join(SRC, 'commands'))) {
      const group = program.commands.find((g) => relative(join(SRC, 'commands'), file).startsWith(`${g.name()}`));
      if (!group) continue;
      const takes = new Set(
        [...IMPLICIT, ...longFlags(program), ...[...commands(group as CommandUnknownOpts)].flatMap(longFlags)].map(spelling),
      );
      for (const text of stringsOf(file)) {
        // A line naming another command is checked against that command (above).
        const plain = text.replace(/(?<![\w-])mkt(?: [a-z][a-z-]*)+[^|\n;]*/g, '');
        for (const f of flagsIn(plain))
          if (!takes.has(spelling(f))) wrong.push(`${relative(SRC, file)}: ${f} (in "${text.slice(0, 100)}")`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
