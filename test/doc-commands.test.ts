/**
 * The reader behind the doc test (test/helpers/doc-commands.ts): which lines of a page it runs, and that it never
 * drops a command quietly — a `mkt` line outside a shell block, a directive that names nothing or is misspelt, and
 * a line two directives name all fail the page instead of leaving a command unrun.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blocksOf, directivesOf, MKT_COMMAND, planPage, shellLines } from './helpers/doc-commands.js';
import { formProblems, HelpReader, inlineForms, stagesOf } from './helpers/doc-forms.js';

const fence = '```';

describe('the lines of a shell block', () => {
  it('joins continuations, drops comments, keeps the first line number, reads console prompts only', () => {
    const [sh, console_] = blocksOf(
      [
        `${fence}sh`,
        '# a comment line',
        'mkt listings search --limit 1 \\',
        '  --all   # every page',
        '',
        'curl -s x',
        fence,
        `${fence}console`,
        '$ mkt account',
        'cash 10.00',
        fence,
      ].join('\n'),
    );
    expect(shellLines(sh!)).toEqual([
      { text: 'mkt listings search --limit 1 --all', line: 3, mkt: true },
      { text: 'curl -s x', line: 6, mkt: false },
    ]);
    expect(shellLines(console_!)).toEqual([{ text: 'mkt account', line: 9, mkt: true }]);
  });

  it.each([
    ['mkt account', true],
    ['npx mkt demo', true],
    ['npm ci && npx mkt demo', true],
    ['mkt listings search -o csv | mkt order submit -', true],
    ['MKT_ROOT_URL=http://x npx mkt mock requests', true],
    ['source <(mkt completion bash)', true],
    ['command -v mkt', false],
    ['(cd path/to/mkt && npm pack)', false],
    ['curl http://127.0.0.1:4010/mkt', false],
  ])('%s runs mkt: %s', (line, runs) => {
    expect(MKT_COMMAND.test(line)).toBe(runs);
  });

  it('splits a line into its mkt stages', () => {
    expect(stagesOf('mkt listings search --all -o csv | mkt order submit - --yes &')).toEqual([
      'mkt listings search --all -o csv',
      'mkt order submit - --yes',
    ]);
    expect(stagesOf('source <(mkt completion bash)')).toEqual(['mkt completion bash']);
  });

  it('never reads a line as a comment because of a # inside a word', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9#=-]{1,12}$/), (word) => {
        const [block] = blocksOf(`${fence}sh\nmkt api GET /x${word}\n${fence}`);
        expect(shellLines(block!)[0]!.text).toBe(`mkt api GET /x${word}`);
      }),
    );
  });
});

describe("the page's doc-test comment", () => {
  const page = (directives: string, body: string) =>
    `# P\n\n<!-- doc-test: how this page's lines run\n${directives}\n-->\n\n${fence}sh\n${body}\n${fence}\n`;

  it('plans each line: run, serve, a directive, or not mkt', () => {
    const text = page(
      '"mkt listings get 1" exit 4: no such listing\n"mkt login" skip: opens a browser\n"mkt invest run STRATEGY" synopsis',
      'mkt account\nmkt listings get 1\nmkt login\nmkt invest run STRATEGY [--yes]\nnpx mkt mock serve --seed 2\nnpx mkt mock serve &\ncurl -s x',
    );
    const { planned, problems } = planPage(text);
    expect(problems).toEqual([]);
    expect(planned.map((p) => [p.action, p.expect])).toEqual([
      ['run', 0],
      ['run', 4],
      ['skip', 0],
      ['synopsis', 0],
      ['serve', 0],
      ['serve-background', 0],
      ['not-mkt', 0],
    ]);
  });

  it.each([
    ['"mkt nothing" skip: stale', 'directive "mkt nothing" (line 4) names no line'],
    ['"mkt" skip: a\n"mkt account" exit 1: b', 'line 9 is named by 2 directives'],
    ['"curl" skip: not mkt', 'runs no mkt command'],
    ['', 'line 8 runs in the background'],
  ])('fails the page on %s', (directives, problem) => {
    const text = page(directives, directives ? 'mkt account\ncurl -s x' : 'mkt mock proxy --upstream U &');
    expect(planPage(text).problems.join('\n')).toContain(problem);
  });

  it('fails the page on a mkt command shown outside a shell block', () => {
    expect(planPage(`${fence}\nmkt account\n${fence}\n`).problems.join('\n')).toContain('make it ```sh so it runs');
  });

  it.each([
    ['"mkt login" skip', 'needs a reason'],
    ['mkt login skip: x', 'not a doc-test directive'],
    ['"mkt x" sometimes: y', 'not a doc-test directive'],
  ])('refuses the directive %s, naming its line', (directive, message) => {
    expect(() => directivesOf(page(directive, 'mkt account'))).toThrow(new RegExp(`line 4: .*${message}`));
  });

  it('refuses a comment never closed', () => {
    expect(() => directivesOf('<!-- doc-test: x\n"mkt a" synopsis\n')).toThrow(/never closed/);
  });
});

describe('a command form against the help', () => {
  /** Help texts of a small made-up mkt: `listings` with `get` and `search`, `notes list`. */
  class FakeHelps extends HelpReader {
    override helpOf(path: readonly string[]): string {
      const helps: Record<string, string> = {
        '': 'Options:\n  -o, --output <format>  format\n\nCommands:\n  listings   listings\n  notes  notes\n  help [command]\n',
        listings: 'Options:\n  -h, --help\n\nCommands:\n  get   one\n  search  many\n',
        'listings get': 'Usage: mkt listings get <number>\n\nOptions:\n  --fields <names>\n',
        'listings search': 'Options:\n  --limit <n>\n  --all\n  --fico_score <values>\n',
        notes: 'Commands:\n  list   notes\n',
        'notes list': 'Options:\n  --rating <r>\n',
      };
      const help = helps[path.join(' ')];
      if (help === undefined) throw new Error(`no help for ${path.join(' ')}`);
      return help;
    }
  }
  const helps = new FakeHelps();

  it.each([
    'mkt listings get NUMBER',
    'mkt listings search [--limit N] [--all] --fico_score=760-779 -o csv',
    'mkt listings get|search',
    'mkt notes --rating',
    'npx mkt listings search --limit 1',
    'mkt listings search --limit "a --b"',
  ])('takes %s', (form) => {
    expect(formProblems(form, helps)).toEqual([]);
  });

  it.each([
    ['mkt listings serch --all', 'no command `mkt listings serch`'],
    ['mkt listings get|fetch', 'no command `mkt listings fetch`'],
    ['mkt listings get 10 --limit 1', '`mkt listings get` takes no --limit'],
    ['mkt listings search [--al]', 'takes no --al'],
    ['mkt notes --rate', '`mkt notes` takes no --rate'],
  ])('refuses %s', (form, problem) => {
    expect(formProblems(form, helps).join('\n')).toContain(problem);
  });

  it('reads inline forms outside fences, a span across a line break joined', () => {
    expect(inlineForms('Run `mkt listings\nget 1` or `npx mkt notes list`, not `listings get`.\n```sh\nmkt x\n```\n')).toEqual([
      'mkt listings get 1',
      'npx mkt notes list',
    ]);
  });
});

describe('a page cut to some sections', () => {
  it('keeps the page line numbers and refuses a section it lacks', () => {
    const text = `# T\n## A\n${fence}sh\nmkt account\n${fence}\n## B\n${fence}sh\nmkt listings fields\n${fence}\n`;
    expect(planPage(text, ['B']).planned.map((p) => [p.line.line, p.line.text])).toEqual([[8, 'mkt listings fields']]);
    expect(() => planPage(text, ['C'])).toThrow('no section "## C"');
  });
});
