import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_WRITE_SCOPES } from '../src/contract/enums.js';
import { OFFER_ASSERTIONS, OFFER_ERRORS } from '../src/contract/errors.js';
import { lineColumn, locateJsonError } from '../src/input.js';
import type { Io } from '../src/io.js';
import { main } from '../src/main.js';
import { applicantWith, FIXTURES } from './fixtures/offers/applicants.js';
import { CASES } from './fixtures/offers/cases.js';
import { money, percent } from '../src/output/columns.js';
import { runMkt } from './helpers/cli.js';
import { startMock, TEST_START, type TestMock } from './helpers/mock.js';

const ROOT = resolve(import.meta.dirname, '..');
const TOKEN = 'offers-test-token';
const fx = (name: string): string => join(FIXTURES, name);

/** Builds dist/ and its bundles when missing or older than a source file, so the spawned bin runs this code. */
function ensureBuilt(): void {
  const newest = (dir: string): number =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .reduce((m, f) => Math.max(m, statSync(join(dir, f)).mtimeMs), 0);
  let built = 0;
  try {
    built = statSync(join(ROOT, 'dist/bundle/main.cjs')).mtimeMs;
  } catch {
    /* not built yet */
  }
  if (built < newest(join(ROOT, 'src'))) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
      cwd: ROOT,
      timeout: 120_000,
    });
    // The bin runs the bundles (scripts/bundle.mjs), not dist/src.
    execFileSync(process.execPath, [join(ROOT, 'scripts/bundle.mjs')], { cwd: ROOT, timeout: 120_000 });
  }
}

let mock: TestMock;
let env: Record<string, string>;
let requests = 0;

beforeAll(async () => {
  ensureBuilt();
  mock = await startMock({ listings: 50 });
  // A real access token in the mock's world, so the tests do not lean on any fallback of the auth code.
  mock.app.ctx.world.tokens.set(TOKEN, {
    value: TOKEN,
    kind: 'access',
    clientId: 'mkt-demo',
    accountId: 'alice-1',
    scopes: [...READ_WRITE_SCOPES],
    expiresAt: TEST_START + 3_600_000,
    authKey: 'offers-test-key',
  });
  const handle = mock.app.handle.bind(mock.app);
  mock.app.handle = (request) => {
    if (new URL(request.url).pathname.includes('/marketplace/application/offers')) requests++;
    return handle(request);
  };
  env = { ...mock.env, MKT_ACCESS_TOKEN: TOKEN };
}, 120_000);

afterAll(async () => {
  await mock?.close();
});

/** Runs main() in this process with captured streams. */
async function runInProcess(args: string[], extraEnv: Record<string, string> = {}, input = '') {
  let out = '';
  let err = '';
  const stdout = new PassThrough().setEncoding('utf8').on('data', (d: string) => (out += d));
  const stderr = new PassThrough().setEncoding('utf8').on('data', (d: string) => (err += d));
  const io: Io = {
    stdout,
    stderr,
    stdin: Readable.from([input]),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    env: { ...env, ...extraEnv },
    sleep: async () => undefined,
    now: () => Date.now(),
    stopSignal: () => new Promise(() => undefined),
  };
  const code = await main(args, io);
  return { code, stdout: out, stderr: err };
}

const tmp = mkdtempSync(join(tmpdir(), 'mkt-offers-'));
function writeApplicant(name: string, body: unknown): string {
  const path = join(tmp, name);
  writeFileSync(path, JSON.stringify(body, null, 2));
  return path;
}

describe('mkt offers request renders every code with its meaning', () => {
  it.each(CASES)('%s', async (what, changes, errors, assertions) => {
    const file = writeApplicant(`${what.replace(/\W+/g, '-')}.json`, applicantWith(changes));
    const r = await runInProcess(['offers', 'request', file, '-o', 'table']);
    expect(r.code).toBe(4);
    for (const code of errors) {
      expect(r.stdout).toContain(`${code} `);
      expect(r.stdout).toContain(OFFER_ERRORS[code]!.message);
    }
    for (const code of assertions) {
      expect(r.stdout).toContain(code);
      expect(r.stdout).toContain(OFFER_ASSERTIONS[code]);
    }
    expect(r.stderr).toContain(`${errors.length} error(s), ${assertions.length} assertion(s)`);
  });
});

