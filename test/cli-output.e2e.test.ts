import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 300 });
});
afterAll(async () => {
  await mock.close();
});

const mkt = (args: string[], env: Record<string, string> = {}) => runMkt(args, { env: { ...mock.env, ...env } });
const COLS = ['--columns', 'listing_number,borrower_rate'];

describe('--columns in every format', () => {
  it('json: each result keeps only those keys, the envelope stays', async () => {
    const r = await mkt(['listings', 'search', '--limit', '3', ...COLS, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const page = JSON.parse(r.stdout);
    expect(page.total_count).toBeGreaterThan(3);
    expect(page.result).toHaveLength(3);
    for (const l of page.result) expect(Object.keys(l)).toEqual(['listing_number', 'borrower_rate']);
  });

  it('ndjson, with --all streaming: one object a line with only those keys', async () => {
    const r = await mkt(['listings', 'search', '--all', '--platform_rating', 'AA', ...COLS, '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(Object.keys(l)).toEqual(['listing_number', 'borrower_rate']);
  });

  it('csv: the header and values in that order, values as the API gave them', async () => {
    const r = await mkt(['listings', 'search', '--limit', '2', '--columns', 'borrower_rate,listing_number', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const [header, first] = r.stdout.split('\n');
    expect(header).toBe('borrower_rate,listing_number');
    expect(first).toMatch(/^0\.\d+,\d+$/);
  });

  it('table: only those columns, the rate as a percentage', async () => {
    const r = await mkt(['listings', 'search', '--limit', '2', ...COLS, '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    const [header, first] = r.stdout.split('\n');
    expect(header!.split(/\s+/).filter(Boolean)).toEqual(['listing', 'rate']);
    expect(first).toMatch(/^\d+ +\d+\.\d\d%$/);
  });

  it('works before the command name too, and for other list commands (order list, listings fields, listings get)', async () => {
    const fields = await mkt(['--columns', 'field,type', 'listings', 'fields', '-o', 'json']);
    expect(fields.code, fields.stderr).toBe(0);
    expect(Object.keys(JSON.parse(fields.stdout)[0])).toEqual(['field', 'type']);
    const orders = await mkt(['order', 'list', '--columns', 'order_id', '-o', 'json']);
    expect(orders.code, orders.stderr).toBe(0);
    for (const o of JSON.parse(orders.stdout).result) expect(Object.keys(o)).toEqual(['order_id']);
    const n = mock.app.ctx.world.listings[0]!.listing_number;
    const one = await mkt(['listings', 'get', String(n), '--columns', 'listing_number,fico_score', '-o', 'json']);
    expect(one.code, one.stderr).toBe(0);
    expect(Object.keys(JSON.parse(one.stdout))).toEqual(['listing_number', 'fico_score']);
  });

  it('a mistyped column is exit 2 with a suggestion, and nothing is sent', async () => {
    // Pointed at a closed port: had anything been sent, the answer would be exit 5, not 2.
    const r = await mkt(['listings', 'search', '--columns', 'listing_number,borower_rate'], { MKT_ROOT_URL: 'http://127.0.0.1:9' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown column 'borower_rate'");
    expect(r.stderr).toContain("did you mean 'borrower_rate'");
    expect(r.stdout).toBe('');
    const label = await mkt(['listings', 'search', '--columns', 'rate']);
    expect(label.code).toBe(2);
    expect(label.stderr).toContain("did you mean 'borrower_rate'");
  });

  it('a mistyped column on order submit places no order', async () => {
    const before = mock.app.ctx.world.orders.size;
    const id = mock.app.ctx.world.listings.find((l) => l.listing_status === 2)!.listing_number;
    const r = await runMkt(['order', 'submit', '-', '--amount', '25', '--yes', '--columns', 'bid_amout'], {
      env: mock.env,
      input: `listing_id\n${id}\n`,
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("did you mean 'bid_amount'");
    expect(mock.app.ctx.world.orders.size).toBe(before);
  });
});

describe('--query (JMESPath)', () => {
  it('reshapes the whole JSON answer', async () => {
    const r = await mkt(['listings', 'search', '--limit', '3', '--query', 'result[].listing_number']);
    expect(r.code, r.stderr).toBe(0);
    const numbers = JSON.parse(r.stdout);
    expect(numbers).toHaveLength(3);
    for (const n of numbers) expect(typeof n).toBe('number');
  });

  it('filters a streamed --all as one array', async () => {
    const r = await mkt(['listings', 'search', '--all', '--query', "[?platform_rating=='AA'].listing_number", '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const expected = mock.app.ctx.world.listings.filter((l) => l.listing_status === 2 && l.platform_rating === 'AA').length;
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
    expect(JSON.parse(r.stdout).length).toBeLessThanOrEqual(expected);
  });

  it('applies to each item with -o ndjson, after --columns', async () => {
    const r = await mkt([
      'listings',
      'search',
      '--limit',
      '4',
      '-o',
      'ndjson',
      ...COLS,
      '--query',
      '{n: listing_number, r: borrower_rate}',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    for (const l of lines) expect(Object.keys(l)).toEqual(['n', 'r']);
  });

  it('implies json on a terminal-less run and refuses -o csv or table (exit 2)', async () => {
    const csv = await mkt(['listings', 'search', '--query', 'result', '-o', 'csv']);
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain('--query applies to -o json or -o ndjson, not csv');
  });

  it('a bad expression is exit 2 naming it and its problem, before anything is sent', async () => {
    const r = await mkt(['listings', 'search', '--query', 'result[?'], { MKT_ROOT_URL: 'http://127.0.0.1:9' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--query 'result[?'");
    expect(r.stderr).toMatch(/Syntax error/i);
    expect(r.stdout).toBe('');
    const wrongType = await mkt(['listings', 'search', '--limit', '1', '--query', 'abs(result)']);
    expect(wrongType.code).toBe(2);
    expect(wrongType.stderr).toContain("--query 'abs(result)'");
    expect(wrongType.stderr).toContain('abs()');
  });
});

describe('piped output stays as it was', () => {
  it('json values are not humanised and csv is not cut, whatever COLUMNS says', async () => {
    const json = await mkt(['listings', 'search', '--limit', '2'], { COLUMNS: '40' });
    expect(JSON.parse(json.stdout).result[0].borrower_rate).toBeLessThan(1);
    const csv = await mkt(['listings', 'search', '--limit', '2', '-o', 'csv'], { COLUMNS: '40' });
    expect(csv.stdout.split('\n')[0]).toBe(
      'listing_number,platform_rating,fico_score,listing_term,borrower_rate,listing_amount,amount_remaining,percent_funded,listing_title,borrower_state',
    );
    expect(csv.stdout).not.toContain('…');
  });
});

describe('on an 80-column terminal (tmux)', () => {
  it('listings search fits the width with no wrapped rows, and prints the page footer', async () => {
    const home = tempHome();
    const session = `mkt-out-${process.pid}-${Date.now()}`;
    const envs = `MKT_ROOT_URL=${mock.origin} MKT_ACCESS_TOKEN=${mock.env.MKT_ACCESS_TOKEN} MKT_CONFIG_DIR=${home}/c MKT_STATE_DIR=${home}/s NO_COLOR=1`;
    execFileSync('tmux', [
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '80',
      '-y',
      '50',
      `env -u COLUMNS ${envs} ${process.execPath} ${BIN} listings search --limit 25; echo EXIT=$?; sleep 60`,
    ]);
    const screen = () => execFileSync('tmux', ['capture-pane', '-p', '-J', '-t', session]).toString();
    try {
      let text = screen();
      for (let i = 0; i < 100 && !/EXIT=\d/.test(text); i++) {
        // The mock runs in this process: wait without blocking it.
        await new Promise((r) => setTimeout(r, 100));
        text = screen();
      }
      expect(text).toContain('EXIT=0');
      const lines = text.split('\n');
      // -J joins wrapped lines, so a row wider than the pane would show up here as a line over 80.
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
      const header = lines.findIndex((l) => /^ *listing +rating/.test(l));
      expect(header).toBeGreaterThanOrEqual(0);
      const rows = lines.slice(header + 1).filter((l) => /^ *\d{6,} /.test(l));
      expect(rows).toHaveLength(25);
      expect(lines.slice(header + 1, header + 26).every((l) => /^ *\d{6,} /.test(l))).toBe(true);
      expect(text).toMatch(/25 of \d{1,3}(,\d{3})* — use --all or --offset/);
    } finally {
      execFileSync('tmux', ['kill-session', '-t', session]);
    }
  });
});
