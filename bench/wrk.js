// Load through `wrk` (the Debian package) when it is installed: one thread, 10 connections, a few
// seconds per target, 127.0.0.1 only. A node loop saturates near 8k req/s on this kind of machine and
// cannot see a server faster than itself; wrk can.
import { spawnSync } from 'node:child_process';
import { cpuMs } from './mock-proc.js';

const MAX_SECONDS = 10;

/** The path of wrk, or null when it is not installed. */
export function findWrk() {
  const r = spawnSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}

/** A wrk latency figure (`812.00us`, `1.20ms`, `2.01s`) in ms. */
function ms(text) {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!m) throw new Error(`wrk: cannot read latency '${text}'`);
  return Number(m[1]) * { us: 1e-3, ms: 1, s: 1e3, m: 6e4 }[m[2]];
}

/** Reads wrk's `--latency` report: requests per second and in all, p50 and p99 (ms), non-2xx answers, socket errors and timeouts. */
export function parseWrk(out) {
  const requests = /\n\s*(\d+) requests in /.exec(out);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const p50 = /\n\s+50%\s+(\S+)/.exec(out);
  const p99 = /\n\s+99%\s+(\S+)/.exec(out);
  if (!requests || !rps || !p50 || !p99) throw new Error(`wrk: cannot read its report:\n${out}`);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = socket ? Number(socket[1]) + Number(socket[2]) + Number(socket[3]) : 0;
  return {
    requests: Number(requests[1]),
    rps: Number(rps[1]),
    p50: ms(p50[1]),
    p99: ms(p99[1]),
    non2xx,
    errors,
    timeouts: socket ? Number(socket[4]) : 0,
  };
}

/**
 * Loads `url` (127.0.0.1 only) with wrk for `seconds` (at most 10), after a 1 s warm-up unless `warm`
 * is false; returns requests per second, p50 / p99 in ms and the requests that timed out, and with `pid` (the
 * server's process) its CPU a request over the counted run in µs (`cpuUs`: user + system, Linux; NaN elsewhere).
 * Any answer but 2xx, or a socket error, is an error.
 */
export function wrkLoad(wrk, url, { seconds = 4, connections = 10, headers = {}, warm = true, pid } = {}) {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error(`wrk: ${url} is not on 127.0.0.1`);
  const h = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const run = (s) => {
    // A request slower than 10 s counts as a timeout (wrk's own limit, 2 s, is within reach of a loaded machine).
    const r = spawnSync(wrk, ['-t1', `-c${connections}`, `-d${s}s`, '--timeout', '10s', '--latency', ...h, url], {
      encoding: 'utf8',
      timeout: (s + 20) * 1000,
    });
    if (r.status !== 0) throw new Error(`wrk exited ${r.status ?? r.signal}: ${r.stderr}`);
    const out = parseWrk(r.stdout);
    if (out.non2xx > 0 || out.errors > 0) throw new Error(`wrk: ${url}: ${out.non2xx} answers not 2xx, ${out.errors} socket errors`);
    return out;
  };
  if (warm) run(1);
  const cpu = () => (pid === undefined ? NaN : cpuMs(pid));
  const before = cpu();
  const out = run(Math.min(seconds, MAX_SECONDS));
  return { ...out, cpuUs: cpuPerRequestUs(before, cpu(), out.requests) };
}

/** µs of CPU a request from a process's CPU ms before and after `requests` requests (NaN when unknown or none). */
export function cpuPerRequestUs(beforeMs, afterMs, requests) {
  return requests > 0 ? ((afterMs - beforeMs) * 1000) / requests : NaN;
}
