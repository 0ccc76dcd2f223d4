/**
 * Every command the documentation shows, run as printed, so a page cannot lag behind what mkt does. For each page
 * of docs/ (and the README's sections named below), each
 * `mkt …` line of a ```sh block runs under sh in a fresh HOME and folder, with `mkt` the built bin and
 * MKT_ROOT_URL at a bundled mock served for the page (`--auto-approve alice`, logged in first), and must exit as
 * the page implies: 0, unless the page's `<!-- doc-test … -->` comment (test/helpers/doc-commands.ts) says
 * otherwise. A `mkt mock serve` line must start and listen, then stop cleanly on SIGTERM; one ending in `&` becomes
 * the mock of the lines after it. A line the comment marks `skip` is not run, with its reason printed; `synopsis`
 * lines and every inline `mkt …` span are checked against `mkt … --help` (commands exist, flags are taken). Lines
 * that run no mkt (curl, npm) are counted and printed, never run. Each page prints what it ran.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answerCheckEnv, BIN } from './helpers/cli.js';
import { planPage, type Planned } from './helpers/doc-commands.js';
import { formProblems, HelpReader, inlineForms, stagesOf } from './helpers/doc-forms.js';

const ROOT = resolve(import.meta.dirname, '..');
/** Each page and the `## ` sections of it whose shell blocks run (all of them when none are named). */
const PAGES: ReadonlyArray<{ page: string; sections?: string[] }> = [
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => ({ page: `docs/${f}` })),
  // The README's other blocks: its walk, proxy, cron and library recipes have tests of their own (readme-*.test.ts);
  // those of logging in, bids, strategies, completion and `mkt api` need files, a keychain or a shell but sh.
  { page: 'README.md', sections: ['Search listings', "Portfolio, returns and a year's statement"] },
];
/** Bounds: lines run per page, and the wait for one line (a mock serving included). */
const MAX_LINES = 40;
const LINE_MS = 60_000;

const children = new Set<ChildProcess>();
const folders: string[] = [];
const summary: string[] = [];
afterAll(() => {
  for (const child of children) signal(child, 'SIGKILL');
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  console.log(`docs-commands: what each page ran\n${summary.join('\n')}`);
});

/** A fresh HOME and working folder with `mkt` on PATH as a script running the built bin (so `$(mkt …)` and pipes reach it). */
function workspace(): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'mkt-docs-'));
  folders.push(dir);
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin/mkt'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(dir, 'bin/mkt'), 0o755);
  return { dir, env: { HOME: dir, PATH: `${dir}/bin:/usr/bin:/bin`, NO_COLOR: '1', ...answerCheckEnv() } };
}

/** A line as sh runs it here: `npx mkt` is the `mkt` on PATH, the mock's documented port is the one it got. */
function asRun(text: string, origin: string): string {
  const hostPort = origin.replace(/^http:\/\//, '');
  return text.replace(/\bnpx mkt\b/g, 'mkt').replace(/\b(?:127\.0\.0\.1|localhost):4010\b/g, hostPort);
}

/** Sends `signal` to a line's whole process group (sh and the mkt it started), as Ctrl-C in a terminal does. */
function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, sig);
  } catch {
    // the group has ended
  }
}

/** A shell child of one line in its own process group, its output gathered; `until` resolves when the output first matches. */
function start(script: string, cwd: string, env: Record<string, string>) {
  const child = spawn('sh', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const timer = setTimeout(() => signal(child, 'SIGKILL'), LINE_MS);
  const exited = new Promise<number | null>((done) =>
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      children.delete(child);
      done(code ?? (sig ? 128 + ({ SIGINT: 2, SIGTERM: 15, SIGKILL: 9 }[sig as string] ?? 0) : null));
    }),
  );
  /** Resolves with true once the output matches `pattern`, false if the child ends first. */
  const until = (pattern: RegExp) =>
    new Promise<boolean>((done) => {
      const check = () => pattern.test(out + err) && done(true);
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      void exited.then(() => done(pattern.test(out + err)));
      check();
    });
  return { child, exited, until, output: () => `${out}${err}` };
}

/** Serves a mock for `script` (a `mkt mock serve` line, on a free port), resolving with its origin once it listens. */
async function serve(script: string, cwd: string, env: Record<string, string>) {
  const line = `exec ${script.replace(/&$/, '').replace(/\s--port[ =]\S+/g, '')} --port 0`;
  const run = start(line, cwd, env);
  const listening = await run.until(/listening on http:\/\/\S+/);
  const origin = /listening on (http:\/\/[^\s/]+)/.exec(run.output())?.[1]?.replace('0.0.0.0', '127.0.0.1');
  return { ...run, origin: listening ? origin : undefined };
}

