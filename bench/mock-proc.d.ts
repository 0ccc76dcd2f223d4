// Types of bench/mock-proc.js for the tests that import it (test/bench-stop-server.test.ts).
import type { ChildProcess } from 'node:child_process';

/** Stops a server started by the bench (SIGTERM, then SIGKILL after `graceMs`) and waits until it has exited. */
export function stopServer(server: { child: ChildProcess }, graceMs?: number): Promise<void>;
