#!/usr/bin/env node
// Thin bin: run main and hand its exit code to the process.
import module from 'node:module';

// Node ≥ 22.1 keeps the compiled code of mkt and its dependencies between runs (a V8 code cache in the
// temporary directory), which shortens every start; Node 20 has no such cache. main is imported after it,
// so that main's own modules are cached too.
module.enableCompileCache?.();
const { main } = await import('../dist/src/main.js');

process.exitCode = await main(process.argv.slice(2));
