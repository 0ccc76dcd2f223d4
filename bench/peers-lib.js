// The pure parts of bench/peers.js (no process, file or socket): the pinned peers, the command line, each
// peer's stub layout built from the captured pages, the check of an answer's bytes and the markdown table.
// Kept apart so that test/bench-peers.test.ts checks them without starting a JVM or a mock.

/** The peers' npm packages, pinned: the comparison is rerun against these exact versions. */
export const PEER_PACKAGES = {
  wiremock: '3.13.2',
  '@stoplight/prism-cli': '5.16.0',
  'json-server': '0.17.4',
};

/** What `node bench/peers.js --help` prints. */
export const USAGE = `usage: node bench/peers.js [--install]

Serves the mock's two listings pages (100,000 listings; BENCH_LISTINGS to change) from the mock, a static
node:http server, WireMock, Prism and json-server, checks each answers the same bytes, and measures each
under wrk (-t1 -c10, 2 s rounds, contenders alternated, medians of BENCH_PEER_ROUNDS, default 3). Prints a
markdown table on stdout, progress on stderr. All traffic goes to 127.0.0.1.

  --install   first install the pinned peers with npm, their install scripts off:
              ${Object.entries(PEER_PACKAGES)
                .map(([n, v]) => `${n}@${v}`)
                .join(', ')},
              into MKT_BENCH_PEERS_DIR, else $XDG_CACHE_HOME/mkt-bench-peers (~/.cache unless set); never
              into this repository. Without it a peer missing from there is skipped.
WireMock needs java (Debian: apt-get install default-jre-headless); the run needs wrk (apt-get install wrk).`;

/** Reads the command line: `{ install, help }`; anything else is an error naming it. */
export function parseArgs(argv) {
  const out = { install: false, help: false };
  for (const a of argv) {
    if (a === '--install') out.install = true;
    else if (a === '--help' || a === '-h') out.help = true;
    else throw new Error(`unknown argument '${a}' (it takes --install or --help)`);
  }
  return out;
}

/**
 * WireMock's stub mappings for `pages` ([{ path, file }]: a request target and the body file, under
 * __files/, holding its bytes): each matches GET of exactly that path and query (`url`, not a pattern).
 */
export function wiremockMappings(pages) {
  return {
    mappings: pages.map(({ path, file }) => ({
      request: { method: 'GET', url: path },
      response: { status: 200, bodyFileName: file, headers: { 'Content-Type': 'application/json' } },
    })),
  };
}

/**
 * An OpenAPI 3.0 document for Prism's mock mode: one GET operation per path, whose 200 answer has each page
 * (`pages`: [{ path, page }], page parsed) as a named example. Prism chooses an example by the `Prefer:
 * example=NAME` header, not by the query, so `examples` gives each page's name to send.
 */
export function prismDocument(pages) {
  const paths = {};
  const examples = [];
  pages.forEach(({ path, page }, i) => {
    const name = `page${i + 1}`;
    const pathname = path.split('?')[0];
    paths[pathname] ??= { get: { responses: { 200: { description: 'a page', content: { 'application/json': { examples: {} } } } } } };
    paths[pathname].get.responses[200].content['application/json'].examples[name] = { value: page };
    examples.push(name);
  });
  return { doc: { openapi: '3.0.3', info: { title: 'mkt bench pages', version: '1' }, paths }, examples };
}

/**
 * json-server's layout for `pages` ([{ path, page }]): a db holding each page as a singular resource
 * (`page1`, …) and routes from each page's path and query to it. Its rewriter reads a route as a
 * path-to-regexp pattern, where `?` would make the slash before it optional: escaped, it is a literal.
 */
export function jsonServerLayout(pages) {
  const db = {};
  const routes = {};
  pages.forEach(({ path, page }, i) => {
    db[`page${i + 1}`] = page;
    routes[path.replaceAll('?', '\\?')] = `/page${i + 1}`;
  });
  return { db, routes };
}

/**
 * How an answer's body compares with the mock's bytes: `{ same, note }`. Different bytes of the same JSON
 * (whitespace, key order, number spelling) say so with the sizes; otherwise the first differing byte.
 */
export function compareBody(expected, actual) {
  if (expected.equals(actual)) return { same: true, note: 'the same bytes' };
  let sameJson = false;
  try {
    sameJson = JSON.stringify(JSON.parse(actual.toString('utf8'))) === JSON.stringify(JSON.parse(expected.toString('utf8')));
  } catch {
    sameJson = false;
  }
  const size = `${actual.length.toLocaleString('en-US')} bytes against ${expected.length.toLocaleString('en-US')}`;
  if (sameJson) return { same: false, note: `the same JSON in other bytes (${size})` };
  let at = 0;
  while (at < expected.length && at < actual.length && expected[at] === actual[at]) at++;
  return { same: false, note: `a different body (${size}, first difference at byte ${at})` };
}

/** The median of a list of numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * The CPU time a process has used, in clock ticks, from its /proc/PID/stat line: utime + stime, summed over
 * its threads (a JVM's compiler and collector included). The process's name, in parentheses, may hold
 * spaces and parentheses itself: the fields are counted from the last `)`.
 */
export function statCpuTicks(stat) {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`cannot read CPU time from '${stat.slice(0, 80)}'`);
  return ticks;
}

/**
 * One contender's figures on one page from its rounds (`runs`: [{ rps, p50, p99, cpuUs }], and the mock's of the
 * same rounds in `mockRuns`): the median of each figure and the median of the rounds' ratios to the mock.
 */
export function summarise(runs, mockRuns) {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuUs: median(runs.map((r) => r.cpuUs)),
    ratio: median(runs.map((r, i) => r.rps / mockRuns[i].rps)),
  };
}

const int = (x) => Math.round(x).toLocaleString('en-US');

/**
 * A note on one answer for the table: empty for the mock's bytes as `application/json`; else what differs
 * (`body`: compareBody's result; `contentType`: the answer's header).
 */
export function answerNote(body, contentType) {
  const parts = [];
  if (!body.same) parts.push(body.note);
  if (contentType !== 'application/json') parts.push(`content-type ${contentType ?? 'none'}`);
  return parts.join('; ');
}

/**
 * The markdown table for docs/performance.md: a row per page and server (`pages`: [{ label, rows: [{ name,
 * figures, note }] }], figures from `summarise`, or null when the server was not measured, `note` saying
 * why), the page named on its first row; ratios to the mock's requests a second.
 */
export function formatTable(pages) {
  const lines = [
    '| page | server | req/s | p50 ms | p99 ms | server CPU µs/req | ÷ mock req/s | notes |',
    '|---|---|--:|--:|--:|--:|--:|---|',
  ];
  for (const page of pages) {
    page.rows.forEach((r, i) => {
      const f = r.figures;
      const cells = f ? [int(f.rps), f.p50.toFixed(2), f.p99.toFixed(2), int(f.cpuUs), `${f.ratio.toFixed(2)}×`] : Array(5).fill('—');
      lines.push(`| ${i === 0 ? page.label : ''} | ${r.name} | ${cells.join(' | ')} | ${r.note} |`);
    });
  }
  return lines.join('\n');
}
