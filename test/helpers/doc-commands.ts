/**
 * Reads the commands a markdown page shows, for test/docs-commands.e2e.test.ts: its fenced blocks, the command lines
 * of its shell blocks, and the page's `<!-- doc-test … -->` comment, which says how a line that cannot run as printed
 * is treated. A line the comment names is matched by its start, so the comment holds no copy of the line to drift.
 *
 *     <!-- doc-test: what this comment is for (free text)
 *     "mkt invest run STRATEGY" synopsis
 *     "mkt mock requests -o ndjson --follow" interrupt: follows until Ctrl-C
 *     "mkt listings get 1" exit 4: no listing has that number
 *     "mkt login" skip: opens a browser
 *     -->
 */

/** A fenced block of a page: its info string's first word, the page line of its opening fence, its lines. */
export interface Block {
  lang: string;
  line: number;
  lines: string[];
}

/** One command line of a shell block: as run (continuations joined, a trailing comment dropped) and its page line. */
export interface ShellLine {
  text: string;
  line: number;
  /** Whether the line runs `mkt` (directly, through npx, in a pipe or a substitution). */
  mkt: boolean;
}

/** How the page says a line is treated: not run (skip), checked as a form (synopsis), stopped by Ctrl-C, or ending with a code. */
export interface Directive {
  prefix: string;
  kind: 'skip' | 'synopsis' | 'interrupt' | 'exit';
  code: number;
  reason: string;
  /** The page line of the directive, for messages. */
  line: number;
}

/** What the doc test does with a line. */
export type Action = 'run' | 'serve' | 'serve-background' | 'skip' | 'synopsis' | 'interrupt' | 'not-mkt';

/** One line of a page with what the test does with it and the exit code the page implies. */
export interface Planned {
  line: ShellLine;
  action: Action;
  expect: number;
  reason: string;
}

/** The info strings of blocks whose lines are shell commands; `console` blocks prefix commands with `$ `. */
const SHELL = new Set(['sh', 'shell', 'bash', 'console']);

