/**
 * The OpenAPI document (src/contract/openapi/): a valid OpenAPI 3.1 document, true to the field
 * catalogue and to the mock's routes, served at /openapi.json and printed by `mkt mock openapi`; and
 * the answer check that holds the mock to it (mock-server/http/answer-check.ts) records what does not match.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { http, HttpHandler } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerChecker, type Violation } from '../mock-server/http/answer-check.js';
import { createMockApp, type MockApp } from '../mock-server/app.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { BUREAU2_ELEMENTS } from '../src/contract/bureau.js';
import { filterParamNames } from '../src/contract/listing-filters.js';
import { LISTING_FIELDS } from '../src/contract/listing-fields.js';
import { buildOpenApiDocument } from '../src/contract/openapi/document.js';
import { runMkt } from './helpers/cli.js';
import { loadedBy } from './helpers/loaded-modules.js';
import { issueTestToken, TEST_START, testMockApp } from './helpers/mock.js';

type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;
/** Records the modules a process loads (test/helpers/record-modules.mjs). */
const RECORDER = new URL('./helpers/record-modules.mjs', import.meta.url).href;
const op = (path: string, method: string): Json => doc.paths[path][method];

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every route the mock serves, and no route it does not', () => {
    const app = testMockApp({ listings: 5, frozen: true, start: TEST_START });
    const key = (method: string, path: string) =>
      `${method.toUpperCase()} ${path
        .replace(/^\*/, '')
        .replace(/\/$/, '')
        .replace(/(:\w+|\{\w+\})/g, '{}')
        .toLowerCase()}`;
    const served = app.handlers
      .filter((h): h is HttpHandler => h instanceof HttpHandler)
      .map((h) => key(String(h.info.method), String(h.info.path)));
    const documented = Object.entries(doc.paths as Json).flatMap(([path, ops]) => Object.keys(ops).map((m) => key(m, path)));
    expect(new Set(documented)).toEqual(new Set(served));
    expect(documented).toHaveLength(served.length);
  });

  it('tags the admin routes mock-admin, with no token scheme but the admin token', () => {
    for (const [path, ops] of Object.entries(doc.paths as Json)) {
      for (const o of Object.values(ops as Json)) {
        expect(o.tags.includes('mock-admin')).toBe(path.startsWith('/__mock/'));
        if (path.startsWith('/__mock/')) expect(o.security).toEqual([{}, { adminToken: [] }, { adminTokenHeader: [] }]);
      }
    }
  });

  it("asks for the spec's scopes: read_listing to search, write_invest_order to order, either order scope to read orders", () => {
    expect(op('/listingsvc/v2/listings/', 'get').security).toEqual([{ platformAuth: ['read_listing'] }]);
    expect(op('/v1/orders/', 'post').security).toEqual([{ platformAuth: ['write_invest_order'] }]);
    expect(op('/v1/orders/{order_id}', 'get').security).toEqual([
      { platformAuth: ['read_invest_order'] },
      { platformAuth: ['write_invest_order'] },
    ]);
    expect(op('/v1/security/oauth/token', 'post').security).toEqual([]);
    expect(Object.keys(doc.components.securitySchemes.platformAuth.flows.authorizationCode.scopes)).toHaveLength(8);
  });

  it('has the whole listing catalogue, each field with the type the catalogue gives it', () => {
    const listing = doc.components.schemas.Listing as Json;
    expect(Object.keys(listing.properties).sort()).toEqual([...LISTING_FIELDS.map((f) => f.name), 'invested', 'biddable'].sort());
    expect(listing.additionalProperties).toBe(false);
    const typeOf = (s: Json): string => {
      const one = s.anyOf ? s.anyOf.find((x: Json) => x.type !== 'null') : s;
      if (one.$ref) return 'object';
      if (one.format === 'date') return 'date';
      if (one.pattern?.includes(' ')) return 'datetime';
      return ({ number: 'decimal', integer: 'integer', string: 'string', boolean: 'boolean', object: 'object' } as Json)[one.type];
    };
    for (const f of LISTING_FIELDS) expect([f.name, typeOf(listing.properties[f.name])]).toEqual([f.name, f.type]);
    for (const f of LISTING_FIELDS) expect(listing.properties[f.name].description ?? '').not.toBe('');
  });

  it('gives the search every filter of the catalogue as a parameter, with its kind and bounds', () => {
    const params = op('/listingsvc/v2/listings/', 'get').parameters as Json[];
    const byName = new Map(params.filter((p) => p.name).map((p) => [p.name, p]));
    for (const name of filterParamNames()) expect(byName.has(name), name).toBe(true);
    expect(byName.get('platform_rating')).toMatchObject({
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { enum: expect.arrayContaining(['AA', 'HR']) } },
    });
    expect(byName.get('has_mortgage')!.schema).toEqual({ type: 'boolean' });
    expect(byName.get('borrower_rate_min')!.schema).toEqual({ type: 'number', minimum: 0 });
    expect(byName.get('listing_end_date_max')!.schema.pattern).toBeDefined();
    const at02s = BUREAU2_ELEMENTS.find((e) => e.short === 'at02s')!;
    expect(byName.get('at02s_min')!.schema).toEqual({ type: 'integer', minimum: at02s.special!.value, maximum: at02s.max });
    // A larger limit is clamped, not refused (investpeer-prosper-py sends limit=5000): no maximum to fail a request on.
    expect(byName.get('limit')).toMatchObject({
      description: expect.stringMatching(/at most 500: a larger limit is taken and clamped to 500/),
      schema: { type: 'integer', minimum: 1, default: 25 },
    });
    expect(byName.get('limit')!.schema).not.toHaveProperty('maximum');
    for (const control of [
      'offset',
      'sort_by',
      'biddable',
      'invested',
      'whole_loan',
      'exclude_co_borrower_application',
      'include_credit_bureau_values',
    ]) {
      expect(byName.has(control), control).toBe(true);
    }
  });

  it('names every order error with its status', () => {
    const post = op('/v1/orders/', 'post').responses as Json;
    const codes = (status: number): string[] => post[status].content['application/json'].schema.allOf[1].properties.code.enum;
    expect(codes(400)).toEqual(expect.arrayContaining(['ORD0005', 'ORD0021', 'ORD0042', 'VAL0001']));
    expect(codes(404)).toEqual(['ORD0003']);
    expect(codes(500)).toEqual(expect.arrayContaining(['ORD0025', 'SYS0001']));
  });
});

