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

/** Every payment row of `loans` that moved money; from the day `since` (`yyyy-MM-dd`, the answers' zone) on when given. */
export async function readPayments(client: ApiClient, loans: readonly number[], since?: string): Promise<FlowRow[]> {
  const rows: FlowRow[] = [];
  const unique = [...new Set(loans.filter((n) => n > 0))];
  for (let i = 0; i < unique.length; i += LOANS_PER_REQUEST) {
    for await (const p of allPayments(client, paymentsQuery(unique.slice(i, i + LOANS_PER_REQUEST), since))) {
      const row = readRow(p);
      if (row) rows.push(row);
    }
  }
  return rows;
}

const DAY = 86_400_000;

/**
 * The payment rows of a growing set of loans read again and again (`mkt invest simulate`'s month ends), each read asking
 * only for what is new: a loan seen at the last read, for its payments from the day after that read; a loan not seen
 * then, for all of them. For a client that sends no time zone (its days are UTC), and a last read at the last instant
 * of its day, as a month end is: the payments of that day and before were all in it, and a payment is never dated
 * before the time it was made. Any other last read is followed by a read of everything. The rows of each loan come
 * newest first, as one read of everything gives them (the newer reads' rows before the older).
 */
export class PaymentsSoFar {
  private rows: FlowRow[] = [];
  private readonly loans = new Set<number>();
  /** The day the next read asks from, or null: read everything. */
  private next: string | null = null;

  /** Every payment row of `loans` (those of the last read among them) that moved money, read at the marketplace's time `at`. */
  async read(client: ApiClient, loans: readonly number[], at: number): Promise<FlowRow[]> {
    const since = this.next;
    const known = since === null ? [] : loans.filter((n) => this.loans.has(n));
    const fresh = since === null ? loans : loans.filter((n) => !this.loans.has(n));
    const rows = [...(since === null ? [] : await readPayments(client, known, since)), ...(await readPayments(client, fresh))];
    this.rows = since === null ? rows : [...rows, ...this.rows];
    if (since === null) this.loans.clear();
    for (const n of loans) this.loans.add(n);
    this.next = (at + 1) % DAY === 0 ? new Date(at + 1).toISOString().slice(0, 10) : null;
    return this.rows;
  }
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
