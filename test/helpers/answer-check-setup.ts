/**
 * Vitest setup of every test file: every mock the file starts (in-process, over HTTP, or a spawned
 * `mkt mock serve` / `mkt demo`, which inherit MKT_MOCK_CHECK_ANSWERS) checks each answer it sends
 * against the OpenAPI document (mock-server/http/answer-check.ts) and appends mismatches to this file's
 * own log; after the file's tests, any mismatch fails the file, printed.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const log = join(mkdtempSync(join(tmpdir(), 'mkt-answers-')), 'violations.ndjson');
process.env.MKT_MOCK_CHECK_ANSWERS = log;

afterAll(() => {
  if (!existsSync(log)) return;
  const lines = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l !== '');
  if (lines.length === 0) return;
  const shown = lines
    .slice(0, 20)
    .map((l) => `  ${l}`)
    .join('\n');
  throw new Error(`the mock sent ${lines.length} answer(s) that do not match its OpenAPI document (${log}):\n${shown}`);
});