describe('GET /openapi.json and mkt mock openapi', () => {
  let app: MockApp;
  let server: RunningServer;
  beforeAll(async () => {
    app = testMockApp({ listings: 5, frozen: true, start: TEST_START });
    server = await startHttpServer(app, '127.0.0.1', 0);
  });
  afterAll(async () => {
    await server.close();
  });

  it("is served without a token, with the mock's own origin as its server", async () => {
    const res = await fetch(`${server.origin}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const served = (await res.json()) as Json;
    expect(served.servers).toEqual([{ url: server.origin, description: expect.any(String) }]);
    expect({ ...served, servers: doc.servers }).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('mkt mock openapi prints the document as JSON, whatever the output format', async () => {
    const run = await runMkt(['mock', 'openapi', '-o', 'table']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});

describe('start-up', () => {
  it('mkt --help loads neither TypeBox nor ajv; mkt mock openapi does load TypeBox (the recorder sees it)', async () => {
    // With an option before it, help is commander's live answer, not a text kept by the build (bin/help-cache.cjs).
    const help = await loadedBy(['--verbose', '--help']);
    expect(help.modules).toContain('src/cli');
    expect(help.modules.filter((m) => /typebox|^ajv/.test(m))).toEqual([]);
    const openapi = await loadedBy(['mock', 'openapi']);
    expect(openapi.modules).toContain('@sinclair/typebox');
    expect(openapi.modules.filter((m) => /^ajv/.test(m))).toEqual([]);
  });
});

describe('the answer check', () => {
  /** A mock checking into its own log (not the suite's, which would fail this file), and that log read back. */
  function checked(): { app: MockApp; violations: () => Violation[] } {
    const file = join(mkdtempSync(join(tmpdir(), 'mkt-check-')), 'violations.ndjson');
    const app = createMockApp({ listings: 20, frozen: true, start: TEST_START, checkAnswers: file });
    const violations = () =>
      existsSync(file)
        ? readFileSync(file, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as Violation)
        : [];
    return { app, violations };
  }

  it('loads the checker at the first answer, not when the mock is made (a mock made and dropped loads nothing after its test)', async () => {
    const app = new URL('../dist/mock-server/app.js', import.meta.url).href;
    const loads = async (answer: boolean): Promise<string[]> => {
      const dir = mkdtempSync(join(tmpdir(), 'mkt-check-load-'));
      const out = join(dir, 'modules.txt');
      const script = `const { createMockApp } = await import(${JSON.stringify(app)});
        const app = createMockApp({ listings: 5, frozen: true, start: ${TEST_START}, checkAnswers: ${JSON.stringify(join(dir, 'v.ndjson'))} });
        ${answer ? "await app.handle(new Request('http://mock.test/v1/nothing-here'));" : ''}
        await new Promise((r) => setTimeout(r, 300));`;
      const run = spawnSync(process.execPath, ['--import', RECORDER, '--input-type=module', '-e', script], {
        env: { ...process.env, MKT_RECORD_MODULES: out },
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      return readFileSync(out, 'utf8')
        .split('\n')
        .filter((l) => /answer-check|\/ajv\//.test(l));
    };
    expect(await loads(false)).toEqual([]);
    expect((await loads(true)).some((l) => /http\/answer-check/.test(l))).toBe(true);
  });

  it('records nothing for answers that match the document, a failure included', async () => {
    const { app, violations } = checked();
    const token = issueTestToken(app);
    const auth = { authorization: `bearer ${token}` };
    for (const path of [
      '/v1/accounts/platform',
      '/listingsvc/v2/listings/?limit=3',
      '/v1/loans/',
      '/v1/orders/',
      '/v1/orders/nope',
      '/v1/nothing-here',
    ]) {
      await app.handle(new Request(`http://mock.test${path}`, { headers: auth }));
    }
    await app.handle(new Request('http://mock.test/v1/accounts/platform'));
    expect(violations()).toEqual([]);
  });

  it("records an answer of the wrong shape: where, what, and ajv's errors", async () => {
    const { app, violations } = checked();
    const token = issueTestToken(app);
    const account = () =>
      app.handle(new Request('http://mock.test/v1/accounts/platform', { headers: { authorization: `bearer ${token}` } }));
    // A test-only route in front of the real one: the real account with a field of the wrong type and an unknown one.
    const wrong = { ...((await (await account()).json()) as Json), available_cash_balance: 'lots', surprise: 1 };
    app.handlers.unshift(http.get('*/v1/accounts/platform', () => Response.json(wrong)));
    expect(await (await account()).json()).toEqual(wrong);
    const [v, ...rest] = violations();
    expect(rest).toEqual([]);
    expect(v).toMatchObject({
      method: 'GET',
      path: '/v1/accounts/platform',
      operation: '/v1/accounts/platform',
      status: 200,
      problem: 'the body does not match the schema',
    });
    const messages = v!.errors!.map((e) => `${e.instancePath} ${e.message}`);
    expect(messages).toEqual(expect.arrayContaining(['/available_cash_balance must be number', ' must NOT have additional properties']));
  });

  it('records a status the operation does not document, and a content type it does not', async () => {
    const { app, violations } = checked();
    app.handlers.unshift(
      http.get('*/__mock/state', () => Response.json({ code: 'CONFLICT', message: 'x' }, { status: 409 })),
      http.get('*/__mock/faults', () => new Response('<p>hi</p>', { headers: { 'content-type': 'text/html' } })),
    );
    await app.handle(new Request('http://mock.test/__mock/state'));
    await app.handle(new Request('http://mock.test/__mock/faults'));
    expect(violations().map((v) => v.problem)).toEqual([
      'status 409 is not documented for GET /__mock/state',
      'content-type text/html; the document has application/json',
    ]);
  });

  it('checks over HTTP too, the answers the transport makes itself included', async () => {
    const { app, violations } = checked();
    const server = await startHttpServer(app, '127.0.0.1', 0);
    try {
      app.handlers.unshift(http.get('*/v1/loans', () => Response.json({ result: [], total_count: -1 })));
      const token = issueTestToken(app);
      expect((await fetch(`${server.origin}/v1/loans/`, { headers: { authorization: `bearer ${token}` } })).status).toBe(200);
      // A fault answered by the adapter (500 SYS0001) is documented: nothing more is recorded.
      await fetch(`${server.origin}/__mock/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error_rate: 1, count: 1 }),
      });
      expect((await fetch(`${server.origin}/v1/loans/`)).status).toBe(500);
      expect(violations().map((v) => [v.path, v.errors?.map((e) => e.instancePath)])).toEqual([['/v1/loans', ['', '/total_count']]]);
    } finally {
      await server.close();
    }
  });

  it('is on for every mock the tests start: they create mocks only through the helper that turns it on', () => {
    const root = join(import.meta.dirname);
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|mjs)$/.test(f));
    const creating = files.filter((f) => /\bcreateMockApp\(/.test(readFileSync(join(root, f), 'utf8'))).sort();
    // mock.ts is the helper; this file checks into logs of its own; the keychain probe runs the built mock with the same option.
    expect(creating).toEqual(['helpers/auth-keychain-probe.mjs', 'helpers/mock.ts', 'openapi.test.ts']);
  });

  it('holds an answer to a path no route serves to the documented 404, 405 and 400', async () => {
    const checker = new AnswerChecker(join(mkdtempSync(join(tmpdir(), 'mkt-check-')), 'v.ndjson'));
    const url = new URL('http://mock.test/nowhere');
    expect(
      await checker.check('GET', url, Response.json({ code: 'NOT_FOUND', message: 'No route for GET /nowhere' }, { status: 404 })),
    ).toBeNull();
    expect((await checker.check('GET', url, Response.json({ ok: true })))?.problem).toBe('the body does not match the schema');
  });
});

describe('the fields the document leaves optional because real answers lack them', () => {
  it('are still in every answer of the mock: a listing has the twelve, a held note ownership_end_date, a loan loan_default_reason_description', async () => {
    const app = testMockApp({ listings: 30 });
    const auth = { authorization: `bearer ${issueTestToken(app)}` };
    const get = async (path: string): Promise<Record<string, unknown>[]> =>
      (
        (await (await app.handle(new Request(`http://mock.test${path}`, { headers: auth }))).json()) as {
          result: Record<string, unknown>[];
        }
      ).result;
    const optional = (schema: string): string[] => {
      const s = doc.components.schemas[schema] as { properties: Record<string, unknown>; required?: string[] };
      return Object.keys(s.properties).filter((k) => !(s.required ?? []).includes(k));
    };
    const listings = await get('/listingsvc/v2/listings/?limit=10');
    expect(listings.length).toBe(10);
    for (const field of [
      'fico_score',
      'verification_stage',
      'listing_purpose',
      'estimated_monthly_housing_expense',
      'prior_platform_loans_principal_outstanding',
    ]) {
      expect(optional('Listing'), field).toContain(field);
      for (const l of listings) expect(l, field).toHaveProperty(field);
    }
    const notes = await get('/v1/notes/?limit=10');
    expect(notes.length).toBeGreaterThan(0);
    expect(optional('Note')).toContain('ownership_end_date');
    for (const n of notes) expect(n).toHaveProperty('ownership_end_date', null);
    const loans = await get('/v1/loans/?limit=10');
    expect(loans.length).toBeGreaterThan(0);
    expect(optional('Loan')).toContain('loan_default_reason_description');
    for (const l of loans) expect(l).toHaveProperty('loan_default_reason_description');
    await app.close?.();
  });
});
