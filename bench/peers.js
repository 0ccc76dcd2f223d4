#!/usr/bin/env node
// The mock beside its peers (opt-in, a few minutes: not part of `npm run bench`). Starts the mock with
// 100,000 listings (BENCH_LISTINGS), captures its two listings pages (bench/run.js's: unfiltered limit=25,
// three filters limit=500), and serves exactly those bytes from the static Buffer server (bench/static-server.js,
// the HTTP stack's floor), WireMock (its npm package's standalone jar on Debian's java; a stub per page,
// matching path and query, body file), Prism (mock mode over an OpenAPI document whose examples are the pages,
// chosen by `Prefer: example=`) and json-server (bench/json-server-peer.js). Each answer is checked against
// the mock's bytes before it is measured; each page is measured under wrk (-t1 -c10, bench/wrk.js) in rounds
// of 2 s per contender, the contenders' order turned by one each round, after a 3 s warm-up each (the JVM's
// JIT); figures (requests a second, p50, p99, the server's CPU time a request from /proc) are medians of
// BENCH_PEER_ROUNDS rounds (default 3). Prints a markdown table for
// docs/performance.md on stdout, progress on stderr. The peers are installed only by `--install`, with npm,
// into a folder outside the repository (peers-lib.js USAGE). All traffic goes to 127.0.0.1; every server
// started here is stopped at the end, on error and on SIGINT too.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { cpus, homedir, loadavg, tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { accessToken, root, startMock, startServer, stopServer, UNTHROTTLED } from './mock-proc.js';
import {
  answerNote,
  compareBody,
  formatTable,
  parseArgs,
  PEER_PACKAGES,
  prismDocument,
  statCpuTicks,
  summarise,
  USAGE,
  wiremockMappings,
} from './peers-lib.js';
import { findWrk, wrkLoad } from './wrk.js';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_PEER_ROUNDS ?? 3);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1 || ROUNDS > 9)
  throw new Error(`BENCH_PEER_ROUNDS must be a whole number from 1 to 9, got '${process.env.BENCH_PEER_ROUNDS}'`);
const SECONDS = 2;
const WARM_SECONDS = 3;
/** bench/run.js's two pages (its SEARCHES; that file is not imported: it runs its benchmarks as it loads). */
const PAGES = [
  { label: 'unfiltered, limit=25', path: '/listingsvc/v2/listings/?limit=25' },
  {
    label: '3 filters, limit=500',
    path: '/listingsvc/v2/listings/?limit=500&fico_score=700-719,720-739,740-759&borrower_rate_min=0.1&listing_term=36,60',
  },
];

const log = (line) => process.stderr.write(`${line}\n`);

