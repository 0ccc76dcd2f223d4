/**
 * A CommonJS package, or a package's CommonJS build, loaded when a command first needs it: with `require`, not
 * `import()`. The first `import()` of a run starts Node's ES module loader, 6-12 ms of the run's CPU, in a process
 * that otherwise runs CommonJS bundles (measured; docs/performance.md, session 32).
 */
import { createRequire } from 'node:module';

/** Requires `id` from this package's node_modules; `T` is the caller's word for what it exports. */
export function requireCommonJs<T>(id: string): T {
  return createRequire(import.meta.url)(id) as T;
}
