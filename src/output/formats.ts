/**
 * The output formats and how one is chosen, apart from the renderers: the root command's `-o` and the
 * settings check need the names at start-up, and the renderers load only when there is output.
 */
import { UsageError } from '../errors.js';

export const FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

/** The format to use: the flag, else table on a terminal and json otherwise. */
export function resolveFormat(flag: string | undefined, isTTY: boolean): Format {
  if (flag === undefined) return isTTY ? 'table' : 'json';
  if (!(FORMATS as readonly string[]).includes(flag)) throw new UsageError(`--output must be one of ${FORMATS.join(', ')}, got '${flag}'`);
  return flag as Format;
}
