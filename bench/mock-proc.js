// Shared by the bench scripts: start `mkt mock serve` as a child process, get a real token, read its RSS.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bin = join(root, 'bin', 'mkt.cjs');

/** Spawns a node server that prints `listening on http://127.0.0.1:PORT`; resolves with the child, its origin and its start time (ms). */
export function startServer(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${args.at(-1)} did not start within 60 s`));
    }, 60_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, origin: m[1], startMs: Number(process.hrtime.bigint() - started) / 1e6 });
      }
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
}

/**
 * Stops a server started here (`startServer`, `startMock`) and waits until it has exited: SIGTERM, then SIGKILL after
 * `graceMs`; at once for one that exited already. The next figure is then taken without it (a mock of a million listings
 * still exiting, or two mocks at once, slow each other's figures on a small machine).
 */
export async function stopServer({ child }, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * The flag that turns the mock's throttle off (on by default, as the service: 20 listings requests a second per
 * token, …): passed by each bench that sends past the limits by design, to measure the mock, not the limits.
 */
export const UNTHROTTLED = ['--rate-limit', 'off'];

/** Starts `mkt mock serve` on a free port (frozen clock, alice auto-approved); `mktBin` another build's bin for a before figure. */
export function startMock(listings, extraArgs = [], nodeArgs = [], mktBin = bin) {
  return startServer([
    ...nodeArgs,
    mktBin,
    'mock',
    'serve',
    '--port',
    '0',
    '--listings',
    String(listings),
    '--frozen',
    '--auto-approve',
    'alice',
    ...extraArgs,
  ]);
}

/**
 * A real access token from the mock: the auth-key redirect (auto-approved) and the token endpoint. `send` asks the
 * mock (a fetch over HTTP; bench/request-cpu.js asks its mock in-process).
 */
export async function accessToken(origin, send = fetch) {
  const res = await send(`${origin}/oauth?client_id=mkt-demo&response_type=auth_key&state=bench`, { redirect: 'manual' });
  const key = new URL(res.headers.get('location')).searchParams.get('auth_key');
  const form = new URLSearchParams({
    grant_type: 'authorization_key',
    client_id: 'mkt-demo',
    client_secret: 'mkt-demo-secret',
    auth_key: key,
  });
  const tok = await send(`${origin}/v1/security/oauth/token`, { method: 'POST', body: form, headers: { accept: 'application/json' } });
  return (await tok.json()).access_token;
}

/** Resident memory of a process, MiB (Linux /proc). */
export function rssMiB(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/**
 * CPU time (user + system) of process `pid` so far, ms (Linux /proc, ticks of 10 ms; NaN where there is none):
 * steadier than wall time on a shared machine.
 */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** The median of a list of numbers. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
