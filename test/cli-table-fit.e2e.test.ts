/**
 * Every command that prints a table, on a real terminal (tmux) 40, 80 and 240 columns wide, against the
 * mock (issue 42, item 3): no line wider than the terminal, every identifier the table shows (flags, field
 * names, listing numbers, order ids, note ids, keys) whole and never cut with …, money as 11,850.00.
 * The identifiers to look for come from the same command's `-o json`. Only stdout is read (messages on
 * stderr are the terminal's to wrap). One tmux server a width, on a socket of its own, runs every command
 * in turn between markers; its scrollback is read back joined (-J), so a line the terminal had to wrap
 * shows up as one longer than the width.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money } from '../src/output/columns.js';
import { BIN, runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';
import { skipUnless } from './helpers/requirements.js';

const noTmux = skipUnless('the table-width tests', ['tmux']);

type Json = Record<string, unknown> & { result?: Record<string, unknown>[] };
/** A command that prints a table, the identifiers its table must show whole, and money it must show as money. */
interface TableCommand {
  args: string[];
  ids: (json: Json) => (string | number)[];
  money?: (json: Json) => number[];
}

const WIDTHS = [40, 80, 240] as const;
const rows = (json: unknown): Record<string, unknown>[] => (Array.isArray(json) ? json : ((json as Json).result ?? []));
const column = (name: string) => (json: Json) =>
  rows(json).flatMap((r) => (r[name] === null || r[name] === undefined ? [] : [r[name] as string]));

let mock: TestMock;
let home: string;
let commands: TableCommand[];

beforeAll(async () => {
  mock = await startMock({ listings: 60 });
  home = tempHome();
  const env = { ...mock.env, MKT_CONFIG_DIR: join(home, 'c'), MKT_STATE_DIR: join(home, 's') };
  const json = async (args: string[], input?: string): Promise<Json> => {
    const r = await runMkt([...args, '-o', 'json'], { env, home, ...(input === undefined ? {} : { input }) });
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout) as Json;
  };
  const listings = column('listing_number')(await json(['listings', 'search', '--limit', '6', '--invested', 'false']));
  const placed = await json(['order', 'submit', '-', '--amount', '25', '--yes'], `listing_id\n${listings[0]}\n${listings[1]}\n`);
  const orderId = String(rows(placed)[0]!.order_id);
  const note = String(rows(await json(['notes', 'list', '--limit', '1']))[0]!.loan_note_id);
  const loan = String(rows(await json(['loans', 'list', '--limit', '1']))[0]!.loan_number);
  await json(['mock', 'snapshot', 'save', 'fit-base']);
  const bids = join(home, 'bids.csv');
  writeFileSync(bids, `listing_id,bid_amount\n${listings[2]},25\n${listings[3]},30\n`);
  const strategy = join(home, 'strategy.yaml');
  writeFileSync(
    strategy,
    'rules:\n  - name: all\n    filters:\n      platform_rating: [AA, A, B, C, D, E, HR]\n    amount: 25\n    max_listings: 3\n',
  );
  commands = [
    { args: ['listings', 'search', '--limit', '10'], ids: column('listing_number') },
    {
      args: ['listings', 'fields'],
      ids: (j) => [...column('field')(j), ...column('flags')(j).flatMap((f) => f.split(' ').filter(Boolean))],
    },
    { args: ['listings', 'get', String(listings[0])], ids: (j) => [j.listing_number as number] },
    { args: ['loans', 'list', '--limit', '10'], ids: column('loan_number') },
    { args: ['loans', 'payments', loan, '--limit', '10'], ids: column('loan_number') },
    { args: ['notes', 'list', '--limit', '10'], ids: column('loan_note_id') },
    { args: ['notes', 'get', note], ids: (j) => [j.loan_note_id as string] },
    { args: ['order', 'list'], ids: column('order_id'), money: (j) => rows(j).map((r) => r.order_amount as number) },
    {
      args: ['order', 'get', orderId],
      ids: (j) => [j.order_id as string, ...rows({ result: j.bid_requests } as Json).map((b) => b.listing_id as number)],
    },
    { args: ['order', 'listings', orderId], ids: column('listing_number') },
    { args: ['order', 'submit', bids, '--dry-run'], ids: column('listing_id') },
    {
      args: ['invest', 'run', strategy, '--dry-run'],
      // The table shows the bids; skips are counted by reason (--show-skipped lists them).
      ids: (j) =>
        rows({ result: j.decisions } as Json)
          .filter((d) => d.action === 'bid')
          .map((d) => d.listing_id as number),
    },
    { args: ['account'], ids: () => [], money: (j) => [j.available_cash_balance as number] },
    { args: ['portfolio'], ids: () => [], money: (j) => [j.invested as number] },
    { args: ['portfolio', '--by', 'rating'], ids: () => [] },
    { args: ['statement', '--from', '2024-01-01'], ids: (j) => rows({ result: j.notes } as Json).map((n) => n.loan_note_id as string) },
    { args: ['config', 'list'], ids: column('key') },
    { args: ['mock', 'requests', '--limit', '10'], ids: () => [] },
    { args: ['mock', 'outbox'], ids: column('order_id') },
    { args: ['mock', 'snapshot', 'list'], ids: column('name') },
  ];
  // What each table must show, from its own -o json (read before the terminals run, so both see one world).
  for (const c of commands) {
    const j = await json(c.args);
    expected.set(c, { ids: c.ids(j).map(String), money: (c.money?.(j) ?? []).map(money) });
  }
}, 120_000);

