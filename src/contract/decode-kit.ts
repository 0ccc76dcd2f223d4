/**
 * The readers decode.ts builds its decoders from: strict ones for answers whose shape we define (the
 * offers), and liberal ones for the marketplace's resources, which accept a number sent as a decimal
 * string, any text where we know a list of values, and a field left out or null. Every reader returns
 * the value as it came: what a command prints is what was sent.
 */
import type { Open } from './schema-kit.js';

/** An answer without the shape the client relies on: `path` names the value, `problem` what is wrong with it. */
export class DecodeError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path} ${problem}`);
    this.name = 'DecodeError';
  }
}

/** A JSON object whose fields are yet to be checked. */
export type Json = { readonly [field: string]: unknown };
/** Reads one value at `path`, or throws DecodeError. */
export type Reader<T> = (value: unknown, path: string) => T;

/** A number as the marketplace may send it: a JSON number, or a decimal in a string (`"0.7812"`). */
export type Num = number | string;
/** Named fields `K` of a resource, each `T`, or left out, or null: a command that needs one says so itself. */
export type Fields<K extends string, T> = { readonly [P in K]?: T | null };

const kind = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'string' ? `'${v.slice(0, 40)}'` : typeof v;

/** A decimal number as text: what the payments answer sends its amounts as. */
const NUMBER_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** The number `v` stands for (a JSON number or a decimal string); undefined when it stands for none. */
export function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && NUMBER_TEXT.test(v)) {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/**
 * A JSON object, as it came: the answer's own object, which the client parsed for this call and holds nowhere else
 * (api/http.ts). A copy of each made parsing, reading and printing a page of listings ~35% slower than parsing and
 * printing it (the copy, and JSON.stringify slower on a copy than on what JSON.parse made): ~5% of `--all`'s CPU.
 */
export function record(v: unknown, path: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new DecodeError(path, `is not an object (got ${kind(v)})`);
  return v as Json;
}

// ---------------------------------------------------------------------------------------------
// Strict readers

export const num: Reader<number> = (v, p) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new DecodeError(p, `is not a number (got ${kind(v)})`);
  return v;
};
export const int: Reader<number> = (v, p) => {
  const n = num(v, p);
  if (!Number.isSafeInteger(n)) throw new DecodeError(p, `is not a whole number (got ${n})`);
  return n;
};
export const str: Reader<string> = (v, p) => {
  if (typeof v !== 'string') throw new DecodeError(p, `is not a string (got ${kind(v)})`);
  return v;
};
export const bool: Reader<boolean> = (v, p) => {
  if (typeof v !== 'boolean') throw new DecodeError(p, `is not true or false (got ${kind(v)})`);
  return v;
};
export const optional =
  <T>(r: Reader<T>): Reader<T | undefined> =>
  (v, p) =>
    v === undefined ? undefined : r(v, p);
export const list =
  <T>(r: Reader<T>): Reader<T[]> =>
  (v, p) => {
    if (!Array.isArray(v)) throw new DecodeError(p, `is not an array (got ${kind(v)})`);
    return v.map((x: unknown, i) => r(x, `${p}[${i}]`));
  };

/** One reader per named field of `T`. */
export type Table<T> = { readonly [K in keyof T]-?: Reader<T[K]> };

/** Reads every named field of `T` with its reader; fields beyond them are kept as they came. */
export function shape<T extends object>(table: Table<T>): Reader<T & Open> {
  return (v, p) => {
    const o = record(v, p);
    for (const key of Object.keys(table)) {
      const read: Reader<unknown> = table[key as keyof T];
      read(o[key], `${p}.${key}`);
    }
    // Every named field was read by its reader just above, which is what this widening stands for.
    return o as T & Open;
  };
}

// ---------------------------------------------------------------------------------------------
// Liberal readers: a field may be left out or null; a value present is read as the marketplace sends it.

/** A number, or a decimal in a string. */
export const amount: Reader<Num> = (v, p) => {
  if (toNumber(v) === undefined) throw new DecodeError(p, `is not a number (got ${kind(v)})`);
  return v as Num;
};
/** Text, whatever list of values we know for it (`N/A`, a new status): shown as sent. */
export const text: Reader<string> = str;
/** True or false. */
export const flag: Reader<boolean> = bool;
/** An id sent as a number or as text. */
export const ident: Reader<Num> = (v, p) => (typeof v === 'string' ? v : amount(v, p));

/** Readers of the named fields a command may use, by field. */
export type LooseTable = Readonly<Record<string, Reader<unknown>>>;

/**
 * A resource whose named fields are each read by their reader when present and not null, the rest
 * kept as they came. `T` must give each named field its reader's type, optional and nullable.
 */
export function looseShape<T extends object>(table: LooseTable): Reader<T & Open> {
  const fields = Object.entries(table);
  return (v, p) => {
    const o = record(v, p);
    for (const [key, read] of fields) {
      if (o[key] !== undefined && o[key] !== null) read(o[key], `${p}.${key}`);
    }
    // Every named field present was read just above; the type says each may be missing or null.
    return o as T & Open;
  };
}

/** A table giving every field of `keys` the reader `r`. */
export const each = (keys: readonly string[], r: Reader<unknown>): LooseTable => Object.fromEntries(keys.map((k) => [k, r]));