/** The folder the peers are installed into: never inside this repository, whose package files stay untouched. */
function peersDir() {
  const dir = resolve(process.env.MKT_BENCH_PEERS_DIR ?? join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mkt-bench-peers'));
  if (dir === root || dir.startsWith(root + sep))
    throw new Error(`the peers' folder ${dir} is inside the repository: choose one outside it`);
  return dir;
}

/** Installs the pinned peers with npm into `dir` (its own package.json; install scripts off: none is needed). */
function install(dir) {
  mkdirSync(dir, { recursive: true });
  const pkg = {
    name: 'mkt-bench-peers',
    private: true,
    description: 'peers of the mkt mock, for bench/peers.js',
    dependencies: PEER_PACKAGES,
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  log(
    `installing ${Object.entries(PEER_PACKAGES)
      .map(([n, v]) => `${n}@${v}`)
      .join(', ')} into ${dir}`,
  );
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) throw new Error(`npm install in ${dir} exited ${r.status ?? r.signal}`);
}

/** The installed version of `name` in `dir`, or null. */
function installed(dir, name) {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

/** Why `name` cannot run from `dir`, or null when its pinned version is there. */
function missing(dir, name) {
  const v = installed(dir, name);
  if (v === PEER_PACKAGES[name]) return null;
  return `${name}@${PEER_PACKAGES[name]} is not in ${dir}${v ? ` (${v} is)` : ''}: \`node bench/peers.js --install\` installs it`;
}

/** GET `url` with node:http (no Accept-Encoding, as wrk): its status, headers and body bytes. */
function get(url, headers) {
  return new Promise((done, fail) => {
    const req = request(url, { headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`GET ${url}: no answer within 30 s`)));
    req.on('error', fail);
    req.end();
  });
}

/** A port free on 127.0.0.1 now (for Prism, which takes no port 0). */
function freePort() {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

/** Every child started here and every scratch folder made here, stopped and removed at the end whatever happens. */
const children = new Set();
const scratch = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

/** Stops `child` (SIGTERM, then SIGKILL after 5 s), waits for it, and forgets it. */
async function stop(child) {
  await stopServer({ child });
  children.delete(child);
}

/**
 * Spawns `command` and waits until `ready()` resolves to an origin (at most 90 s; a JVM or Prism on a loaded
 * machine is slow to start); its output is kept for the error if it exits first.
 */
async function spawnPeer(name, command, args, ready) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  child.stdout.on('data', (d) => (out = (out + d).slice(-4000)));
  child.stderr.on('data', (d) => (out = (out + d).slice(-4000)));
  const exited = new Promise((_, fail) => {
    child.once('exit', (code) => fail(new Error(`${name} exited ${code}:\n${out}`)));
    child.once('error', (e) => fail(new Error(`${name} did not start: ${e.message}`)));
  });
  exited.catch(() => {});
  const until = Date.now() + 90_000;
  for (;;) {
    if (Date.now() > until) throw new Error(`${name} did not answer within 90 s:\n${out}`);
    const origin = await Promise.race([ready(() => out), exited]);
    if (origin) return { child, origin };
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** Polls `origin` + `path` until it answers 200 (a server that prints nothing when it listens). */
const answers = (origin, path, headers) => async () => {
  const r = await get(origin + path, headers).catch(() => null);
  return r?.status === 200 ? origin : null;
};

/** Clock ticks a second, the unit of /proc's CPU times (100 on Linux, asked of the system all the same). */
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** The CPU time `pid` has used, clock ticks (Linux /proc). */
const cpuTicks = (pid) => statCpuTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'));

/** `java -version`'s first line, or null when there is no java. */
function javaVersion() {
  const r = spawnSync('java', ['-version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stderr.split('\n')[0].trim() : null;
}

/**
 * The contenders, each `{ name, origin, child, headers(i) }` for page i, in `work` (a scratch folder); a
 * peer that cannot run is listed in `skipped` with the reason and how to get it.
 */
async function startContenders(mock, token, captured, dir, work) {
  const auth = { authorization: `bearer ${token}` };
  const pagesFile = join(work, 'pages.json');
  writeFileSync(pagesFile, JSON.stringify(Object.fromEntries(captured.map((c) => [c.path, JSON.parse(c.body.toString('utf8'))]))));
  const contenders = [{ name: `mkt mock (${LISTINGS.toLocaleString('en-US')} listings)`, ...mock, headers: () => auth }];
  const skipped = [];
  const add = async (name, start) => {
    try {
      contenders.push({ name, headers: () => auth, ...(await start()) });
      log(`${name}: listening at ${contenders.at(-1).origin}`);
    } catch (e) {
      skipped.push({ name, why: e.message.split('\n')[0] });
      log(`${name}: not measured: ${e.message}`);
    }
  };
  await add('static Buffer server (node:http)', async () => {
    const s = await startServer([join(root, 'bench', 'static-server.js'), pagesFile]);
    children.add(s.child);
    return s;
  });

  const wmVersion = PEER_PACKAGES.wiremock;
  await add(`WireMock ${wmVersion}`, async () => {
    const why = missing(dir, 'wiremock');
    if (why) throw new Error(why);
    if (!javaVersion()) throw new Error('no java on the PATH: Debian has it as default-jre-headless');
    const wm = join(work, 'wiremock');
    mkdirSync(join(wm, 'mappings'), { recursive: true });
    mkdirSync(join(wm, '__files'), { recursive: true });
    captured.forEach((c, i) => writeFileSync(join(wm, '__files', `page${i + 1}.json`), c.body));
    const mappings = wiremockMappings(captured.map((c, i) => ({ path: c.path, file: `page${i + 1}.json` })));
    writeFileSync(join(wm, 'mappings', 'pages.json'), JSON.stringify(mappings));
    // Its performance settings: no request journal (unbounded by default, it keeps every request) and no
    // request logging; a Content-Length rather than chunks, as the other servers answer.
    const jar = join(dir, 'node_modules', 'wiremock', 'build', `wiremock-standalone-${wmVersion}.jar`);
    const args = ['-jar', jar, '--port', '0', '--bind-address', '127.0.0.1', '--root-dir', wm, '--disable-banner'];
    args.push('--no-request-journal', '--disable-request-logging', '--use-chunked-encoding', 'Never');
    return spawnPeer('WireMock', 'java', args, async (out) => {
      const m = /port:\s+(\d+)/.exec(out());
      return m ? `http://127.0.0.1:${m[1]}` : null;
    });
  });

  const prismName = `Prism ${PEER_PACKAGES['@stoplight/prism-cli']}`;
  const { doc, examples } = prismDocument(captured.map((c) => ({ path: c.path, page: JSON.parse(c.body.toString('utf8')) })));
  const prismHeaders = (i) => ({ ...auth, prefer: `example=${examples[i]}` });
  await add(prismName, async () => {
    const why = missing(dir, '@stoplight/prism-cli');
    if (why) throw new Error(why);
    writeFileSync(join(work, 'openapi.json'), JSON.stringify(doc));
    const port = await freePort();
    const cli = realpathSync(join(dir, 'node_modules', '.bin', 'prism'));
    // Log level warn: at info Prism writes lines for every request, which is not what a peer is measured on.
    const args = [cli, 'mock', join(work, 'openapi.json'), '-h', '127.0.0.1', '-p', String(port), '-v', 'warn'];
    const origin = `http://127.0.0.1:${port}`;
    return {
      ...(await spawnPeer('Prism', process.execPath, args, answers(origin, captured[0].path, prismHeaders(0)))),
      headers: prismHeaders,
    };
  });

  await add(`json-server ${PEER_PACKAGES['json-server']}`, async () => {
    const why = missing(dir, 'json-server');
    if (why) throw new Error(why);
    const s = await startServer([join(root, 'bench', 'json-server-peer.js'), dir, pagesFile]);
    children.add(s.child);
    return s;
  });
  return { contenders, skipped };
}

/** Each contender's answer to each page against the mock's bytes: `notesOf[name][i]`; a contender not answering 200 is dropped. */
async function checkAnswers(contenders, captured) {
  const notesOf = {};
  const kept = [];
  for (const c of contenders) {
    const notes = [];
    let ok = true;
    for (const [i, page] of captured.entries()) {
      const r = await get(c.origin + page.path, c.headers(i));
      if (r.status !== 200) ok = false;
      notes.push(
        r.status === 200 ? answerNote(compareBody(page.body, r.body), r.headers['content-type']) : `answered ${r.status}, not measured`,
      );
    }
    notesOf[c.name] = notes;
    log(`${c.name}: ${notes.map((n) => n || "the mock's bytes").join('; ')}`);
    if (ok) kept.push(c);
  }
  return { notesOf, kept };
}

/**
 * The rounds of one page: per contender, the wrk figures of each round. A peer that fails under load (an
 * answer not 2xx, a socket error) is left out of the rounds after it and named in `failed`; the mock's
 * failure ends the run.
 */
async function measurePage(contenders, i, path) {
  const wrk = findWrk();
  const failed = new Map();
  const measure = async (c, seconds) => {
    if (failed.has(c.name)) return null;
    // A turn of the event loop before each run (wrk runs synchronously): a SIGINT is handled within one run.
    await new Promise((done) => setImmediate(done));
    try {
      const before = cpuTicks(c.child.pid);
      const x = wrkLoad(wrk, c.origin + path, { seconds, headers: c.headers(i), warm: false });
      // The server's CPU a request: what other load on a shared machine moves far less than requests a second.
      return { ...x, cpuUs: ((cpuTicks(c.child.pid) - before) * (1e6 / CLK_TCK)) / (x.rps * seconds) };
    } catch (e) {
      if (c === contenders[0]) throw e;
      failed.set(c.name, e.message.split('\n')[0]);
      log(`  ${PAGES[i].label}: ${c.name} failed under load, left out: ${e.message}`);
      return null;
    }
  };
  for (const c of contenders) await measure(c, WARM_SECONDS);
  const runs = new Map(contenders.map((c) => [c.name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = [...contenders.slice(r % contenders.length), ...contenders.slice(0, r % contenders.length)];
    for (const c of order) {
      const x = await measure(c, SECONDS);
      if (!x) continue;
      runs.get(c.name).push(x);
      log(`  ${PAGES[i].label}, round ${r + 1}: ${c.name} ${Math.round(x.rps)} req/s, p50 ${x.p50.toFixed(2)}, p99 ${x.p99.toFixed(2)} ms`);
    }
  }
  for (const name of failed.keys()) runs.delete(name);
  return { runs, failed };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const dir = peersDir();
  if (args.install) install(dir);
  if (!findWrk())
    throw new Error('wrk is not installed (Debian: apt-get install wrk): the comparison needs a load generator faster than node');
  const load = loadavg();
  const started = new Date();
  const work = mkdtempSync(join(tmpdir(), 'mkt-bench-peers-'));
  scratch.add(work);
  const mockProc = await startMock(LISTINGS, UNTHROTTLED);
  children.add(mockProc.child);
  try {
    const token = await accessToken(mockProc.origin);
    const captured = [];
    for (const p of PAGES) {
      const r = await get(mockProc.origin + p.path, { authorization: `bearer ${token}` });
      if (r.status !== 200) throw new Error(`the mock answered ${p.path} with ${r.status}`);
      captured.push({ ...p, body: r.body, rows: JSON.parse(r.body.toString('utf8')).result_count });
    }
    const { contenders, skipped } = await startContenders(mockProc, token, captured, dir, work);
    const { notesOf, kept } = await checkAnswers(contenders, captured);
    const pages = [];
    for (const [i, page] of captured.entries()) {
      const { runs, failed } = await measurePage(kept, i, page.path);
      const mockRuns = runs.get(contenders[0].name);
      if (!mockRuns) throw new Error('the mock did not answer its own pages');
      const label = `${page.label} (${page.rows} rows, ${Math.round(page.body.length / 1024).toLocaleString('en-US')} KiB)`;
      const rows = contenders.map((c) => ({
        name: c.name,
        figures: runs.has(c.name) ? summarise(runs.get(c.name), mockRuns) : null,
        note: failed.has(c.name) ? `failed under load: ${failed.get(c.name)}` : notesOf[c.name][i],
      }));
      pages.push({ label, rows });
    }
    const end = loadavg();
    const cpu = cpus();
    console.log(
      `Measured ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC by \`node bench/peers.js\`: ${cpu.length} cores (${cpu[0]?.model.trim()}), `
        + `node ${process.version}, ${javaVersion() ?? 'no java'}; wrk -t1 -c10, ${SECONDS} s rounds after a ${WARM_SECONDS} s warm-up, `
        + `contenders alternated, medians of ${ROUNDS}; load average ${load[0].toFixed(2)} at the start, ${end[0].toFixed(2)} at the end.\n`,
    );
    console.log(formatTable(pages));
    for (const s of skipped) console.log(`\nNot run: ${s.name}: ${s.why}.`);
  } finally {
    await Promise.all([...children].map(stop));
    rmSync(work, { recursive: true, force: true });
    scratch.delete(work);
  }
}

try {
  await main();
} catch (e) {
  log(`bench/peers.js: ${e.message}`);
  process.exitCode = 1;
}
