/**
 * The building blocks of the contract's JSON Schemas (resources.ts): value kinds with the bounds the
 * spec gives them, closed lists, and how a resource holds its dates (text on the wire, epoch ms in the mock).
 */
import { Type, type TSchema } from '@sinclair/typebox';

/** Fields beyond those a resource names: kept as they came, for printing. */
export type Open = { [field: string]: unknown };

/** `T` with the fields `K` optional: the client reads one type for answers that carry them or not. */
export type Loose<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

// ---------------------------------------------------------------------------------------------
// Building blocks

/** A schema that also takes null. */
export const nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});
/** A closed list of strings; the TS type stays `string` (the values are a contract of the mock, open to the client). */
export const stringIn = (values: readonly string[], description?: string) =>
  Type.String({ enum: [...values], ...(description ? { description } : {}) });
/** A closed list of whole numbers, given as the keys of a code table. */
export const codeIn = (table: Readonly<Record<number, string>>, description?: string) =>
  Type.Integer({ enum: Object.keys(table).map(Number), ...(description ? { description } : {}) });
export const stringOf = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
export const strict = { additionalProperties: false } as const;

/** Money in dollars (decimal), never below 0. */
export const Money = Type.Number({ minimum: 0 });
/** A rate or yield as a fraction (0.15 is 15%). */
export const Rate = Type.Number();
/** A share of a whole, 0 to 1 (percent_funded is a fraction since the 12/15/2015 release). */
export const Fraction = Type.Number({ minimum: 0, maximum: 1 });
export const Int = Type.Integer();
/** A count of things, months or days. */
export const Count = Type.Integer({ minimum: 0 });

/** `yyyy-MM-dd HH:mm:ss ±hhmm`: a date-time as the API writes it (the request's `timezone`, or +0000). */
export const DateTimeText = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} [+-]\\d{4}$',
  description: 'yyyy-MM-dd HH:mm:ss ±hhmm',
});
/** `yyyy-MM-dd`. */
export const DateText = Type.String({ format: 'date', description: 'yyyy-MM-dd' });
/** Epoch milliseconds on the mock's virtual clock. */
export const EpochMs = Type.Number();

/** How a resource holds its dates: the wire's text, or the mock's epoch ms. */
export interface DateSchemas<DT extends TSchema = TSchema, D extends TSchema = TSchema> {
  dateTime: DT;
  date: D;
}
/** Dates as the API sends them. */
export const WIRE_DATES = { dateTime: DateTimeText, date: DateText };
/** Dates as the mock keeps them. */
export const EPOCH_DATES = { dateTime: EpochMs, date: EpochMs };
/** The date schemas for a date held as `D`: `number` in the mock, `string` on the wire. */
export type DatesFor<D> = D extends number ? typeof EPOCH_DATES : typeof WIRE_DATES;
