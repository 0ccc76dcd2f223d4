/** The caller's notes: one page, every page, or one note. */
import { decodeEnvelope, decodeNote } from '../contract/decode.js';
import { PAGINATION } from '../contract/enums.js';
import type { Note, Page } from '../contract/decode.js';
import { seg, type ApiClient } from './client.js';
import { paginateQuery } from './pagination.js';

export type { Note } from '../contract/decode.js';

const decodePage = decodeEnvelope(decodeNote);

/** One page of notes. */
export function list(client: ApiClient, query: URLSearchParams): Promise<Page<Note>> {
  return client.call({ method: 'GET', base: 'base', path: '/notes/', query, what: 'note list', decode: decodePage });
}

/** Every note, page by page (the endpoint's maximum page is 25). */
export function listAll(client: ApiClient, query: URLSearchParams): AsyncGenerator<Note> {
  return paginateQuery(query, (q) => list(client, q), PAGINATION.notes.max);
}

/** One note by its loan_note_id (`{loan_number}-{n}`). */
export function get(client: ApiClient, loanNoteId: string): Promise<Note> {
  return client.call({ method: 'GET', base: 'base', path: `/notes/${seg(loanNoteId)}`, what: `note ${loanNoteId}`, decode: decodeNote });
}
