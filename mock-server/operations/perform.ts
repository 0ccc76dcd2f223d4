/**
 * The one way an operation reaches the world: `perform` runs it now, live, and `replayOperation` runs a
 * recorded one again (the operation log's replay and rollback). Both hold the clock at the operation's
 * instant, bring the world up to it once, and apply it (apply.ts); perform also asks the world's
 * durability first and records the operation in it after, failed or not.
 */
import { Secrets } from '../kit/entropy.js';
import type { OpRecord } from '../durability/log-folder.js';
import { applyOperation } from './apply.js';
import type { Operation, OperationHost, OperationResult } from './operation.js';
import { fromRecord, isOperationRecord, toRecord } from './records.js';

/**
 * Runs `op` now: the clock held at one instant, the world synced to it, the operation applied, and then recorded
 * by the world's durability (when it keeps one), failed or not: a failure may have changed the world too (an ORD
 * rejection sends an email). Returns what the operation answers; throws its error, or the 503 while the world's
 * changes cannot be kept (nothing is changed then).
 */
export function perform<O extends Operation>(host: OperationHost, op: O): OperationResult<O> {
  host.durability.checkWritable();
  const t = host.clock.now();
  const secrets = Secrets.live();
  const run = host.clock.holding(t, (): { value: OperationResult<O> } | { error: unknown } => {
    host.engine.sync();
    try {
      return { value: applyOperation(host, op, secrets) };
    } catch (error) {
      return { error };
    }
  });
  host.engine.changed();
  host.durability.record(toRecord(op, t, secrets.drawn));
  if ('error' in run) throw run.error;
  return run.value;
}

/**
 * Runs recorded operation `record` again at its time, handing back the secrets it drew (`secrets`); the caller
 * holds the clock there and has synced the world. An operation that failed when it was made fails again here,
 * changing what it changed then, and its error is dropped. False for a kind this mock does not know.
 */
export function replayOperation(host: OperationHost, record: OpRecord, secrets: Secrets): boolean {
  if (!isOperationRecord(record)) return false;
  try {
    applyOperation(host, fromRecord(record), secrets);
  } catch {
    // Failed then too (see above).
  }
  return true;
}
