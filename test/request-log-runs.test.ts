/**
 * The request log keeps which token-shaped runs a text holds (a client sends the same header values again
 * and again), never which of them were live tokens: a token that comes alive after its text was first seen is
 * still found, and taken out of what the entry shows once it is gone from the world.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RequestLog, type RequestLogHost } from '../mock-server/request-log/request-log.js';

/** A host whose live tokens the test sets (no few-secret list). */
function hostWith(live: Map<string, { kind: string; accountId: string | null }>): RequestLogHost {
  return { virtualNow: () => 0, tokens: live, gatherFew: (_few, from) => from };
}

const TOKEN = { kind: 'access', accountId: null };

function record(log: RequestLog, note: string): void {
  log.record(log.arrive(undefined), { method: 'GET', path: '/v1/x', search: '', headers: { 'x-note': note }, bodyText: null, status: 200 });
}

describe('the request log’s kept runs', () => {
  it('finds a token that came alive after its text was first seen, and hides it once it is gone', () => {
    const live = new Map<string, typeof TOKEN>();
    const log = new RequestLog(hostWith(live), 10, () => 0);
    // Lower case only: not shaped like a random credential, so only the record-time scan knows it is secret.
    const note = 'hello plaintokenvalue1';
    record(log, note);
    live.set('plaintokenvalue1', TOKEN);
    record(log, note);
    live.clear();
    const [second, first] = log.list(10).result;
    expect(second!.headers['x-note']).toBe('hello ***');
    expect(first!.headers['x-note']).toBe(note);
  });

  it('shows every entry as a request log that never saw the text before would (texts asked again, tokens coming and going)', () => {
    const runs = ['plaintokenvalue1', 'plaintokenvalue2', 'another-run-3'];
    const text = fc.constantFrom(
      'hello plaintokenvalue1',
      'plaintokenvalue2 and plaintokenvalue1',
      'bearer another-run-3',
      'short',
      'x'.repeat(310),
    );
    const step = fc.record({ text, live: fc.subarray(runs) });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), fc.subarray(runs), (steps, atRead) => {
        const live = new Map<string, typeof TOKEN>();
        const log = new RequestLog(hostWith(live), 64, () => 0);
        const fresh = steps.map(() => new RequestLog(hostWith(live), 1, () => 0));
        steps.forEach((s, i) => {
          live.clear();
          for (const r of s.live) live.set(r, TOKEN);
          record(log, s.text);
          record(fresh[i]!, s.text);
        });
        live.clear();
        for (const r of atRead) live.set(r, TOKEN);
        const shown = log
          .list(64)
          .result.reverse()
          .map((e) => e.headers);
        expect(shown).toEqual(fresh.map((f) => f.list(1).result[0]!.headers));
      }),
      { numRuns: 60 },
    );
  });

  it('reads the account of each request from the token live then, the same header asked again or not', () => {
    const live = new Map<string, { kind: string; accountId: string | null }>([
      ['plaintoken-a', { kind: 'access', accountId: 'a-1' }],
      ['plaintoken-b', { kind: 'access', accountId: 'b-1' }],
    ]);
    const log = new RequestLog(hostWith(live), 10, () => 0);
    const seen = { method: 'GET', path: '/v1/x', search: '', headers: {}, bodyText: null, status: 200 };
    const accounts: (string | null)[] = [];
    for (const [header, change] of [
      ['bearer plaintoken-a', () => undefined],
      ['bearer plaintoken-a', () => live.delete('plaintoken-a')],
      ['bearer plaintoken-b', () => undefined],
      ['Bearer  plaintoken-b ', () => undefined],
      ['basic plaintoken-b', () => undefined],
      ['bearer plaintoken-a', () => live.set('plaintoken-a', { kind: 'refresh', accountId: 'a-1' })],
    ] as const) {
      change();
      log.record(log.arrive(header), seen);
      accounts.push(log.list(1).result[0]!.account);
    }
    expect(accounts).toEqual(['a-1', null, 'b-1', 'b-1', null, null]);
  });
});
