// Loaded with `node --import`: records every module URL the process resolves, one a line, in the file
// named by MKT_MODULE_TRACE (the hooks run on their own thread, so they write the file themselves).
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(process.env.MKT_MODULE_TRACE ?? '/dev/null')}, resolved.url + '\\n');
  return resolved;
}
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, import.meta.url);
