/**
 * What `mkt mock serve` hosts the mock with, in Node: the app with every option of the server (the --state
 * folder, webhooks, --from-snapshot, …: context.ts `MockOptions`), its HTTP adapter with the admin token, load
 * limits and allowed hosts, and the start banner (the proxy has its own entry, proxy.ts, and loads none of it). Not in
 * package.json's `exports`: a program embedding the mock takes `mkt/mock` (index.ts, node.ts); this is the
 * CLI's way in, so that `src/` reaches the mock through this folder alone (test/import-cycles.test.ts).
 */
export { answerCheckOption, createMockApp, snapshotOption, type MockApp } from '../app.js';
export { startHttpServer, type RunningServer, type ServerOptions } from '../http-adapter.js';
export { describeMock } from '../describe.js';
export { ArrivalsThread } from '../engine/arrivals-thread.js';
