import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { answerCheckEnv, BIN, tempHome } from './helpers/cli.js';

/** Runs `mkt demo` with stdout and stderr on one pipe, so each step's output follows its command as a user sees it. */
function demo(): Promise<{ code: number | null; text: string }> {
  return new Promise((done, fail) => {
    const home = tempHome();
    const child = spawn('sh', ['-c', `exec "${process.execPath}" "${BIN}" demo --listings 600 2>&1`], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...answerCheckEnv() },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (text += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 80_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, text });
    });
  });
}

describe('mkt demo', () => {
  it('walks the whole story against the embedded mock and exits 0; every step it shows prints something', async () => {
    const { code, text } = await demo();
    expect(code, text).toBe(0);
    expect(text).toContain('$ mkt login --no-browser');
    expect(text).toMatch(/order 1\/1 accepted: [0-9a-f-]{36}/);
    expect(text).toContain('refusing 5 bids that could place money twice');
    expect(text).toContain('Demo finished');
    expect(text).toMatch(/INVESTED|EXPIRED/);
    expect(text).toContain('available_cash_balance');
    expect(text).not.toContain('MaxListenersExceededWarning');
    // Each `$ mkt …` line is followed by some output before the next step or command.
    const steps = text.split(/^(?=\$ mkt |▶ |✔ )/m).filter((s) => s.startsWith('$ mkt '));
    expect(steps.length).toBeGreaterThan(10);
    for (const step of steps)
      expect(step.split('\n').slice(1).join('\n').trim(), `nothing printed by: ${step.split('\n')[0]}`).not.toBe('');
    // What the README promises the demo explains.
    expect(text).toContain('The demo registers its own OAuth client, mkt-demo-cli, with a one-time secret');
    expect(text).toContain('waits until processed by default');
    const held = /alice already holds notes in (\d+) loans: the seeded history/.exec(text);
    expect(Number(held?.[1])).toBeGreaterThan(0);
    expect(text).toMatch(
      new RegExp(`from this demo's bids: loans \\d+(, \\d+)*; the other ${held![1]} alice already held before the demo`),
    );
    // Nothing in the demo asks for a paste: it plays the browser itself.
    expect(text).not.toContain('paste it here');
  }, 90_000);
});
