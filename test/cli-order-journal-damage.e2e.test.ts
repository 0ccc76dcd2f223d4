/**
 * Whatever happens to the order journal — bytes damaged, emptied, deleted, torn by kill -9 — the
 * next `mkt order submit` of the same file places no second order: a damaged journal stops the desk
 * (exit 2, file and line), and a journal that lost its lines is made up for by asking the marketplace.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeAll(async () => {
  // Frozen: bids stay PENDING and unprocessed (no amount_participation yet): only the orders show them.
  mock = await startMock({ listings: 400, frozen: true });
});
afterAll(async () => {
  await mock.close();
});

const ordersIn = () => [...mock.app.ctx.world.orders.values()];
const used = new Set<number>();

/** `n` active fractional listings that take a 25.00 bid from alice now and no test of this file used. */
function fresh(n: number): number[] {
  const now = mock.app.ctx.clock.now();
  const out = mock.app.ctx.world.listings
    .filter(
      (l) =>
        l.listing_status === 2
        && l.investment_typeid === 1
        && l.amount_remaining >= 100
        && !l.borrowerUserId
        && now - l.listing_creation_date > 2 * 86_400_000
        && l.listing_start_date < now
        && !l.mockRole
        && !l.authorizedUsers
        && !l.investmentTypeUnset
        && !used.has(l.listing_number),
    )
    .slice(0, n)
    .map((l) => l.listing_number);
  out.forEach((id) => used.add(id));
  return out;
}

/** A home whose journal holds one order for two listings, placed through the CLI. */
async function submitted() {
  const home = tempHome();
  const ids = fresh(2);
  const file = join(home, 'bids.csv');
  writeFileSync(file, `listing_id,bid_amount\n${ids.map((i) => `${i},25`).join('\n')}\n`);
  const first = await runMkt(['order', 'submit', file, '--yes'], { env: mock.env, home });
  expect(first.code, first.stderr).toBe(0);
  const accounts = join(home, 'state', 'accounts');
  const journal = join(accounts, readdirSync(accounts)[0]!, 'journal.jsonl');
  return {
    home,
    ids,
    file,
    journal,
    before: ordersIn().length,
    submit: (...flags: string[]) => runMkt(['order', 'submit', file, '--yes', ...flags], { env: mock.env, home }),
  };
}

/** Byte offset of the `"t":"intent"` line's middle. */
function intentMiddle(buf: Buffer): number {
  const start = buf.indexOf('{"t":"intent"');
  const end = buf.indexOf(0x0a, start);
  return Math.floor((start + end) / 2);
}

const damages: Record<string, (buf: Buffer) => Buffer> = {
  'one byte of the intent line set to NUL': (buf) => {
    buf[intentMiddle(buf)] = 0;
    return buf;
  },
  'random bytes in the middle': (buf) => {
    const mid = Math.floor(buf.length / 2);
    Buffer.from([0x7b, 0x9f, 0x22, 0x00, 0x3a, 0xe2, 0x5d, 0x31]).copy(buf, mid);
    return buf;
  },
  'a checksum that fails': (buf) => {
    const text = buf.toString('utf8');
    const at = text.indexOf('"sum":"') + 7;
    return Buffer.from(`${text.slice(0, at)}${text[at] === '0' ? '1' : '0'}${text.slice(at + 1)}`);
  },
  'bytes that are not UTF-8': (buf) => {
    const at = intentMiddle(buf);
    buf[at] = 0xff;
    buf[at + 1] = 0xfe;
    return buf;
  },
};

describe('a damaged order journal stops the desk', () => {
  for (const [name, damage] of Object.entries(damages)) {
    it(`${name}: exit 2 naming the file and the line, no second order`, async () => {
      const s = await submitted();
      writeFileSync(s.journal, damage(readFileSync(s.journal)));
      const again = await s.submit();
      expect(again.code, again.stderr).toBe(2);
      expect(again.stderr).toContain(`the order journal ${s.journal} is damaged at line`);
      expect(again.stderr).toMatch(/nothing was sent/);
      expect(ordersIn()).toHaveLength(s.before);
      // --allow-duplicate bids again on purpose, never past a journal that cannot be read.
      expect((await s.submit('--allow-duplicate')).code).toBe(2);
      expect(ordersIn()).toHaveLength(s.before);
    });
  }
});

