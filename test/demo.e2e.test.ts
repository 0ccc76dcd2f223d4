import { describe, expect, it } from 'vitest';
import { runMkt } from './helpers/cli.js';

describe('mkt demo', () => {
  it('walks the whole story against the embedded mock and exits 0', async () => {
    const r = await runMkt(['demo', '--listings', '600'], { timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('$ mkt login --no-browser');
    expect(r.stderr).toMatch(/order 1\/1 accepted: [0-9a-f-]{36}/);
    expect(r.stderr).toContain('refusing 5 bids that could place money twice');
    expect(r.stderr).toContain('Demo finished');
    expect(r.stdout).toMatch(/INVESTED|EXPIRED/);
    expect(r.stdout).toContain('available_cash_balance');
    expect(r.stderr).not.toContain('MaxListenersExceededWarning');
  }, 90_000);
});
