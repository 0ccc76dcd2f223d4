/**
 * The README is the newcomer's guide and docs/ holds the rest: every relative link in them reaches a file
 * that exists and, with a `#fragment`, a heading of that file (GitHub's anchor rule), and every command
 * `mkt --help` lists is named in the README, so a new command cannot go undocumented.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown file's headings, fenced code left out. */
function anchorsOf(text: string): Set<string> {
  const outsideFences = text.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...outsideFences.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

/** Relative links `[text](target)` of a markdown file, fenced code left out. */
function linksOf(text: string): string[] {
  const outsideFences = text.replace(/^```[\s\S]*?^```/gm, '');
  return [...outsideFences.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

describe('README.md and docs/', () => {
  it.each(PAGES)('%s: every relative link reaches a file and a heading', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const broken: string[] = [];
    for (const target of linksOf(text)) {
      const [path, fragment] = target.split('#') as [string, string | undefined];
      const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
      if (!existsSync(file)) {
        broken.push(`${target}: no file ${relative(ROOT, file)}`);
        continue;
      }
      if (fragment !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(fragment)) {
        broken.push(`${target}: no heading #${fragment} in ${relative(ROOT, file)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the README names every command mkt --help lists', () => {
    const help = execFileSync(process.execPath, [join(ROOT, 'bin/mkt.cjs'), '--help'], { encoding: 'utf8' });
    const commands = [...help.split(/^Commands:$/m)[1]!.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1]!);
    expect(commands.length).toBeGreaterThan(10);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const missing = commands.filter((c) => c !== 'help' && !readme.includes(`mkt ${c}`));
    expect(missing).toEqual([]);
  });
});