/** `mkt` where a command starts: line start, after `|`, `&`, `;`, `(` or `$(`, after `VAR=value` words and `npx`. */
export const MKT_COMMAND = /(?:^|[|&;(]\s*)(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:npx\s+)?mkt(?=\s|$)/;

/** The fenced blocks of a markdown text (``` fences only, as every page here uses). */
export function blocksOf(text: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | undefined;
  text.split('\n').forEach((raw, i) => {
    const fence = /^```\s*([^\s`]*)/.exec(raw);
    if (fence && !open) open = { lang: fence[1]!.toLowerCase(), line: i + 1, lines: [] };
    else if (/^```\s*$/.test(raw) && open) {
      blocks.push(open);
      open = undefined;
    } else open?.lines.push(raw);
  });
  if (open) throw new Error(`the block opened at line ${open.line} is never closed`);
  return blocks;
}

/** The command lines of a shell block: `\` continuations joined, comment lines dropped, `  # …` cut off. */
export function shellLines(block: Block): ShellLine[] {
  const out: ShellLine[] = [];
  let pending: { text: string; line: number } | undefined;
  block.lines.forEach((raw, i) => {
    let text = raw;
    if (block.lang === 'console' && !pending) {
      if (!text.startsWith('$ ')) return; // output, not a command
      text = text.slice(2);
    }
    const start = pending ?? { text: '', line: block.line + 1 + i };
    const joined = `${start.text}${start.text ? ' ' : ''}${text.trim()}`;
    if (/\\$/.test(text)) {
      pending = { text: joined.replace(/\s*\\$/, ''), line: start.line };
      return;
    }
    pending = undefined;
    const command = joined.replace(/(^|\s+)#.*$/, '').trim();
    if (command) out.push({ text: command, line: start.line, mkt: MKT_COMMAND.test(command) });
  });
  return out;
}

/** The directives of the page's `<!-- doc-test … -->` comments; a line of one that is no directive is an error naming it. */
export function directivesOf(text: string): Directive[] {
  const directives: Directive[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('<!-- doc-test')) continue;
    if (lines[i]!.includes('-->')) throw new Error(`line ${i + 1}: a doc-test comment holds its directives on lines of their own`);
    for (i++; i < lines.length && !lines[i]!.startsWith('-->'); i++) {
      const raw = lines[i]!.trim();
      if (!raw) continue;
      const m = /^"([^"]+)" (skip|synopsis|interrupt|exit (\d{1,3}))(?:: (.+))?$/.exec(raw);
      if (!m) throw new Error(`line ${i + 1}: not a doc-test directive ("PREFIX" skip|synopsis|interrupt|exit N[: why]): ${raw}`);
      const kind = m[2]!.startsWith('exit') ? 'exit' : (m[2] as Directive['kind']);
      const reason = m[4]?.trim() ?? '';
      if (kind !== 'synopsis' && !reason) throw new Error(`line ${i + 1}: "${m[1]!}" ${kind} needs a reason after a colon`);
      directives.push({ prefix: m[1]!, kind, code: m[3] ? Number(m[3]) : 0, reason, line: i + 1 });
    }
    if (i >= lines.length) throw new Error('a doc-test comment is never closed with a line starting -->');
  }
  return directives;
}

/** The page with every line outside the `## ` sections named blanked (so line numbers stay the page's); the whole page when none is named. */
export function sectionsOf(text: string, headings?: readonly string[]): string {
  if (!headings) return text;
  let keep = false;
  const found = new Set<string>();
  const lines = text.split('\n').map((line) => {
    if (line.startsWith('## ')) {
      keep = headings.includes(line.slice(3));
      if (keep) found.add(line.slice(3));
    }
    return keep ? line : '';
  });
  const missing = headings.filter((h) => !found.has(h));
  if (missing.length > 0) throw new Error(`no section "## ${missing[0]!}"`);
  return lines.join('\n');
}

/**
 * What the doc test does with each line of the page's shell blocks (in `sections` only, when given), and the problems
 * that fail it before anything runs: a directive that names no line or a line two name, a `mkt` line shown outside a
 * shell block (it would never run), a directive on a line that does not run `mkt`.
 */
export function planPage(text: string, sections?: readonly string[]): { planned: Planned[]; problems: string[] } {
  const directives = directivesOf(text);
  const blocks = blocksOf(sectionsOf(text, sections));
  const problems: string[] = [];
  const used = new Set<Directive>();
  const planned: Planned[] = [];
  for (const block of blocks) {
    if (!SHELL.has(block.lang)) {
      const shown = block.lines.find((l) => /^(?:\$ )?(?:npx )?mkt /.test(l));
      if (shown) problems.push(`a \`${shown}\` shown in a \`\`\`${block.lang} block (line ${block.line}): make it \`\`\`sh so it runs`);
      continue;
    }
    for (const line of shellLines(block)) {
      const matching = directives.filter((d) => line.text.startsWith(d.prefix));
      if (matching.length > 1) problems.push(`line ${line.line} is named by ${matching.length} directives: ${line.text}`);
      const d = matching[0];
      if (d) used.add(d);
      if (d && !line.mkt) problems.push(`line ${line.line} runs no mkt command, yet directive "${d.prefix}" names it`);
      const next = plan(line, d);
      // Only a mock is waited for and kept running; any other `… &` would outlive its page unseen.
      if (next.action === 'run' && /&$/.test(line.text))
        problems.push(`line ${line.line} runs in the background, which only \`mkt mock serve … &\` may: ${line.text}`);
      planned.push(next);
    }
  }
  for (const d of directives)
    if (!used.has(d) && sectionsCover(text, d, sections))
      problems.push(`directive "${d.prefix}" (line ${d.line}) names no line of a shell block`);
  return { planned, problems };
}

/** Whether a directive's line ought to be among the sections read: always when the whole page is. */
function sectionsCover(text: string, d: Directive, sections?: readonly string[]): boolean {
  return !sections || sectionsOf(text, sections).includes(d.prefix);
}

/** The action for one line: its directive's, else a serve, else a plain run expecting exit 0. */
function plan(line: ShellLine, d: Directive | undefined): Planned {
  if (!line.mkt) return { line, action: 'not-mkt', expect: 0, reason: 'runs no mkt command' };
  if (d && d.kind !== 'exit') return { line, action: d.kind, expect: 0, reason: d.reason };
  const serve = /(?:^|\s)mkt mock serve(?:\s|$)/.test(line.text);
  const action = serve ? (/&$/.test(line.text) ? 'serve-background' : 'serve') : 'run';
  return { line, action, expect: d?.code ?? 0, reason: d?.reason ?? '' };
}
