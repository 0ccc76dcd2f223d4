// The load hook of record-modules.mjs: appends each module's URL to the file it was given.
import { appendFileSync } from 'node:fs';

let out;

export function initialize(data) {
  out = data.out;
}

export async function load(url, context, next) {
  appendFileSync(out, `${url}\n`);
  return next(url, context);
}
