/**
 * What a marketplace tells of one account without a request (Marketplace.account): its notes as GET /notes/
 * answers them, in one pass (paging 25 at a time would view every note once a page: the endpoint builds all
 * the caller's notes to sort them, N²/25 views a month of `mkt invest simulate`), and what its ledger credited.
 */
import type { NoteAnswerFields } from '../../src/contract/resources.js';
import type { MockApp } from '../app.js';
import { NOTE_KINDS } from '../engine/ledger.js';
import { noteViews } from '../views/note-view.js';
import { notesOf } from '../world/world-index.js';

/** The reads of account `accountId` in `app`'s world (the world at the time of each call: a reset replaces it). */
export function accountReads(app: MockApp, accountId: string) {
  const { ctx } = app;
  return {
    notes: (): NoteAnswerFields[] => noteViews(ctx.world, [...notesOf(ctx.world, accountId)], ctx.clock.now(), undefined),
    credited(from: number, to: number): number {
      let total = 0;
      for (const e of ctx.world.ledger) {
        // A note's share of a loan's posting: principal, interest, late fee, less the service and collection fees.
        if (e.accountId === accountId && e.at >= from && e.at < to && NOTE_KINDS.has(e.kind)) total += Math.round(e.amount * 100);
      }
      return total / 100;
    },
  };
}
