/**
 * Tables that fit any terminal (issue 42, item 3) and money printed one way (item 6): identifiers (flags,
 * ids, listing numbers, field names) are never cut at any width, prose gives way first; a terminal that
 * reports 0 columns is laid out at 80; money reads 11,850.00 in tables and text, plain in json and csv,
 * and a negative zero never shows its sign.
 */
import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LISTING_FIELDS } from '../src/contract/listing-fields.js';
import type { Io } from '../src/io.js';
import { main } from '../src/main.js';
import { barLines } from '../src/output/bars.js';
import { display, money, percent } from '../src/output/columns.js';
import type { Format } from '../src/output/formats.js';
import { render, type Output } from '../src/output/render.js';
import { planTable, tableLines } from '../src/output/table.js';
import { TEST_START } from './helpers/mock.js';

/** `mkt ARGS` in-process on a terminal reporting `columns` columns (no colour); its stdout. */
async function onTerminal(args: string[], columns: number | undefined): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d) => (out += String(d)));
  const home = mkdtempSync(join(tmpdir(), 'mkt-fit-'));
  const io: Io = {
    stdout,
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    stdoutIsTTY: true,
    stderrIsTTY: false,
    stdinIsTTY: false,
    ...(columns === undefined ? {} : { stdoutColumns: columns }),
    env: { NO_COLOR: '1', MKT_CONFIG_DIR: home, MKT_STATE_DIR: home },
    sleep: async () => undefined,
    now: () => TEST_START,
    stopSignal: () => new Promise(() => undefined),
  };
  const code = await main(args, io);
  return { code, out };
}

/** Every flag `mkt listings fields` names, as a person types it. */
async function everyFlag(): Promise<string[]> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d) => (out += String(d)));
  const home = mkdtempSync(join(tmpdir(), 'mkt-fit-'));
  const io: Io = {
    stdout,
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    env: { MKT_CONFIG_DIR: home, MKT_STATE_DIR: home },
    sleep: async () => undefined,
    now: () => TEST_START,
    stopSignal: () => new Promise(() => undefined),
  };
  expect(await main(['listings', 'fields', '-o', 'json'], io)).toBe(0);
  return (JSON.parse(out) as { flags: string }[]).flatMap((r) => r.flags.split(' ').filter(Boolean));
}

describe('mkt listings fields on a terminal', () => {
  it.each([80, 240])('at %i columns shows every flag whole on one line, every line within the width, nothing cut', async (width) => {
    const flags = await everyFlag();
    expect(flags.length).toBeGreaterThan(50);
    const { code, out } = await onTerminal(['listings', 'fields'], width);
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(width);
    expect(out).not.toContain('…');
    const words = new Set(lines.flatMap((l) => l.split(/\s+/)));
    for (const flag of flags) expect(words.has(flag), flag).toBe(true);
    // The description is there too, wrapped rather than dropped.
    const flat = out.replace(/\s+/g, '');
    for (const f of LISTING_FIELDS) expect(flat, f.name).toContain(f.description.replace(/\s+/g, ''));
  });

  it('at 40 columns keeps every flag and field name whole (a name longer than the line goes on at its underscores)', async () => {
    const { code, out } = await onTerminal(['listings', 'fields'], 40);
    expect(code).toBe(0);
    for (const line of out.trimEnd().split('\n')) expect([...line].length, line).toBeLessThanOrEqual(40);
    expect(out).not.toContain('…');
    const flat = out.replace(/\s+/g, '');
    for (const flag of await everyFlag()) expect(flat, flag).toContain(flag);
    for (const f of LISTING_FIELDS) expect(flat, f.name).toContain(f.name);
  });

  it.each([[0], [undefined]])('a terminal reporting %s columns is laid out at 80', async (columns) => {
    const { code, out } = await onTerminal(['listings', 'fields'], columns);
    expect(code).toBe(0);
    expect(out).toBe((await onTerminal(['listings', 'fields'], 80)).out);
    expect(out.split('\n').filter((l) => l.trim() === '…')).toEqual([]);
  });
});

