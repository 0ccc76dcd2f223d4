// bench/request-cpu.js, run as `npm run bench` runs it (small): the mock's HTTP server and a bare node:http server
// each fed one request through an in-memory socket; both answer the same page, and the figure is per request.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '../bench/request-cpu.js');
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('bench/request-cpu.js', () => {
  it('measures the mock and node:http answering the same page, a figure a round', () => {
    const small = ['--listings', '500', '--requests', '300', '--rounds', '3'];
    const figures = ['mock', 'http'].map((server) => {
      const r = run(server, ...small);
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout.trim()) as { server: string; usPerRequest: number; rounds: number[]; bytes: number };
    });
    const [mock, http] = figures;
    expect(mock!.server).toBe('mock');
    expect(http!.server).toBe('http');
    for (const f of figures) {
      expect(f.rounds).toHaveLength(3);
      expect(f.usPerRequest).toBeGreaterThan(0);
      expect(f.rounds).toContain(f.usPerRequest);
    }
    // A page of 25 listings, the same bytes from both (the floor answers what the mock answered).
    expect(mock!.bytes).toBeGreaterThan(10_000);
    expect(http!.bytes).toBe(mock!.bytes);
  }, 60_000);

  it('names a server it does not know', () => {
    const r = run('nginx');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("'nginx' is neither mock nor http");
  });
});
