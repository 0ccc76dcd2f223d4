/**
 * In-process mocks on `--state` folders for the operation log's tests: each test's mocks are closed after it (a
 * clean stop or a crash taken by the test lets its mock go first), and a world's digest as a restart would read it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { MockApp } from '../../mock-server/app.js';
import { serializeState } from '../../mock-server/world/persistence.js';
import { makeApp } from '../engine-fixture.js';

type AppOptions = Parameters<typeof makeApp>[0];

/** Mocks on folders made under the temporary directory with `prefix`, each with `defaults` (and a start's `extra`). */
export function stateApps(prefix: string, defaults: AppOptions) {
  const open: MockApp[] = [];
  afterEach(async () => {
    for (const a of open.splice(0)) await a.close?.().catch(() => undefined);
  });
  const letGo = (app: MockApp): void => void open.splice(open.indexOf(app), 1);
  return {
    /** A new, empty state folder's path. */
    folder: (): string => join(mkdtempSync(join(tmpdir(), prefix)), 'world'),
    /** A mock started on `dir`. */
    start(dir: string, extra: AppOptions = {}): MockApp {
      const app = makeApp({ stateFile: dir, ...defaults, ...extra });
      open.push(app);
      return app;
    },
    /** A clean stop (a base snapshot, the folder let go). */
    async stop(app: MockApp): Promise<void> {
      await app.close?.();
      letGo(app);
    },
    /** As kill -9 leaves it: nothing more written, the folder let go. */
    crash(app: MockApp): void {
      app.ctx.engine.abandon();
      letGo(app);
    },
  };
}

/** The world of `app`, settled, as its state text. */
export function worldDigest(app: MockApp): string {
  app.ctx.engine.settle();
  return serializeState(app.ctx.world, app.ctx.clock.now());
}
