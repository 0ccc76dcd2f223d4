/**
 * The two pieces of undici the client uses — the keep-alive Agent and the `request` API — loaded
 * from their own modules. undici's index also loads fetch, WebSocket, caches and mocks, which
 * doubles the start-up cost of every command that talks HTTP (bench/run.js measures it).
 * The version is pinned by the lockfile; test/http-client.test.ts exercises this path.
 */
import { createRequire, Module } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type { Agent as AgentType, Dispatcher } from 'undici';

const require = createRequire(import.meta.url);

// undici's Client requires its HTTP/2 half (client-h2.js) up front, and with it Node's http2, tls and
// crypto: about a third of all undici costs at start-up (bench/run.js), for a protocol it only speaks when
// a dispatcher sets `allowH2` and TLS agrees on h2, which ours never does (ALPN offers http/1.1 alone).
// So the module is stood in for by a function that loads the real one the first time it is called: the
// same behaviour, paid for only by a connection that needs it. test/cli-startup-lean.e2e.test.ts checks
// that a search loads neither file nor node:http2.
const H2_PATH = require.resolve('undici/lib/dispatcher/client-h2.js');
if (require.cache[H2_PATH] === undefined) {
  let connectH2: ((...args: unknown[]) => unknown) | undefined;
  const standIn = new Module(H2_PATH);
  standIn.filename = H2_PATH;
  standIn.loaded = true;
  standIn.exports = function lazyConnectH2(...args: unknown[]): unknown {
    if (connectH2 === undefined) {
      delete require.cache[H2_PATH];
      connectH2 = require(H2_PATH) as (...a: unknown[]) => unknown;
    }
    return connectH2(...args);
  };
  require.cache[H2_PATH] = standIn;
}

/** undici's keep-alive connection pool. */
export const Agent = require('undici/lib/dispatcher/agent.js') as typeof AgentType;

const apiRequest = require('undici/lib/api/api-request.js') as (
  this: Dispatcher, opts: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

// undici parses HTTP with llhttp compiled to WebAssembly, on the first connection. V8 optimises that
// module on background threads, and Node waits for those jobs before a process may exit: 100-300 ms
// added to every short-lived command for a handful of responses. The baseline compiler is plenty for
// a CLI. Set only now, after undici and the Node modules it needs (http, net) are loaded:
// changing a V8 flag makes V8 refuse the code caches compiled under the old ones, so every module
// loaded afterwards is compiled from source (loading undici cost twice as much with the flag set first).
setFlagsFromString('--liftoff-only');

/** Sends one request through `dispatcher` (undici's `request`, without the full package index). */
export function request(dispatcher: Dispatcher, url: URL, opts: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>): Promise<Dispatcher.ResponseData> {
  return apiRequest.call(dispatcher, { ...opts, origin: url.origin, path: `${url.pathname}${url.search}` });
}
