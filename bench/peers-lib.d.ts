// Types of bench/peers-lib.js, for test/bench-peers.test.ts (the bench is plain JavaScript; the tests are typed).
/** One contender's figures on a page. */
export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  cpuUs: number;
  ratio: number;
}
/** One wrk round's figures and the server's CPU time a request, µs. */
export interface Run {
  rps: number;
  p50: number;
  p99: number;
  cpuUs: number;
}
/** The peers' npm packages and their pinned versions. */
export const PEER_PACKAGES: Record<string, string>;
/** What `node bench/peers.js --help` prints. */
export const USAGE: string;
/** Reads the command line. */
export function parseArgs(argv: string[]): { install: boolean; help: boolean };
/** WireMock's stub mappings for the pages. */
export function wiremockMappings(pages: { path: string; file: string }[]): {
  mappings: {
    request: { method: string; url: string };
    response: { status: number; bodyFileName: string; headers: Record<string, string> };
  }[];
};
/** Prism's OpenAPI document with a named example per page, and the names in the pages' order. */
export function prismDocument(pages: { path: string; page: unknown }[]): { doc: any; examples: string[] };
/** json-server's db and routes for the pages. */
export function jsonServerLayout(pages: { path: string; page: unknown }[]): { db: Record<string, unknown>; routes: Record<string, string> };
/** How an answer's body compares with the mock's bytes. */
export function compareBody(expected: Buffer, actual: Buffer): { same: boolean; note: string };
/** The median of a list of numbers. */
export function median(xs: number[]): number;
/** The CPU time (utime + stime, clock ticks) of a /proc/PID/stat line. */
export function statCpuTicks(stat: string): number;
/** One contender's figures from its rounds and the mock's of the same rounds. */
export function summarise(runs: Run[], mockRuns: Run[]): Figures;
/** A note on one answer: empty for the mock's bytes as application/json, else what differs. */
export function answerNote(body: { same: boolean; note: string }, contentType: string | undefined): string;
/** The markdown table. */
export function formatTable(pages: { label: string; rows: { name: string; figures: Figures | null; note: string }[] }[]): string;
