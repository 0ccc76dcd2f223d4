// Loaded with `node --import` by test/cli-startup-lean.e2e.test.ts: records every module the process loads,
// one a line, in the file named by MKT_RECORD_MODULES. ES modules are seen by a load hook (it runs on the
// hooks thread, record-modules-hooks.mjs); CommonJS ones (commander, undici's parts) are read from the
// require cache at exit, and Node's own modules, which a CommonJS `require` loads unseen by either, from
// process.moduleLoadList at exit, as `builtin:NAME` lines (`builtin:http2`).
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const out = process.env.MKT_RECORD_MODULES;
if (!out) throw new Error('MKT_RECORD_MODULES names the file to record loaded modules in');
register('./record-modules-hooks.mjs', import.meta.url, { data: { out } });
const cache = createRequire(import.meta.url).cache;
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => `builtin:${m.slice(13)}`);
  appendFileSync(out, [...Object.keys(cache), ...builtins].map((p) => `${p}\n`).join(''));
});
