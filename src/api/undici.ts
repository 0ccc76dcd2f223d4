/**
 * The two pieces of undici the client uses — the keep-alive Agent and the `request` API — imported
 * from their own modules. undici's index also loads fetch, WebSocket, caches and mocks, which
 * doubles the start-up cost of every command that talks HTTP (bench/run.js measures it).
 * The version is pinned by the lockfile; test/http-client.test.ts exercises this path.
 *
 * In the bundle the bin runs (scripts/bundle.mjs) these modules are part of dist/bundle/client.cjs, and
 * undici's HTTP/2 client (client-h2.js, with Node's http2, tls and crypto) is loaded only when a
 * connection speaks h2, which ours never does (ALPN offers http/1.1 alone): test/cli-startup-lean.e2e.test.ts.
 */
import type { Agent as AgentType, Dispatcher } from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import apiRequest from 'undici/lib/api/api-request.js';
import { setV8Flags } from '../os/v8-flags.js';

/** undici's keep-alive connection pool. */
export const Agent: typeof AgentType = AgentClass;

/** Whether --liftoff-only is set in this process (once, before its first request). */
let baselineOnly = false;

/**
 * undici parses HTTP with llhttp compiled to WebAssembly, on the first connection. V8 optimises that
 * module on background threads, and Node waits for those jobs before a process may exit: 100-300 ms
 * added to every short-lived command for a handful of responses (on Node 20 a listings search costs 1.8x
 * the CPU without the flag). The baseline compiler is plenty for a CLI. Set only before the first request,
 * after undici, the Node modules it needs (http, net) and the command's own are loaded: changing a V8 flag
 * makes V8 refuse the code caches compiled under the old ones, so every module loaded afterwards is compiled
 * from source (loading undici cost twice as much with the flag set first: src/os/v8-flags.ts).
 */
function baselineWasm(): void {
  if (baselineOnly) return;
  baselineOnly = true;
  setV8Flags('--liftoff-only');
}

/** Sends one request through `dispatcher` (undici's `request`, without the full package index). */
export function request(
  dispatcher: Dispatcher,
  url: URL,
  opts: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>,
): Promise<Dispatcher.ResponseData> {
  baselineWasm();
  return apiRequest.call(dispatcher, { ...opts, origin: url.origin, path: `${url.pathname}${url.search}` });
}