/** Runs one planned line; resolves with a failure message, or undefined when it ended as the page implies. */
async function runLine(p: Planned, ctx: { dir: string; env: Record<string, string>; origin: string }): Promise<string | undefined> {
  const script = asRun(p.line.text, ctx.origin);
  const env = { ...ctx.env, MKT_ROOT_URL: ctx.origin };
  const where = `line ${p.line.line}: ${p.line.text}`;
  if (p.action === 'serve' || p.action === 'serve-background') {
    const served = await serve(script, ctx.dir, env);
    if (!served.origin) return `${where}\n  never listened; exit ${await served.exited}\n${served.output()}`;
    if (p.action === 'serve-background') {
      ctx.origin = served.origin;
      return undefined;
    }
    // Stopped once it has answered a request, as a person would press Ctrl-C: in the instant after the banner its
    // signal handler may not be in place yet, and a SIGTERM then ends it with 143 instead of a clean stop.
    const answered = await fetch(`${served.origin}/openapi.json`).then((r) => r.status, String);
    if (answered !== 200) return `${where}\n  listened but GET /openapi.json answered ${answered}\n${served.output()}`;
    signal(served.child, 'SIGTERM');
    const code = await served.exited;
    return code === p.expect ? undefined : `${where}\n  stopped by SIGTERM with exit ${code}, not ${p.expect}\n${served.output()}`;
  }
  // A lone command is exec'd, so Ctrl-C reaches mkt as in a terminal and its own exit code comes back.
  const run = start(p.action === 'interrupt' && !/[|;&]/.test(script) ? `exec ${script}` : script, ctx.dir, env);
  if (p.action === 'interrupt') {
    const printed = await Promise.race([run.until(/\S/), new Promise<boolean>((done) => setTimeout(() => done(true), 5_000))]);
    if (run.child.exitCode !== null || !printed) return `${where}\n  ended (exit ${await run.exited}) before Ctrl-C\n${run.output()}`;
    signal(run.child, 'SIGINT');
    const code = await run.exited;
    return code === 0 || code === 130 ? undefined : `${where}\n  Ctrl-C ended it with exit ${code}, not 0 or 130\n${run.output()}`;
  }
  const code = await run.exited;
  return code === p.expect ? undefined : `${where}\n  exit ${code}, the page implies ${p.expect}\n${run.output().slice(-2000)}`;
}

/** `mkt login` against the page's mock, so lines that need an account have one (setup, not a line of the page). */
async function logIn(ctx: { dir: string; env: Record<string, string>; origin: string }): Promise<void> {
  const run = start('mkt login --insecure-storage', ctx.dir, { ...ctx.env, MKT_ROOT_URL: ctx.origin });
  const code = await run.exited;
  if (code !== 0) throw new Error(`setup: mkt login against the page's mock exited ${code}\n${run.output()}`);
}

describe('every command a page shows runs as printed', () => {
  it.each(PAGES)(
    '$page',
    async ({ page, sections }) => {
      const text = readFileSync(join(ROOT, page), 'utf8');
      const { planned, problems } = planPage(text, sections);
      expect(problems, `${page}: lines the doc test cannot place`).toEqual([]);
      const runs = planned.filter((p) => ['run', 'serve', 'serve-background', 'interrupt'].includes(p.action));
      expect(runs.length, `${page}: more than ${MAX_LINES} lines to run`).toBeLessThanOrEqual(MAX_LINES);

      const failures: string[] = [];
      if (runs.length > 0) {
        const { dir, env } = workspace();
        try {
          const mock = await serve('mkt mock serve --auto-approve alice', dir, env);
          if (!mock.origin) throw new Error(`setup: the page's mock did not start\n${mock.output()}`);
          const ctx = { dir, env, origin: mock.origin };
          await logIn(ctx);
          for (const p of runs) {
            const failure = await runLine(p, ctx);
            if (failure) failures.push(failure);
          }
        } finally {
          // The page's mocks (its own and any a line left serving) stop with the page, not at the end of the file.
          for (const child of children) signal(child, 'SIGTERM');
        }
      }
      const count = (action: string) => planned.filter((p) => p.action === action);
      const skipped = count('skip').map((p) => `    skipped line ${p.line.line} (${p.reason}): ${p.line.text}`);
      const other = count('not-mkt').map((p) => `    not run, no mkt: line ${p.line.line}: ${p.line.text}`);
      summary.push(
        `  ${page}${sections ? ` (${sections.join(', ')})` : ''}: ${runs.length} run, ${count('synopsis').length} synopses checked, `
          + `${skipped.length} skipped, ${other.length} without mkt`,
        ...skipped,
        ...other,
      );
      expect(failures, `${page}: lines that did not end as the page implies`).toEqual([]);
    },
    600_000,
  );
});

describe('every command form a page shows names commands and flags mkt has', () => {
  const helps = new HelpReader();
  it.each(['README.md', ...PAGES.filter((p) => p.page !== 'README.md').map((p) => p.page)])(
    '%s',
    (page) => {
      const text = readFileSync(join(ROOT, page), 'utf8');
      const shown = planPage(text).planned.filter((p) => p.action !== 'not-mkt');
      // A synopsis is one form (`a|b` in it is a choice, not a pipe); a command line is checked stage by stage.
      const forms = [...inlineForms(text), ...shown.flatMap((p) => (p.action === 'synopsis' ? [p.line.text] : stagesOf(p.line.text)))];
      const distinct = [...new Set(forms)];
      const problems = distinct.flatMap((f) => formProblems(f, helps));
      summary.push(`  ${page}: ${distinct.length} command forms checked against --help`);
      expect(problems, `${page}: forms that name what mkt does not have`).toEqual([]);
    },
    120_000,
  );
});
