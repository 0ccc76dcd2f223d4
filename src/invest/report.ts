/**
 * What an unattended `mkt invest run` leaves behind: a JSON line per run in a log file, the report
 * POSTed to a webhook, and the pings of a dead-man's switch (healthchecks.io's convention), so a
 * cron job that fails, or stops running, is noticed. Nothing here carries a credential: reports
 * hold decisions, order ids and amounts only, and hook URLs (which may embed a key) are never printed.
 */
import { createHash } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import { Agent, request } from '../api/undici.js';
import { UsageError } from '../errors.js';
import type { Decision } from './planner.js';

/** The report printed with -o json and sent to the webhook. */
export interface RunReport {
  decisions: Decision[];
  orders: string[];
  total_bid: number;
  dry_run: boolean;
  /** Why nothing was bid, in one line; null when something was (or the run failed before planning). */
  reason: string | null;
}

/** One line of --log. */
export interface LogLine {
  time: string;
  strategy_sha256: string;
  dry_run: boolean;
  /** Decisions counted by reason (`ok` for bids). */
  decisions: Record<string, number>;
  orders: string[];
  total_bid: number;
  exit_code: number;
  /** Why nothing was bid, when nothing was. */
  reason?: string;
  error?: string;
}

/** How long a webhook or a ping may take: a slow hook must not hold a cron slot. */
export const HOOK_TIMEOUT_MS = 10_000;
/** The most of the run's messages sent with a failure ping (healthchecks.io keeps 100 kB). */
const TAIL_BYTES = 10_000;

/** The sha256 of the strategy file's text: which version of the strategy a logged run used. */
export function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The --log line of a run. */
export function logLine(at: number, strategySha256: string, report: RunReport, exitCode: number, error?: string): LogLine {
  const decisions: Record<string, number> = {};
  for (const d of report.decisions) decisions[d.reason] = (decisions[d.reason] ?? 0) + 1;
  return {
    time: new Date(at).toISOString(),
    strategy_sha256: strategySha256,
    dry_run: report.dry_run,
    decisions,
    orders: report.orders,
    total_bid: report.total_bid,
    exit_code: exitCode,
    ...(report.reason !== null ? { reason: report.reason } : {}),
    ...(error !== undefined ? { error } : {}),
  };
}

/** Appends `line` to the log file as one JSON line (owner-only: it shows what the account bid). */
export async function appendLog(file: string, line: LogLine): Promise<void> {
  await appendFile(file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
}

/** Checks a --notify or --healthcheck value: an http(s) URL (exit 2 naming the flag otherwise). */
export function hookUrl(flag: string, text: string): URL {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UsageError(`${flag} must be an http or https URL, got '${text}'`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new UsageError(`${flag} must be an http or https URL, got a ${u.protocol} URL`);
  return u;
}

/** Where a hook points, for messages: the origin only, since the path or query may be the secret. */
export const hookName = (u: URL): string => u.origin;

/** POSTs `body` to `url` within the hook timeout; throws with a short reason when it fails or answers other than 2xx. */
export async function post(url: URL, body: string, contentType: string): Promise<void> {
  const agent = new Agent({
    connections: 1,
    headersTimeout: HOOK_TIMEOUT_MS,
    bodyTimeout: HOOK_TIMEOUT_MS,
    connect: { timeout: HOOK_TIMEOUT_MS },
  });
  try {
    const res = await request(agent, url, {
      method: 'POST',
      body,
      headers: { 'content-type': contentType, 'user-agent': 'mkt-invest' },
      signal: AbortSignal.timeout(HOOK_TIMEOUT_MS),
    });
    await res.body.dump();
    if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`HTTP ${res.statusCode}`);
  } finally {
    await agent.close().catch(() => undefined);
  }
}

/** A URL one path segment below `base` (healthchecks.io's /start and /fail), keeping its query. */
export function below(base: URL, segment: string): URL {
  const u = new URL(base);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/${segment}`;
  return u;
}

/** The last TAIL_BYTES of the run's messages, for the failure ping. */
export function tail(lines: readonly string[]): string {
  const text = lines.join('\n');
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= TAIL_BYTES ? text : bytes.subarray(bytes.length - TAIL_BYTES).toString('utf8');
}
