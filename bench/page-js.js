#!/usr/bin/env node
// The mock's own JavaScript per request on the unfiltered limit=25 page (issue 43, item 1), without the kernel: requests
// are handed to the mock's real node:http server in-process on sockets that discard what is written (10 at a time, one
// after another on each, 'close' after 'finish' as node's own server does), and the same harness runs a handler that only
// writes a Buffer of the page's size (what bench/static-server.js does). CPU time a request (process.cpuUsage), medians of
// 5 rounds; mock − buffer is the mock's own work. A wrk run on a 2-core loopback is dominated by the write's wake-up and by
// whatever else the machine runs; this is not, so a before/after of the mock's code reads here.
//   node bench/page-js.js [ROOT] [REQUESTS]   ROOT: a build's folder (default this one: compare another build's copy)
import http from 'node:http';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { root as here } from './mock-proc.js';

const root = process.argv[2] ?? here;
const requests = Number(process.argv[3] ?? 100_000);
if (!Number.isInteger(requests) || requests < 1000 || requests > 2_000_000)
  throw new Error(`REQUESTS: 1,000 to 2,000,000, got ${process.argv[3]}`);
const load = (file) => import(pathToFileURL(join(root, 'dist', 'mock-server', file)).href);
const { createMarketplace } = await load('library/index.js');
const { appOf } = await load('library/internal.js');
const { startHttpServer } = await load('http-adapter.js');

const market = createMarketplace({ listings: 2000, rateLimit: false });
const app = appOf(market);
const running = await startHttpServer(app, '127.0.0.1', 0);
const server = running.server;
const token = await market.tokenFor('alice');
const host = new URL(running.origin).host;
const path = '/listingsvc/v2/listings/?limit=25';
// The server's response class (node keeps it under a symbol): the mock's may be its own.
const Response = server[Object.getOwnPropertySymbols(server).find((s) => s.description === 'ServerResponse')] ?? http.ServerResponse;

let written = 0;
const statuses = new Map();
/** A connection that takes every write at once and keeps nothing. */
class Sink extends Duplex {
  _read() {}
  _write(chunk, _encoding, done) {
    written += chunk.length;
    done();
  }
  _writev(chunks, done) {
    for (const c of chunks) written += c.chunk.length;
    done();
  }
}

let page = null;
/** What bench/static-server.js does: the page's bytes, made once. */
function bufferHandler(_req, res) {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': page.length });
  res.end(page);
}

/** One request on `socket` as node's parser would hand it over; `next` once its response is closed. */
function one(socket, handler, next) {
  const req = new http.IncomingMessage(socket);
  req.method = 'GET';
  req.url = path;
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.httpVersion = '1.1';
  req.rawHeaders = ['Host', host, 'Authorization', `bearer ${token}`];
  req.headers = { host, authorization: `bearer ${token}` };
  req.complete = true;
  req.push(null);
  const res = new Response(req);
  res.shouldKeepAlive = true;
  res.assignSocket(socket);
  res.once('finish', () => {
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    res.detachSocket(socket);
    process.nextTick(() => {
      res.emit('close');
      next();
    });
  });
  if (handler) handler(req, res);
  else server.emit('request', req, res);
}

/** `n` requests, 10 connections at a time. */
function run(n, handler) {
  const chain = (k) =>
    new Promise((resolve) => {
      const socket = new Sink();
      socket.remoteAddress = '127.0.0.1';
      let left = k;
      const next = () => (left-- > 0 ? one(socket, handler, next) : resolve());
      next();
    });
  return Promise.all(Array.from({ length: 10 }, () => chain(n / 10)));
}

/** CPU µs a request, the median of 5 rounds (after a warm-up). */
async function measure(handler) {
  await run(20_000, handler);
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    const before = process.cpuUsage();
    await run(requests / 5, handler);
    const used = process.cpuUsage(before);
    rounds.push((used.user + used.system) / (requests / 5));
  }
  return rounds.sort((a, b) => a - b)[2];
}

const mock = await measure(null);
const bytes = written / [...statuses.values()].reduce((a, b) => a + b);
if ([...statuses.keys()].some((s) => s !== 200)) throw new Error(`the page answered ${[...statuses.keys()].join(', ')}`);
page = Buffer.alloc(Math.round(bytes - 150), 32);
const buffer = await measure(bufferHandler);
console.log(
  `${root}: mock ${mock.toFixed(2)} µs/request, Buffer handler ${buffer.toFixed(2)}, the mock's own ${(mock - buffer).toFixed(2)}`,
);
await running.close();
await market.close();