describe('a table at any width', () => {
  it('never cuts nor drops an identifier: each shows whole, every line within the width', () => {
    const uuid = fc.uuid();
    const flags = fc.array(fc.stringMatching(/^--[a-z][a-z0-9_]{0,40}$/), { minLength: 1, maxLength: 2 }).map((f) => f.join(' '));
    const prose = fc.stringMatching(/^[A-Za-z ,.]{0,120}$/);
    const row = fc.record({
      order_id: uuid,
      listing_number: fc.integer({ min: 1, max: 99_999_999 }),
      flags,
      listing_title: prose,
      bid_amount: fc.double({ min: -1e7, max: 1e7, noNaN: true }),
      description: prose,
    });
    const columns = ['order_id', 'listing_title', 'bid_amount', 'listing_number', 'description', 'flags'];
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 6 }), fc.integer({ min: 10, max: 240 }), (rows, width) => {
        const lines = tableLines(planTable(rows, columns, { width }), rows);
        for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(width);
        const flat = lines.join('').replace(/\s+/g, '');
        for (const r of rows) {
          expect(flat).toContain(r.order_id);
          expect(flat).toContain(String(r.listing_number));
          expect(flat).toContain(r.flags.replace(/\s+/g, ''));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('prints records when the key would be the only column left', () => {
    const rows = [{ order_id: '0f8fad5b-d9cb-469f-a165-70867728950e', order_status: 'COMPLETED', order_amount: 11850 }];
    const plan = planTable(rows, ['order_id', 'order_status', 'order_amount'], { width: 40 });
    expect(plan.records).toBe(40);
    expect(tableLines(plan, rows)).toEqual([rows[0]!.order_id, '  order_status  COMPLETED', '  order_amount  11,850.00']);
  });

  it('keeps each identifier on one line when the width allows it', () => {
    const rows = [{ order_id: '0f8fad5b-d9cb-469f-a165-70867728950e', listing_title: 'A long stated reason for the loan', bid_amount: 25 }];
    const lines = tableLines(planTable(rows, ['order_id', 'listing_title', 'bid_amount'], { width: 40 }), rows);
    expect(lines.some((l) => l.includes(rows[0]!.order_id))).toBe(true);
    expect(lines.join('\n')).not.toMatch(/0f8fad5b[^\s]*…/);
  });
});

describe('bars at any width', () => {
  it('draw within the width, and show the figures alone (under their label if need be) where no bar fits', () => {
    const bars = [
      { label: 'over 120 days late', value: 3, text: '1,250.00   5.6%      1 notes  30.17 outstanding' },
      { label: 'current', value: 40, text: '21,000.00  94.4%     17 notes  19,873.20 outstanding' },
    ];
    for (const width of [20, 40, 60, 80, 120, 240]) {
      const lines = barLines(bars, width);
      for (const line of lines) expect([...line].length, `${width}: ${line}`).toBeLessThanOrEqual(width);
      const flat = lines.join(' ').replace(/\s+/g, ' ');
      for (const b of bars) expect(flat, `${width}`).toContain(b.text.replace(/\s+/g, ' '));
    }
    expect(barLines(bars, 120).some((l) => l.includes('█'))).toBe(true);
  });
});

/** What `render` prints for `output` in `format` at 80 columns. */
async function printed(output: Output, format: Format): Promise<string> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += String(d)));
  await render(out, output, format, { width: format === 'table' ? 80 : undefined });
  return text;
}

describe('money printed one way', () => {
  const account = { available_cash_balance: 250000, total_account_value: 249628.73, pending_investments_primary_market: 11850 };

  it('a table shows two decimals with thousands separators, for one record as for rows', async () => {
    const one = await printed({ kind: 'item', item: account }, 'table');
    expect(one).toContain('250,000.00');
    expect(one).not.toMatch(/\b250000\b/);
    expect(one).toMatch(/^available_cash_balance: +250,000\.00$/m);
    expect(one).toMatch(/^total_account_value: +249,628\.73$/m);
    expect(one).toMatch(/^pending_investments_primary_market: +11,850\.00$/m);
    const rows = await printed({ kind: 'rows', rows: [account], columns: Object.keys(account) }, 'table');
    expect(rows).toContain('250,000.00');
    expect(rows).toContain('249,628.73');
  });

  it('json and csv carry plain numbers, no separators', async () => {
    expect(JSON.parse(await printed({ kind: 'item', item: account }, 'json'))).toEqual(account);
    const csv = await printed({ kind: 'rows', rows: [account], columns: Object.keys(account) }, 'csv');
    expect(csv.split('\n')[1]).toBe('250000,249628.73,11850');
  });

  it('never prints -0.00 or -0.00%: a negative zero reads as 0.00', () => {
    expect(display('borrower_rate', -0.00001).text).toBe('0.00%');
    expect(display('bid_amount', -0.004).text).toBe('0.00');
    expect(money(-0.001)).toBe('0.00');
    expect(money(-0)).toBe('0.00');
    expect(money(-0.005 - 1e-9)).toBe('-0.01');
    expect(percent(-0.00001)).toBe('0.00%');
    expect(percent(-0.0004, 1)).toBe('0.0%');
    expect(percent(-0.02, 1)).toBe('-2.0%');
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (x) => {
        expect(money(x)).not.toMatch(/^-0\.00$/);
        expect(percent(x)).not.toMatch(/^-0\.00%$/);
        expect(money(x)).toMatch(/^-?\d{1,3}(,\d{3})*\.\d\d$/);
      }),
    );
  });
});
