// The pure parts of bench/peers.js (bench/peers-lib.js): the check of a peer's answer against the mock's
// bytes, the medians and ratios, the markdown table, and each peer's layout built from the pages. No JVM,
// mock or peer is started here: the script itself checks the peers' answers when it runs.
import { Validator } from '@seriousme/openapi-schema-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerNote,
  compareBody,
  formatTable,
  jsonServerLayout,
  parseArgs,
  PEER_PACKAGES,
  prismDocument,
  statCpuTicks,
  summarise,
  wiremockMappings,
} from '../bench/peers-lib.js';

const P25 = '/listingsvc/v2/listings/?limit=25';
const P500 = '/listingsvc/v2/listings/?limit=500&fico_score=700-719,720-739,740-759&borrower_rate_min=0.1&listing_term=36,60';

describe('compareBody', () => {
  it('says the same bytes only of the same bytes', () => {
    expect(compareBody(Buffer.from('{"a":1}'), Buffer.from('{"a":1}'))).toEqual({ same: true, note: 'the same bytes' });
  });

  it('tells the same JSON in other bytes from a different body, with both sizes', () => {
    const mock = Buffer.from('{"result":[{"a":1}],"result_count":1}');
    const pretty = Buffer.from(JSON.stringify(JSON.parse(mock.toString()), null, 2));
    expect(compareBody(mock, pretty)).toEqual({ same: false, note: `the same JSON in other bytes (${pretty.length} bytes against 37)` });
    expect(compareBody(mock, Buffer.from('{"result":[{"a":2}],"result_count":1}'))).toEqual({
      same: false,
      note: 'a different body (37 bytes against 37, first difference at byte 16)',
    });
    expect(compareBody(mock, Buffer.from('not json')).note).toBe('a different body (8 bytes against 37, first difference at byte 0)');
  });

  it('names the first differing byte of any two bodies, a prefix included', () => {
    fc.assert(
      // A shared start, so that the first difference is not almost always byte 0.
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ maxLength: 8 }), (start, a, b) => {
        const x = Buffer.concat([start, a]);
        const y = Buffer.concat([start, b]);
        const r = compareBody(x, y);
        expect(r.same).toBe(x.equals(y));
        const m = /first difference at byte (\d+)/.exec(r.note);
        if (!m) return;
        const at = Number(m[1]);
        expect(x.subarray(0, at).equals(y.subarray(0, at))).toBe(true);
        expect(at === x.length || at === y.length || x[at] !== y[at]).toBe(true);
      }),
    );
  });

  it('takes any JSON value re-spaced as the same JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const compact = Buffer.from(JSON.stringify(v));
        const spaced = Buffer.from(JSON.stringify(v, null, 1));
        expect(compareBody(compact, spaced).same).toBe(compact.equals(spaced));
        if (!compact.equals(spaced)) expect(compareBody(compact, spaced).note).toMatch(/^the same JSON in other bytes/);
      }),
    );
  });
});

