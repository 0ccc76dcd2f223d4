/**
 * Calls to the bundled mock's admin routes (/__mock/*): the clock and its move, the request log, the
 * outbox and the named snapshots. The admin token, when given, goes as Authorization so that --verbose traces redact it.
 */
import type { RequestLogEntry, OutboxMessage } from '../contract/mock-inspect.js';
import { mockAdminUrl } from '../contract/mock-admin.js';
import { SNAPSHOT_PAGE, type SnapshotEntry, type SnapshotLoaded } from '../contract/mock-snapshots.js';
import { errorFromResponse } from './errors.js';
import type { HttpClient, HttpRequest } from './http.js';

/** Where the mock runs and how to reach its admin routes. */
export interface MockAdminTarget {
  http: HttpClient;
  rootUrl: string;
  /** The admin token of a mock bound off loopback. */
  adminToken?: string | undefined;
}

/** A page of a list route. */
export interface ListPage<T> {
  result: T[];
  result_count: number;
  total_count: number;
}

/** One admin call; a status other than 200 is the API error it maps to, naming `doing`. */
export async function mockAdminCall(
  to: MockAdminTarget,
  method: HttpRequest['method'],
  route: string,
  doing: string,
  extra: Pick<HttpRequest, 'json' | 'query' | 'timeoutMs'> = {},
): Promise<unknown> {
  const headers = to.adminToken ? { authorization: `Bearer ${to.adminToken}` } : undefined;
  const res = await to.http.send({ method, url: mockAdminUrl(to.rootUrl, route), ...extra, ...(headers ? { headers } : {}) });
  if (res.status !== 200) throw errorFromResponse(res.status, res.data, doing);
  return res.data;
}

/** GET /__mock/requests: newest first; `since` for the entries after an id. */
export async function listRequests(to: MockAdminTarget, query: URLSearchParams): Promise<ListPage<RequestLogEntry>> {
  return (await mockAdminCall(to, 'GET', 'requests', "reading the mock's request journal", { query })) as ListPage<RequestLogEntry>;
}

/** GET /__mock/outbox: newest first, filtered by `to` and `order_id` when given. */
export async function listOutbox(to: MockAdminTarget, query: URLSearchParams): Promise<ListPage<OutboxMessage>> {
  return (await mockAdminCall(to, 'GET', 'outbox', "reading the mock's outbox", { query })) as ListPage<OutboxMessage>;
}

/** What the mock answers to a clock move. */
export interface ClockMove {
  now: string;
  moved_ms: number;
}

/** A clock move under way, as GET /__mock/clock shows it. */
export interface ClockMoveProgress {
  from: string;
  to: string;
  days: number;
  days_done: number;
}

/** GET /__mock/clock: the clock and the move under way, if any. */
export interface ClockState {
  now: string;
  frozen: boolean;
  move: ClockMoveProgress | null;
}

/** POST /__mock/clock: answers once the whole move is made, however long it takes (no answer timeout). */
export async function moveClock(to: MockAdminTarget, advance: string): Promise<ClockMove> {
  return (await mockAdminCall(to, 'POST', 'clock', 'moving the mock clock', { json: { advance }, timeoutMs: 0 })) as ClockMove;
}

/** POST /__mock/process: every queued order processed now, the clock left where it is; how many there were. */
export async function processQueued(to: MockAdminTarget): Promise<{ processed: number }> {
  return (await mockAdminCall(to, 'POST', 'process', "processing the mock's queued orders")) as { processed: number };
}

/** GET /__mock/clock. */
export async function readClock(to: MockAdminTarget): Promise<ClockState> {
  return (await mockAdminCall(to, 'GET', 'clock', "reading the mock's clock")) as ClockState;
}

/** GET /__mock/snapshots: every named snapshot, by name (one page of the largest size). */
export async function listSnapshots(to: MockAdminTarget): Promise<ListPage<SnapshotEntry>> {
  return (await mockAdminCall(to, 'GET', 'snapshots', "listing the mock's snapshots", {
    query: new URLSearchParams({ limit: String(SNAPSHOT_PAGE.max) }),
  })) as ListPage<SnapshotEntry>;
}

/** POST /__mock/snapshots: saves the world as `name` (a 409 when taken, unless `replace`). No answer timeout: a large world takes a while. */
export async function saveSnapshot(to: MockAdminTarget, name: string, replace: boolean): Promise<SnapshotEntry> {
  return (await mockAdminCall(to, 'POST', 'snapshots', `saving snapshot '${name}'`, {
    json: { name, ...(replace ? { replace } : {}) },
    timeoutMs: 0,
  })) as SnapshotEntry;
}

/**
 * POST /__mock/snapshots/NAME/load: the snapshot replaces the world, at its saved time (the clock goes back with it), or with
 * `keepClock` brought forward to the clock.
 */
export async function loadSnapshot(to: MockAdminTarget, name: string, keepClock = false): Promise<SnapshotLoaded> {
  return (await mockAdminCall(to, 'POST', `snapshots/${encodeURIComponent(name)}/load`, `loading snapshot '${name}'`, {
    timeoutMs: 0,
    ...(keepClock ? { json: { keep_clock: true } } : {}),
  })) as SnapshotLoaded;
}

/** DELETE /__mock/snapshots/NAME. */
export async function deleteSnapshot(to: MockAdminTarget, name: string): Promise<{ deleted: string }> {
  return (await mockAdminCall(to, 'DELETE', `snapshots/${encodeURIComponent(name)}`, `deleting snapshot '${name}'`)) as { deleted: string };
}
