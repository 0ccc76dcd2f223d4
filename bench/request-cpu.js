// The CPU one request costs a server's own process, without the kernel or a load tool: the mock's HTTP server (a
// world of LISTINGS listings, in this process) and a bare node:http server answering the same page's bytes, each fed
// the same request bytes through an in-memory socket, one request after another. Under wrk the two share a 2-core
// machine with the client and the kernel's share of each request, so their ratio moves by a quarter between runs;
// this figure isolates what the mock's own JavaScript adds (docs/performance.md, "Method").
//
//   node bench/request-cpu.js [mock|http] [--listings N] [--requests N] [--rounds R] [--path P] [--request-log-size N]
//
// Prints one JSON line: { server, usPerRequest (median of the rounds), rounds (µs a request, in order), bytes }.
// No connection is made: the token and the page are asked of the mock in-process (app.handle). Run after `npm run build`.
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { Duplex } from 'node:stream';
import { parseArgs } from 'node:util';
import { accessToken, median, root } from './mock-proc.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    listings: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '50000' },
    rounds: { type: 'string', default: '5' },
    path: { type: 'string', default: '/listingsvc/v2/listings/?limit=25' },
    'request-log-size': { type: 'string' },
  },
});
const server = positionals[0] ?? 'mock';
if (server !== 'mock' && server !== 'http') throw new Error(`request-cpu: '${server}' is neither mock nor http`);
const requests = Number(values.requests);
const rounds = Number(values.rounds);

/**
 * A connection that is only memory: what the server writes is counted, and each answer's last write settles `answered`
 * on process.nextTick, behind node's own ticks for that response ('finish', which hands the socket to the next
 * request): the next request is then sent after the last's 'close' too (the promise's continuation runs once the tick
 * queue is empty), where from a microtask it waited in node's pipelining queue (half of them did), which neither wrk's
 * requests nor a client's meet. No turn of the event loop between two requests. A server that ends or drops the
 * connection fails it.
 */
class MemorySocket extends Duplex {
  remoteAddress = '127.0.0.1';
  remotePort = 40000;
  localAddress = '127.0.0.1';
  written = 0;
  answered = null;
  failed = null;
  _read() {}
  _final(done) {
    this.lost('ended the connection');
    done();
  }
  _destroy(err, done) {
    this.lost('dropped the connection');
    done(err);
  }
  lost(what) {
    const fail = this.failed;
    this.answered = this.failed = null;
    if (fail) fail(new Error(`request-cpu: the ${server} server ${what} instead of answering`));
  }
  _write(chunk, _encoding, done) {
    this.written += chunk.length;
    done();
    this.wrote();
  }
  _writev(chunks, done) {
    for (const c of chunks) this.written += c.chunk.length;
    done();
    this.wrote();
  }
  wrote() {
    const resolve = this.answered;
    this.answered = this.failed = null;
    if (resolve) process.nextTick(resolve);
  }
  setTimeout() {
    return this;
  }
  setNoDelay() {
    return this;
  }
  setKeepAlive() {
    return this;
  }
}

const { createMockApp, startHttpServer } = createRequire(import.meta.url)(`${root}/dist/bundle/server.cjs`);
const app = createMockApp({
  seed: 1,
  listings: Number(values.listings),
  frozen: true,
  autoApprove: ['alice'],
  ...(values['request-log-size'] !== undefined ? { requestLogSize: Number(values['request-log-size']) } : {}),
});
// No request goes over a real socket in this process: node's HTTP code meets only the memory socket, as a server's
// meets only TCP sockets (a second kind of socket made its compiled code differ from run to run).
const origin = 'http://127.0.0.1:9';
const token = await accessToken(origin, (url, init) => app.handle(new Request(url, init)));
const pageAnswer = await app.handle(new Request(`${origin}${values.path}`, { headers: { authorization: `bearer ${token}` } }));
if (pageAnswer.status !== 200) throw new Error(`request-cpu: ${values.path} answered ${pageAnswer.status}`);
const page = Buffer.from(await pageAnswer.arrayBuffer());
// The mock's idle work after its start (the listing index, settling) runs between requests: done before the rounds.
while (!app.ctx.engine.idle) await new Promise((r) => setTimeout(r, 50));
let target;
let host;
if (server === 'mock') {
  const running = await startHttpServer(app);
  target = running.server;
  host = new URL(running.origin).host;
} else {
  host = '127.0.0.1:9';
  // What the mock's answer carries: a Date (node's own, kept a second as the mock keeps its), type and length.
  target = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(page.length) });
    res.end(page);
  });
}

const socket = new MemorySocket();
target.emit('connection', socket);
const request = Buffer.from(`GET ${values.path} HTTP/1.1\r\nHost: ${host}\r\nauthorization: bearer ${token}\r\n\r\n`);
const one = () =>
  new Promise((resolve, reject) => {
    socket.answered = resolve;
    socket.failed = reject;
    socket.push(Buffer.from(request));
  });
// Warm-up, a round's worth: the request path compiled as a loaded server's is.
for (let i = 0; i < requests; i++) await one();
const measured = [];
for (let r = 0; r < rounds; r++) {
  const from = socket.written;
  const cpu = process.cpuUsage();
  for (let i = 0; i < requests; i++) await one();
  const used = process.cpuUsage(cpu);
  // Every answer was the page (its head a few hundred bytes): a refusal or an error would be far shorter.
  const each = (socket.written - from) / requests;
  if (each < page.length || each > page.length + 1024)
    throw new Error(`request-cpu: ${each.toFixed(0)} bytes an answer, not the ${page.length}-byte page`);
  measured.push((used.user + used.system) / requests);
}
console.log(
  JSON.stringify({
    server,
    usPerRequest: Number(median(measured).toFixed(2)),
    rounds: measured.map((x) => Number(x.toFixed(2))),
    bytes: page.length,
  }),
);
process.exit(0);
