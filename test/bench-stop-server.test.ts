// The bench's servers are stopped and waited for before the next figure is taken (bench/mock-proc.js stopServer): one
// still exiting, or one that ignores SIGTERM, would share the machine with the next measurement.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { stopServer } from '../bench/mock-proc.js';

/** The children of a test, killed after it whatever happened (a failed test must not leave one running). */
const started: ChildProcess[] = [];
afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** A node child that says "ready" once its SIGTERM handler (if any) is set. */
async function child(onTerm: string): Promise<ChildProcess> {
  const c = spawn(process.execPath, ['-e', `${onTerm}; setInterval(() => {}, 1000); console.log('ready')`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.push(c);
  await once(c.stdout!, 'data');
  return c;
}

describe('stopServer', () => {
  it('returns once the server has exited on SIGTERM', async () => {
    const c = await child("process.on('SIGTERM', () => setTimeout(() => process.exit(3), 200))");
    await stopServer({ child: c });
    // Exited by itself, after its own 200 ms of stopping: stopServer waited for it.
    expect(c.exitCode).toBe(3);
  });

  it('kills a server that ignores SIGTERM after the grace, and returns once it is gone', async () => {
    const c = await child("process.on('SIGTERM', () => {})");
    await stopServer({ child: c }, 300);
    expect(c.signalCode).toBe('SIGKILL');
  });

  it('returns at once for a server that exited already', async () => {
    const c = await child('');
    c.kill('SIGKILL');
    await once(c, 'exit');
    await stopServer({ child: c });
    expect(c.signalCode).toBe('SIGKILL');
  });
});
