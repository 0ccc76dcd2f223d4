/**
 * The notes and their payments, read from the marketplace: every note (GET /notes/), then the payments
 * of their loans (GET /loans/payments, a batch of loan numbers at a time), apportioned to each note.
 * Shared by `mkt portfolio` and `mkt statement`.
 */
import { BadAnswerError } from '../api/errors.js';
import type { ApiClient } from '../api/client.js';
import { listAll as allNotes } from '../api/notes.js';
import { listAll as allPayments, paymentsQuery } from '../api/payments.js';
import { DecodeError } from '../contract/decode.js';
import { noteFigures, type NoteFigures } from './figures.js';
import { noteLedgers, type NoteLedger } from './note-ledger.js';
import { readRow, type FlowRow } from './payment-rows.js';

/** Loan numbers a request names: a URL of a few hundred characters, well within any server's limit. */
const LOANS_PER_REQUEST = 40;

/** A decoding failure of the answer `what` as the answer's fault (exit 5, naming the field); anything else as it is. */
export function readable<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw err instanceof DecodeError ? new BadAnswerError(what, err) : err;
  }
}

/** Every note of the caller, as the report reckons with them. */
export async function readNotes(client: ApiClient): Promise<NoteFigures[]> {
  const notes: NoteFigures[] = [];
  for await (const n of allNotes(client, new URLSearchParams())) {
    notes.push(readable('note list', () => noteFigures(n, `note ${n.loan_note_id ?? notes.length + 1}`)));
  }
  return notes;
}

/** Every payment row of `loans` that moved money. */
export async function readPayments(client: ApiClient, loans: readonly number[]): Promise<FlowRow[]> {
  const rows: FlowRow[] = [];
  const unique = [...new Set(loans.filter((n) => n > 0))];
  for (let i = 0; i < unique.length; i += LOANS_PER_REQUEST) {
    for await (const p of allPayments(client, paymentsQuery(unique.slice(i, i + LOANS_PER_REQUEST)))) {
      const row = readRow(p);
      if (row) rows.push(row);
    }
  }
  return rows;
}

/** The notes and each one's payments. */
export async function readLedgers(client: ApiClient): Promise<NoteLedger[]> {
  const notes = await readNotes(client);
  const rows = await readPayments(
    client,
    notes.map((n) => n.loan_number),
  );
  return noteLedgers(notes, rows);
}
