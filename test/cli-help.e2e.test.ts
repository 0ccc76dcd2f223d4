import { describe, expect, it } from 'vitest';
import { runMkt } from './helpers/cli.js';

/** The subcommand names a help text lists under "Commands:" (without `help`). */
function subcommandsOf(help: string): string[] {
  const section = /\nCommands:\n([\s\S]*?)(\n\n|$)/.exec(help)?.[1] ?? '';
  return section
    .split('\n')
    .map((l) => /^ {2}(\S+)/.exec(l)?.[1])
    .filter((n): n is string => !!n && n !== 'help');
}

describe('help reads like gh: examples, global options, wrapped to the terminal', () => {
  it('every command has an Examples section and shows the global options', async () => {
    const root = await runMkt(['--help']);
    expect(root.stdout).toMatch(/\nExamples:\n {2}\$ mkt /);
    const queue = subcommandsOf(root.stdout).map((n) => [n]);
    expect(queue.length).toBeGreaterThan(10);
    let seen = 0;
    while (queue.length > 0) {
      const path = queue.shift()!;
      const r = await runMkt([...path, '--help'], { env: { COLUMNS: '100' } });
      const what = `mkt ${path.join(' ')} --help`;
      expect(r.code, what).toBe(0);
      expect(r.stdout, what).toMatch(/\nExamples:\n {2}\$ \S/);
      expect(r.stdout, what).toMatch(/\nGlobal Options:\n[\s\S]*--profile <name>[\s\S]*--output <format>[\s\S]*--verbose/);
      for (const line of r.stdout.split('\n')) expect(line.length, `${what}: ${line}`).toBeLessThanOrEqual(100);
      for (const sub of subcommandsOf(r.stdout)) queue.push([...path, sub]);
      seen++;
    }
    expect(seen).toBeGreaterThan(30);
  }, 120_000);

  it('listings search groups its filter flags and wraps every line to COLUMNS=100', async () => {
    const r = await runMkt(['listings', 'search', '--help'], { env: { COLUMNS: '100' } });
    expect(r.code).toBe(0);
    const headings = r.stdout.split('\n').filter((l) => /^\S.*:$/.test(l));
    expect(headings).toEqual([
      'Options:',
      'Listing filters:',
      'Borrower filters:',
      'Credit filters:',
      'Bureau2 indexed filters (credit_bureau_values_bureau2_indexed):',
      'Global Options:',
      'Examples:',
    ]);
    const section = (h: string) => r.stdout.split(`\n${h}\n`)[1]!.split('\n\n')[0]!;
    expect(section('Listing filters:')).toContain('--listing_amount_min <value>');
    expect(section('Borrower filters:')).toContain('--borrower_state <value>');
    expect(section('Credit filters:')).toContain('--fico_score <value>');
    expect(section('Bureau2 indexed filters (credit_bureau_values_bureau2_indexed):')).toContain('--at02s_min <value>');
    const long = r.stdout.split('\n').filter((l) => l.length > 100);
    expect(long).toEqual([]);
  });

  it('wraps to a narrower terminal too', async () => {
    const r = await runMkt(['listings', 'search', '--help'], { env: { COLUMNS: '80' } });
    expect(r.stdout.split('\n').filter((l) => l.length > 80)).toEqual([]);
  });
});