afterAll(async () => {
  await mock?.close();
});

const expected = new Map<TableCommand, { ids: string[]; money: string[] }>();

/** Runs every command in one tmux terminal `width` columns wide; its screen and scrollback, each line whole (-J). */
async function terminal(width: number): Promise<string> {
  const socket = `mkt-fit-${process.pid}-${width}`;
  const conf = join(home, `tmux-${width}.conf`);
  writeFileSync(conf, 'set -g history-limit 100000\n');
  const envs = `MKT_ROOT_URL=${mock.origin} MKT_ACCESS_TOKEN=${mock.env.MKT_ACCESS_TOKEN} MKT_CONFIG_DIR=${home}/c MKT_STATE_DIR=${home}/s MKT_CREDENTIAL_STORE=file HOME=${home} NO_COLOR=1`;
  const script = join(home, `run-${width}.sh`);
  writeFileSync(
    script,
    [
      ...commands.map(
        (c, i) =>
          `echo "=== BEGIN ${i}"; env -u COLUMNS ${envs} ${process.execPath} ${BIN} ${c.args.join(' ')} 2>/dev/null; echo "=== END ${i} EXIT=$?"`,
      ),
      'echo ALL-DONE; sleep 300',
    ].join('\n'),
  );
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, '-f', conf, ...args]).toString();
  tmux('new-session', '-d', '-s', 'fit', '-x', String(width), '-y', '50', `sh ${script}`);
  try {
    let text = '';
    for (let i = 0; i < 900 && !text.includes('ALL-DONE'); i++) {
      // The mock runs in this process: wait without blocking it.
      await new Promise((r) => setTimeout(r, 200));
      text = tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'fit');
    }
    expect(text).toContain('ALL-DONE');
    return text;
  } finally {
    tmux('kill-server');
  }
}

/** The lines command `i` printed, and its exit code. */
function section(text: string, i: number): { lines: string[]; code: number } {
  const lines = text.split('\n');
  const from = lines.findIndex((l) => l === `=== BEGIN ${i}`);
  const to = lines.findIndex((l) => l.startsWith(`=== END ${i} EXIT=`));
  expect(from, `command ${i} began`).toBeGreaterThanOrEqual(0);
  expect(to, `command ${i} ended`).toBeGreaterThan(from);
  return { lines: lines.slice(from + 1, to), code: Number(lines[to]!.split('EXIT=')[1]) };
}

describe.skipIf(noTmux)('every table command on a 40, 80 and 240-column terminal (tmux)', () => {
  it.each(WIDTHS)(
    'at %i columns: no line wider, every identifier whole, money as money',
    async (width) => {
      const text = await terminal(width);
      commands.forEach((c, i) => {
        const name = `${c.args.join(' ')} at ${width}`;
        const { lines, code } = section(text, i);
        // Every command here succeeds (the dry runs' bids are fine, the order ids real).
        expect.soft(code, `${name}\n${lines.join('\n')}`).toBe(0);
        const want = expected.get(c)!;
        if (want.ids.length > 0) expect.soft(lines.join('').trim(), name).not.toBe('');
        for (const line of lines) expect.soft([...line].length, `${name}: ${line}`).toBeLessThanOrEqual(width);
        const flat = lines.join('').replace(/\s+/g, '');
        for (const id of want.ids) expect.soft(flat, `${name}: ${id}`).toContain(id.replace(/\s+/g, ''));
        for (const m of want.money) expect.soft(flat, `${name}: ${m}`).toContain(m);
        // Nothing an identifier starts with is followed by … (`--amoun…`).
        for (const line of lines)
          for (const [cut] of line.matchAll(/\S{3,}(?=…)/g))
            expect
              .soft(
                want.ids.filter((id) => id.startsWith(cut)),
                `${name}: ${line}`,
              )
              .toEqual([]);
        // Where a whole identifier fits the line, it is on one line.
        if (width >= 80)
          for (const id of want.ids.filter((x) => x.length <= width - 20))
            expect
              .soft(
                lines.some((l) => l.includes(id)),
                `${name}: ${id}`,
              )
              .toBe(true);
      });
    },
    240_000,
  );
});