describe('a journal that lost its lines: the marketplace is asked', () => {
  for (const [name, lose] of Object.entries({ emptied: (p: string) => writeFileSync(p, ''), deleted: (p: string) => rmSync(p) })) {
    it(`${name}: the same file is refused, naming the orders that hold its listings (exit 2)`, async () => {
      const s = await submitted();
      lose(s.journal);
      const again = await s.submit();
      expect(again.code, again.stderr).toBe(2);
      expect(again.stderr).toMatch(/refusing 2 bids that could place money twice; nothing was sent/);
      for (const id of s.ids)
        expect(again.stderr).toMatch(
          new RegExp(`bids\\.csv line \\d: listing ${id}: the marketplace shows a PENDING bid in order [0-9a-f-]{36}`),
        );
      expect(ordersIn()).toHaveLength(s.before);
    });
  }

  it('--skip-held places only the listings not held; --allow-duplicate bids again', async () => {
    const s = await submitted();
    rmSync(s.journal);
    const [extra] = fresh(1);
    writeFileSync(s.file, `listing_id,bid_amount\n${[...s.ids, extra].map((i) => `${i},25`).join('\n')}\n`);
    // What --skip-held left out is what was asked: said with --progress (or on a terminal).
    const skip = await s.submit('--skip-held', '--progress');
    expect(skip.code, skip.stderr).toBe(0);
    expect(skip.stderr).toMatch(/leaving out 2 bids on listings already held/);
    expect(ordersIn()).toHaveLength(s.before + 1);
    expect(
      ordersIn()
        .at(-1)!
        .bids.map((b) => b.listing_id),
    ).toEqual([extra]);
    // Everything held now: nothing to send is no failure for a cron job.
    const none = await s.submit('--skip-held', '--progress');
    expect(none.code, none.stderr).toBe(0);
    expect(none.stderr).toContain('every listing is already held: nothing was sent');
    expect(ordersIn()).toHaveLength(s.before + 1);
    const forced = await s.submit('--allow-duplicate');
    expect(forced.code, forced.stderr).toBe(0);
    expect(ordersIn()).toHaveLength(s.before + 2);
    expect((await s.submit('--skip-held', '--allow-duplicate')).code).toBe(2);
  });
});

describe('mkt order journal --check and --repair', () => {
  it('--check names the damaged line (exit 2); --repair keeps a copy, cuts, and records what the marketplace holds', async () => {
    const s = await submitted();
    const whole = readFileSync(s.journal);
    writeFileSync(s.journal, damages['one byte of the intent line set to NUL']!(Buffer.from(whole)));
    const check = await runMkt(['order', 'journal', '--check', '-o', 'json'], { env: mock.env, home: s.home });
    expect(check.code).toBe(2);
    expect(JSON.parse(check.stdout)).toEqual([expect.objectContaining({ file: s.journal, line: 1, fatal: true })]);

    // Showing the journal still works, and says what it left out.
    const shown = await runMkt(['order', 'journal', '-o', 'json'], { env: mock.env, home: s.home });
    expect(shown.code).toBe(0);
    expect(shown.stderr).toContain(`warning: ${s.journal} line 1: `);

    const repair = await runMkt(['order', 'journal', '--repair', '-o', 'json'], { env: mock.env, home: s.home });
    expect(repair.code, repair.stderr).toBe(0);
    const [cut] = JSON.parse(repair.stdout) as Array<{ copy: string; line: number }>;
    expect(cut!.line).toBe(1);
    expect(existsSync(cut!.copy)).toBe(true);
    expect(readFileSync(cut!.copy).length).toBe(whole.length);
    // Every order of the account with a pending bid is recorded (earlier tests' homes placed some for alice too).
    expect(repair.stderr).toContain(`order ${ordersIn()[s.before - 1]!.order_id} (2 bids, some PENDING) was not in the journal: recorded`);
    expect((await runMkt(['order', 'journal', '--check'], { env: mock.env, home: s.home })).code).toBe(0);

    // The journal holds the listings again, from what the marketplace said.
    const again = await s.submit();
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/listing \d+: already PENDING in order/);
    expect(ordersIn()).toHaveLength(s.before);
  });
});

describe('a crash mid-write', () => {
  it('kill -9 during --wait, then a torn last line: not fatal, the listings stay held, the next line is whole', async () => {
    const s = await submitted();
    const [a, b] = fresh(2);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: s.home,
      MKT_CONFIG_DIR: join(s.home, 'config'),
      MKT_STATE_DIR: join(s.home, 'state'),
      ...mock.env,
    };
    const child = spawn(process.execPath, [BIN, 'order', 'submit', '-', '--yes', '--wait', '--timeout', '30', '--progress'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const closed = new Promise((resolve) => child.on('close', resolve));
    child.stdin.end(`listing_id,bid_amount\n${a},25\n`);
    for (let i = 0; i < 100 && !/accepted/.test(err); i++) await new Promise((r) => setTimeout(r, 100));
    expect(err).toContain('accepted');
    child.kill('SIGKILL');
    await closed;
    appendFileSync(s.journal, '{"t":"outcome","at":"2026-06-01T12:00:00.000Z","order_id":"');

    const check = await runMkt(['order', 'journal', '--check', '-o', 'json'], { env: mock.env, home: s.home });
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toEqual([expect.objectContaining({ fatal: false })]);
    const again = await runMkt(['order', 'submit', '-', '--yes'], {
      env: mock.env,
      home: s.home,
      input: `listing_id,bid_amount\n${a},25\n${s.ids[0]},25\n`,
    });
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toMatch(/refusing 2 bids/);
    const fresher = await runMkt(['order', 'submit', '-', '--yes'], {
      env: mock.env,
      home: s.home,
      input: `listing_id,bid_amount\n${b},25\n`,
    });
    expect(fresher.code, fresher.stderr).toBe(0);
    // The torn tail was cut before the next entry was written: the journal reads whole.
    expect(JSON.parse((await runMkt(['order', 'journal', '--check', '-o', 'json'], { env: mock.env, home: s.home })).stdout)).toEqual([]);
    expect(ordersIn()).toHaveLength(s.before + 2);
  }, 30_000);
});