describe('mkt offers request (the built binary against the mock)', () => {
  it('prints a table of offers and exits 0', async () => {
    const r = await runMkt(['offers', 'request', fx('valid.json'), '-o', 'table'], { env });
    expect(r.stderr).toMatch(/referral code (\w+)/);
    expect(r.code).toBe(0);
    const code = /referral code (\w+)/.exec(r.stderr)![1]!;
    const record = mock.app.ctx.world.offerRecords.get(code)!;
    for (const header of ['term', 'amount', 'rate', 'apr', 'monthly_payment', 'url']) expect(r.stdout).toContain(header);
    for (const o of record.offers) {
      expect(r.stdout).toContain(`${o.loan_term_in_months} months`);
      expect(r.stdout).toContain(money(o.monthly_payment));
      expect(r.stdout).toContain(percent(o.apr));
      expect(r.stdout).toContain(o.offer_url);
    }
    expect(record.offers.map((o) => o.loan_term_in_months)).toEqual(expect.arrayContaining([36, 60]));
  });

  it('prints the response unchanged with -o json, and its links open an HTML page', async () => {
    const r = await runMkt(['offers', 'request', fx('valid.json'), '-o', 'json'], { env });
    expect(r.code).toBe(0);
    const response = JSON.parse(r.stdout);
    const record = mock.app.ctx.world.offerRecords.get(response.referral_code)!;
    expect(response).toEqual({
      referral_code: record.referralCode,
      offers_url: `${mock.origin}/apply/offers/${record.referralCode}`,
      identification: { client_reference_id: 'campaign-2026-spring', partner_source_code: 'PARTNER-DEMO' },
      offers: record.offers,
      errors: [],
    });
    const page = await fetch(response.offers[0].offer_url, { signal: AbortSignal.timeout(5000) });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`Offer ${response.offers[0].id}`);
  });

  it('prints every error and assertion of the several-problems file and exits 4', async () => {
    const r = await runMkt(['offers', 'request', fx('several-problems.json'), '-o', 'json'], { env });
    expect(r.code).toBe(4);
    const response = JSON.parse(r.stdout);
    expect(response.errors.map((e: { code: string }) => e.code)).toEqual(['MKTPL-1012', 'MKTPL-1006']);
    const table = await runMkt(['offers', 'request', fx('several-problems.json'), '-o', 'table'], { env });
    expect(table.code).toBe(4);
    for (const a of response.errors[0].assertions) {
      expect(table.stdout).toContain(a.code);
      expect(table.stdout).toContain(OFFER_ASSERTIONS[a.code]);
    }
    expect(table.stdout).toContain(OFFER_ERRORS['MKTPL-1006']!.message);
  });

  it('reads stdin with "-" and fills the partner code from MKT_PARTNER_CODE', async () => {
    const body = applicantWith({ 'identification.partner_source_code': undefined });
    const r = await runMkt(['offers', 'request', '-', '-o', 'json'], {
      env: { ...env, MKT_PARTNER_CODE: 'PARTNER-DEMO' },
      input: JSON.stringify(body),
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).identification.partner_source_code).toBe('PARTNER-DEMO');
  });

  it('lets --partner-code override the file and MKT_PARTNER_CODE; a refused code exits 3 and names the flag', async () => {
    const r = await runMkt(['offers', 'request', fx('valid.json'), '--partner-code', 'PARTNER-EXPIRED'], {
      env: { ...env, MKT_PARTNER_CODE: 'PARTNER-DEMO' },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('MKTPL-1004');
    expect(r.stderr).toContain('--partner-code');
    expect(r.stdout).toBe('');
  });

  it('exits 3 with MKTPL-1001 when no partner code is given anywhere', async () => {
    const file = writeApplicant('no-code.json', applicantWith({ 'identification.partner_source_code': undefined }));
    const r = await runMkt(['offers', 'request', file], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('MKTPL-1001');
  });

  it.each([
    ['malformed JSON, naming line and column', 'malformed.json', 'line 4, column 42'],
    ['missing required objects, naming them', 'missing-objects.json', 'address_info, contact_info, employment_info'],
  ])('exits 2 and sends nothing for %s', async (_what, name, message) => {
    const before = requests;
    const r = await runMkt(['offers', 'request', fx(name)], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
    expect(requests).toBe(before);
  });

  it('exits 2 and sends nothing for a client_reference_id over 255 characters or a missing file', async () => {
    const before = requests;
    const file = writeApplicant('long-ref.json', applicantWith({ 'identification.client_reference_id': 'x'.repeat(256) }));
    const long = await runInProcess(['offers', 'request', file]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('client_reference_id');
    const missing = await runInProcess(['offers', 'request', join(tmp, 'no-such-file.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('ENOENT');
    expect(requests).toBe(before);
  });
});

describe('locating a JSON fault', () => {
  it.each([
    ['a trailing comma', '{\n  "a": 1,\n}', 3, 1, 'property name'],
    ['a missing comma', '{\n  "a": 1\n  "b": 2\n}', 3, 3, "expected ',' or '}'"],
    ['a line break inside a string', '{\n  "a": "abc\n}', 2, 12, 'control character in string'],
    ['a string never closed', '{"a": "abc', 1, 11, 'unterminated string'],
    ['a bare word', '{"a": abc}', 1, 7, 'unexpected "a"'],
    ['nothing at all', '', 1, 1, 'end of input'],
    ['text after the value', '{}\n x', 2, 2, 'after JSON'],
    ['a bad escape', '{"a": "\\q"}', 1, 9, 'escaped character'],
    ['a word past a long string', `{"a": "${'y'.repeat(100)}", "b": x}`, 1, 116, 'unexpected "x"'],
    ['a character outside the BMP', '{"a": 1,\n "b": \u{1F600}}', 2, 7, 'unexpected "\u{1F600}"'],
    ['a fault under deep nesting', `${'['.repeat(100_000)}x`, 1, 100_001, 'unexpected "x"'],
  ])('finds %s', (_what, text, line, column, problem) => {
    expect(() => JSON.parse(text)).toThrow();
    const fault = locateJsonError(text);
    expect(lineColumn(text, fault.offset)).toEqual({ line, column });
    expect(fault.problem).toContain(problem);
  });
});
