/**
 * The world's operations (mock-server/operations/): the typed `Operation` and the operation log's
 * record are one mapping both ways (operations/records.ts), so a log an earlier mock wrote (one-letter
 * keys) replays unchanged, a log written now is in that same format, and a record no mock wrote
 * (hostile or damaged) fails as an operation, never as the mock. Outside operations/ no route or
 * entry point changes the world but through `perform`, nor reads the operation log.
 */
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { DEFAULT_PROCESS_DELAY_MS } from '../mock-server/engine/engine.js';
import { frameRecord, LOG_HEADER, readLog } from '../mock-server/durability/log-file.js';
import type { OpRecord } from '../mock-server/durability/log-folder.js';
import { Secrets } from '../mock-server/kit/entropy.js';
import type { Operation } from '../mock-server/operations/operation.js';
import { replayOperation } from '../mock-server/operations/perform.js';
import { fromRecord, isOperationRecord, toRecord } from '../mock-server/operations/records.js';
import { inDir, logName } from '../mock-server/world/state-dir.js';
import { ordersOf } from '../mock-server/world/world-index.js';
import { LISTING_STATUS, READ_WRITE_SCOPES } from '../src/contract/enums.js';
import { call, makeApp, plainListings, START } from './engine-fixture.js';
import { validApplicant } from './fixtures/offers/applicants.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const open: MockApp[] = [];
afterEach(async () => {
  for (const a of open.splice(0)) await a.close?.().catch(() => undefined);
});

const RECIPE = { seed: 7, listings: 60 };
const app = (extra: Parameters<typeof makeApp>[0] = {}): MockApp => {
  const a = makeApp({ ...RECIPE, ...extra });
  open.push(a);
  return a;
};
const folder = (): string => join(mkdtempSync(join(tmpdir(), 'mkt-ops-')), 'world');
const TOKEN_FORM = (key: string): string => `grant_type=authorization_key&client_id=mkt-demo&client_secret=mkt-demo-secret&auth_key=${key}`;
const bids = (listing: number): string => JSON.stringify({ bid_requests: [{ listing_id: listing, bid_amount: 25 }] });

/** Three active listings of the seeded world both tests run on (the same seed and start). */
function threeListings(): number[] {
  const listings = plainListings(app(), 0)
    .slice(0, 3)
    .map((l) => l.listing_number);
  expect(listings).toHaveLength(3);
  return listings;
}

/** The records of each kind, as an earlier mock wrote them (field for field, in its order), at START + i seconds. */
function oldRecords(listings: number[], offersBody: unknown): OpRecord[] {
  const [l1, l2, l3] = listings as [number, number, number];
  return [
    { t: START + 1000, k: 'grant', c: 'mkt-demo', a: 'alice-1', sc: [...READ_WRITE_SCOPES], s: ['KEY-1'] },
    { t: START + 2000, k: 'token', f: TOKEN_FORM('KEY-1'), s: ['ACCESS-1', 'REFRESH-1'] },
    { t: START + 3000, k: 'order', a: 'alice-1', b: bids(l1) },
    { t: START + 4000, k: 'order', a: 'alice-1', b: bids(l2), d: 600_000 },
    { t: START + 5000, k: 'process' },
    { t: START + 6000, k: 'listing', n: l3, action: 'withdraw' },
    { t: START + 7000, k: 'offers', b: offersBody, o: 'http://old.test' },
    { t: START + 8000, k: 'outbox-clear' },
    { t: START + 9000, k: 'time' },
  ];
}