describe('summarise and formatTable', () => {
  it("gives each figure's median and the median of the rounds' ratios, not the ratio of medians", () => {
    const mock = [
      { rps: 100, p50: 1, p99: 5, cpuUs: 60 },
      { rps: 300, p50: 2, p99: 6, cpuUs: 70 },
      { rps: 400, p50: 3, p99: 9, cpuUs: 65 },
    ];
    const peer = [
      { rps: 200, p50: 4, p99: 30, cpuUs: 900 },
      { rps: 100, p50: 2, p99: 10, cpuUs: 700 },
      { rps: 800, p50: 3, p99: 20, cpuUs: 800 },
    ];
    // Ratios by round 2, 1/3, 2: median 2 (the machine's load moves both of a round); the ratio of the medians would be 200 / 300.
    expect(summarise(peer, mock)).toEqual({ rps: 200, p50: 3, p99: 20, cpuUs: 800, ratio: 2 });
    expect(summarise(mock, mock).ratio).toBe(1);
  });

  it('writes a row per page and server, the page named once, a server not measured with its reason', () => {
    const table = formatTable([
      {
        label: 'unfiltered, limit=25 (25 rows, 68 KiB)',
        rows: [
          { name: 'mkt mock', figures: { rps: 12345.6, p50: 0.5, p99: 2.345, cpuUs: 61.6, ratio: 1 }, note: '' },
          {
            name: 'json-server',
            figures: { rps: 500, p50: 18.7, p99: 92.7, cpuUs: 1234.4, ratio: 0.0405 },
            note: 'content-type text/json',
          },
          { name: 'Prism 5.16.0', figures: null, note: 'answered 422, not measured' },
        ],
      },
    ]);
    expect(table.split('\n')).toEqual([
      '| page | server | req/s | p50 ms | p99 ms | server CPU µs/req | ÷ mock req/s | notes |',
      '|---|---|--:|--:|--:|--:|--:|---|',
      '| unfiltered, limit=25 (25 rows, 68 KiB) | mkt mock | 12,346 | 0.50 | 2.35 | 62 | 1.00× |  |',
      '|  | json-server | 500 | 18.70 | 92.70 | 1,234 | 0.04× | content-type text/json |',
      '|  | Prism 5.16.0 | — | — | — | — | — | answered 422, not measured |',
    ]);
  });

  it("notes nothing for the mock's bytes as application/json, else each difference", () => {
    const same = { same: true, note: 'the same bytes' };
    const other = { same: false, note: 'the same JSON in other bytes (9 bytes against 7)' };
    expect(answerNote(same, 'application/json')).toBe('');
    expect(answerNote(same, 'application/json; charset=utf-8')).toBe('content-type application/json; charset=utf-8');
    expect(answerNote(other, undefined)).toBe('the same JSON in other bytes (9 bytes against 7); content-type none');
  });
});

describe('statCpuTicks', () => {
  it("reads utime + stime after the process's name, whatever the name holds", () => {
    // Fields 14 and 15 of proc(5): utime 1234, stime 56; the name has a space and a ') ' of its own.
    const stat = '4242 (java) (x) S 1 4242 4242 0 -1 4194560 9000 0 12 0 1234 56 0 0 20 0 30 0 100 0 0';
    expect(statCpuTicks(stat)).toBe(1290);
    expect(() => statCpuTicks('4242 (node)')).toThrow('cannot read CPU time');
  });
});

describe("the peers' layouts", () => {
  const pages = [
    { path: P25, page: { result: [{ n: 1 }], result_count: 1 } },
    { path: P500, page: { result: [{ n: 2 }], result_count: 1 } },
  ];

  it('WireMock matches each path with its query exactly and answers its body file', () => {
    const { mappings } = wiremockMappings(pages.map((p, i) => ({ path: p.path, file: `page${i + 1}.json` })));
    expect(mappings.map((m) => [m.request.url, m.response.bodyFileName, m.response.status])).toEqual([
      [P25, 'page1.json', 200],
      [P500, 'page2.json', 200],
    ]);
  });

  it('Prism gets a valid OpenAPI document with one operation and an example a page, named in order', async () => {
    const { doc, examples } = prismDocument(pages);
    expect(examples).toEqual(['page1', 'page2']);
    expect(Object.keys(doc.paths)).toEqual(['/listingsvc/v2/listings/']);
    const content = doc.paths['/listingsvc/v2/listings/'].get.responses[200].content['application/json'];
    expect(content.examples.page2.value).toEqual(pages[1]!.page);
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("json-server's routes take the query's ? as a literal (a path-to-regexp pattern would make the slash optional)", () => {
    const { db, routes } = jsonServerLayout(pages);
    expect(routes).toEqual({ [P25.replace('?', '\\?')]: '/page1', [P500.replace('?', '\\?')]: '/page2' });
    expect(db).toEqual({ page1: pages[0]!.page, page2: pages[1]!.page });
  });
});

describe('the command line', () => {
  it('takes --install and --help, and names anything else', () => {
    expect(parseArgs([])).toEqual({ install: false, help: false });
    expect(parseArgs(['--install'])).toEqual({ install: true, help: false });
    expect(() => parseArgs(['--instal'])).toThrow("unknown argument '--instal'");
  });

  it('pins each peer to an exact version', () => {
    expect(Object.keys(PEER_PACKAGES).sort()).toEqual(['@stoplight/prism-cli', 'json-server', 'wiremock']);
    for (const v of Object.values(PEER_PACKAGES)) expect(v).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
