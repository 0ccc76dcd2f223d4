/**
 * An operation as the operation log records it, and back: the one place the typed `Operation` meets the
 * record format on disk. The format is the one logs have always had, field for field and in the same
 * order (`{"t","k", …fields, "s"}`, one-letter keys), so a folder written by an earlier mock replays
 * unchanged and a folder written now opens in one: `t` is the operation's time and `s` the secrets it
 * drew (both written by perform.ts); the fields of each kind are below.
 *
 * | kind | fields |
 * |---|---|
 * | order | `a` account, `b` body text, `d` delay in ms (absent: DEFAULT_PROCESS_DELAY_MS) |
 * | process, outbox-clear | none |
 * | listing | `n` listing number, `action` |
 * | add-listing | `b` the fields as JSON |
 * | grant | `c` client, `a` account, `sc` scopes |
 * | token | `f` the form's text |
 * | offers | `b` the body as JSON, `o` the origin |
 */
import { DEFAULT_PROCESS_DELAY_MS } from '../engine/engine.js';
import type { OpRecord } from '../durability/log-folder.js';
import type { Operation, OperationKind, OperationOf } from './operation.js';

/** The fields of a record besides its time, kind and secrets. */
type Fields = Record<string, unknown>;

/** How one kind is written and read. Reading is as lenient as the earlier mock's appliers were: a field is taken as text or number as they took it. */
interface RecordForm<K extends OperationKind> {
  write(op: OperationOf<K>): Fields;
  read(r: OpRecord): OperationOf<K>;
}

const text = (r: OpRecord, field: string): string => String(r[field]);

/** Every kind's form (a kind missing here is a compile error). */
const FORMS: { readonly [K in OperationKind]: RecordForm<K> } = {
  order: {
    write: (op) => ({ a: op.account, b: op.body, ...(op.delayMs !== DEFAULT_PROCESS_DELAY_MS ? { d: op.delayMs } : {}) }),
    read: (r) => ({
      kind: 'order',
      account: text(r, 'a'),
      body: text(r, 'b'),
      delayMs: typeof r.d === 'number' ? r.d : DEFAULT_PROCESS_DELAY_MS,
    }),
  },
  process: { write: () => ({}), read: () => ({ kind: 'process' }) },
  listing: {
    write: (op) => ({ n: op.listing, action: op.action }),
    read: (r) => ({ kind: 'listing', listing: Number(r.n), action: text(r, 'action') }),
  },
  'add-listing': { write: (op) => ({ b: op.fields }), read: (r) => ({ kind: 'add-listing', fields: r.b }) },
  'outbox-clear': { write: () => ({}), read: () => ({ kind: 'outbox-clear' }) },
  grant: {
    write: (op) => ({ c: op.client, a: op.account, sc: op.scopes }),
    // Not an array: the operation fails on replay, as it did in the earlier mock's applier.
    read: (r) => ({ kind: 'grant', client: text(r, 'c'), account: text(r, 'a'), scopes: (r.sc as unknown[]).map(String) }),
  },
  token: { write: (op) => ({ f: op.form }), read: (r) => ({ kind: 'token', form: text(r, 'f') }) },
  offers: { write: (op) => ({ b: op.body, o: op.origin }), read: (r) => ({ kind: 'offers', body: r.b, origin: text(r, 'o') }) },
};

/** Whether record `r` is of an operation this mock knows (not a time mark or a base record, nor a kind of a later mock). */
export function isOperationRecord(r: OpRecord): r is OpRecord & { k: OperationKind } {
  return Object.hasOwn(FORMS, r.k);
}

/** `op` as a record at time `t`, with the secrets it drew (none: no `s`). */
export function toRecord(op: Operation, t: number, drawn: readonly string[]): OpRecord {
  const form = FORMS[op.kind] as RecordForm<OperationKind>;
  return { t, k: op.kind, ...form.write(op), ...(drawn.length > 0 ? { s: [...drawn] } : {}) };
}

/** The operation record `r` holds (its kind known: isOperationRecord); throws when a field cannot be read as the kind needs. */
export function fromRecord(r: OpRecord & { k: OperationKind }): Operation {
  return FORMS[r.k].read(r);
}