describe('the operation log format, both ways', () => {
  test('a log an earlier mock wrote (one-letter keys) replays: keys, tokens, orders with their delays, the listing, the offers, the outbox', async () => {
    const listings = threeListings();
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    const records: OpRecord[] = [{ t: START, k: 'base', from: 'seed', recipe: RECIPE }, ...oldRecords(listings, validApplicant())];
    writeFileSync(inDir(dir, logName(1)), Buffer.concat([LOG_HEADER, ...records.map((r) => frameRecord(Buffer.from(JSON.stringify(r))))]));

    const mock = app({ stateFile: dir });
    const { world, clock } = mock.ctx;
    expect(clock.now()).toBe(START + 9000);
    expect(world.grants.find((g) => g.clientId === 'mkt-demo' && g.accountId === 'alice-1')?.authKey).toBe('KEY-1');
    expect([world.tokens.get('ACCESS-1')?.kind, world.tokens.get('REFRESH-1')?.kind]).toEqual(['access', 'refresh']);
    const placed = ordersOf(world, 'alice-1').filter((o) => o.order_date >= START);
    expect(placed.map((o) => [o.bids[0]!.listing_id, o.processAt - o.order_date, o.processed])).toEqual([
      [listings[0], DEFAULT_PROCESS_DELAY_MS, true],
      [listings[1], 600_000, true],
    ]);
    expect(world.listingByNumber.get(listings[2]!)!.listing_status).toBe(LISTING_STATUS.WITHDRAWN);
    expect([...world.offerRecords.values()].map((r) => [r.createdAt, r.offers.length > 0])).toEqual([[START + 7000, true]]);
    expect(world.outbox.messages).toEqual([]);
    // The replayed token is the one the client holds.
    expect((await call(mock, 'GET', '/v1/accounts/platform', { token: 'ACCESS-1' })).status).toBe(200);
  });

  test('a log written now is in that same format, field for field and in the same order', async () => {
    const listings = threeListings();
    const dir = folder();
    const live = app({ stateFile: dir });
    const at = (t: number): void => {
      live.ctx.clock.set(t);
    };
    const [l1, l2, l3] = listings as [number, number, number];
    at(START + 1000);
    const key = live.ctx.perform({ kind: 'grant', client: 'mkt-demo', account: 'alice-1', scopes: READ_WRITE_SCOPES }).authKey;
    at(START + 2000);
    const tokens = live.ctx.perform({ kind: 'token', form: TOKEN_FORM(key) });
    at(START + 3000);
    live.ctx.perform({ kind: 'order', account: 'alice-1', body: bids(l1), delayMs: DEFAULT_PROCESS_DELAY_MS });
    at(START + 4000);
    live.ctx.perform({ kind: 'order', account: 'alice-1', body: bids(l2), delayMs: 600_000 });
    at(START + 5000);
    live.ctx.perform({ kind: 'process' });
    at(START + 6000);
    live.ctx.perform({ kind: 'listing', listing: l3, action: 'withdraw' });
    at(START + 7000);
    live.ctx.perform({ kind: 'offers', body: validApplicant(), origin: 'http://old.test' });
    at(START + 8000);
    live.ctx.perform({ kind: 'outbox-clear' });
    await live.ctx.durability.durable();

    const written = readLog(inDir(dir, logName(1)))
      .payloads.slice(1)
      .map((p) => p.toString('utf8'));
    // The earlier mock's records, with the secrets this run drew in place of the ones it drew, and no time mark (not an operation).
    const secrets: Record<string, string[]> = { grant: [key], token: [tokens.access_token, tokens.refresh_token] };
    const expected = oldRecords(listings, validApplicant())
      .filter((r) => r.k !== 'time')
      .map((r) => JSON.stringify(r.k === 'token' ? { ...r, f: TOKEN_FORM(key), s: secrets.token } : r.s ? { ...r, s: secrets[r.k] } : r));
    expect(written).toEqual(expected);
  });

  const operation: fc.Arbitrary<Operation> = fc.oneof(
    fc.record({
      kind: fc.constant('order' as const),
      account: fc.string(),
      body: fc.string(),
      delayMs: fc.oneof(fc.constant(DEFAULT_PROCESS_DELAY_MS), fc.nat()),
    }),
    fc.constant({ kind: 'process' as const }),
    fc.record({ kind: fc.constant('listing' as const), listing: fc.integer(), action: fc.string() }),
    fc.record({ kind: fc.constant('add-listing' as const), fields: fc.jsonValue() }),
    fc.constant({ kind: 'outbox-clear' as const }),
    fc.record({ kind: fc.constant('grant' as const), client: fc.string(), account: fc.string(), scopes: fc.array(fc.string()) }),
    fc.record({ kind: fc.constant('token' as const), form: fc.string() }),
    fc.record({ kind: fc.constant('offers' as const), body: fc.jsonValue(), origin: fc.string() }),
  );
  const viaJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

  test('any operation read back from its record, as JSON on disk, is the operation (secrets and time beside it)', () => {
    fc.assert(
      fc.property(operation, fc.nat(), fc.array(fc.string(), { maxLength: 3 }), (op, t, drawn) => {
        const record = viaJson(toRecord(op, t, drawn));
        expect(record.t).toBe(t);
        expect(record.s).toEqual(drawn.length > 0 ? drawn : undefined);
        expect(isOperationRecord(record)).toBe(true);
        expect(fromRecord(record as OpRecord & { k: Operation['kind'] })).toEqual(viaJson(op));
      }),
    );
  });
});

describe('a record no mock wrote', () => {
  const world = (): MockApp => app({ listings: 20 });
  const field = fc.oneof(fc.jsonValue(), fc.constant(undefined));

  test('of a known kind with any fields fails as the operation, never as the mock', () => {
    const a = world();
    const kinds = ['order', 'process', 'listing', 'add-listing', 'outbox-clear', 'grant', 'token', 'offers'];
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.dictionary(fc.constantFrom('a', 'b', 'd', 'n', 'action', 'c', 'sc', 'f', 'o'), field),
        (k, fields) => {
          const record = { ...fields, t: a.ctx.clock.now(), k } as OpRecord;
          expect(replayOperation(a.ctx, record, Secrets.replaying(undefined))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('of a kind this mock does not know is refused, the world untouched', () => {
    const a = world();
    const before = a.ctx.engine.version;
    for (const k of ['time', 'clock', 'base', 'toString', '__proto__', 'constructor', 'refund']) {
      expect(replayOperation(a.ctx, { t: START, k }, Secrets.replaying(undefined))).toBe(false);
    }
    expect(a.ctx.engine.version).toBe(before);
  });
});

describe('one way in', () => {
  /** What changes the world outside an operation's apply: the services' and the engine's changers, and the log itself. */
  const CHANGERS = [
    'approveGrant',
    'tokenGrant',
    'answerOffersRequest',
    'submitOrder',
    'processQueued',
    'processOrder',
    'endListing',
    'addChosenListing',
    'clearOutbox',
    'operationLog',
    'opLog',
  ];
  const files = (dir: string): string[] => readdirTs(join(ROOT, 'mock-server', dir));

  test('no route, webhook or entry point calls them: a writing route goes through perform', () => {
    const scanned = [
      ...files('routes'),
      ...files('webhooks'),
      ...files('proxy'),
      ...['app.ts', 'http-adapter.ts', 'describe.ts'].map((f) => join(ROOT, 'mock-server', f)),
    ];
    const found = scanned.flatMap((f) => {
      const code = readFileSync(f, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      return CHANGERS.filter((name) => new RegExp(`\\b${name}\\b`).test(code)).map((name) => `${relative(ROOT, f)}: ${name}`);
    });
    expect(scanned.length).toBeGreaterThan(20);
    expect(found).toEqual([]);
  });
});

function readdirTs(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.ts'))
    .map((n) => join(dir, n));
}
