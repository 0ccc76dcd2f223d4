/**
 * The mock inside the CLI's own process, for `mkt invest simulate`: a world with one fresh investor on a
 * frozen virtual clock, answering Fetch requests through the app's handlers with no socket, and what a
 * simulation reads of that world without a request. The CLI reaches the mock through its entry points
 * alone (test/import-cycles.test.ts); this is the one for a mock in process.
 */
import type { NoteAnswerFields } from '../src/contract/resources.js';
import { createMockApp, type MockApp } from './app.js';
import { randomBase64url } from './kit/digest.js';
import { NOTE_KINDS } from './engine/ledger.js';
import { noteViews } from './views/note-view.js';
import { notesOf } from './world/world-index.js';

/** The world to build. */
export interface InProcessOptions {
  seed: number;
  /** Listings the seed draws. */
  listings: number;
  /** The virtual time the world starts at, and the clock stands at until moved. */
  start: number;
  /** A fresh investor with one account funded with `cash` dollars. */
  investor: { id: string; cash: number };
}

/** A mock in this process, for one investor. */
export interface InProcessMock {
  /** The app over the world (tests look into the world through it). */
  readonly app: MockApp;
  /** The investor's account. */
  readonly accountId: string;
  /** Answers one request as over HTTP (the same handlers, routes and JSON), recorded in the request log. */
  handle(request: Request): Promise<Response>;
  /** The virtual time (epoch ms). */
  now(): number;
  /** Moves the virtual clock forward by `ms`: the world catches up with it on the next request. */
  advance(ms: number): void;
  /** A bearer token of `clientId` for the investor's account with `scopes`, valid until `expiresAt` (virtual time). */
  grantToken(clientId: string, scopes: readonly string[], expiresAt: number): string;
  /**
   * The investor's notes as GET /notes/ answers them, in one pass: paging 25 at a time would view every
   * note once a page (the endpoint builds all the caller's notes to sort them), N²/25 views a month.
   */
  notes(): NoteAnswerFields[];
  /** What the account's ledger credited for payments between two instants (`from` included, `to` not), to the cent. */
  ledgerPayments(from: number, to: number): number;
  /** Stops the app's timers. */
  close(): Promise<void>;
}

/** Builds the world; its clock stands still but for `advance`, and reads no real time. */
export function inProcessMock(o: InProcessOptions): InProcessMock {
  const app = createMockApp(
    { seed: o.seed, listings: o.listings, frozen: true, start: o.start, admin: false, investor: o.investor },
    () => o.start,
  );
  const { ctx } = app;
  const accountId = ctx.world.users.get(o.investor.id)!.accountIds[0]!;
  return {
    app,
    accountId,
    handle: (request) => app.handle(request),
    now: () => ctx.clock.now(),
    advance: (ms) => void ctx.clock.advance(ms),
    grantToken(clientId, scopes, expiresAt) {
      // Put straight into the world, as the token endpoint's grants do (oauth/grants.ts): no key, no request.
      const value = randomBase64url(24);
      ctx.world.tokens.set(value, { value, kind: 'access', clientId, accountId, scopes: [...scopes], expiresAt, authKey: 'in-process' });
      return value;
    },
    notes: () => noteViews(ctx.world, [...notesOf(ctx.world, accountId)], ctx.clock.now(), undefined),
    ledgerPayments(from, to) {
      let total = 0;
      for (const e of ctx.world.ledger) {
        // A note's share of a loan's posting: principal, interest, late fee, less the service and collection fees.
        if (e.accountId === accountId && e.at >= from && e.at < to && NOTE_KINDS.has(e.kind)) total += Math.round(e.amount * 100);
      }
      return total / 100;
    },
    close: async () => {
      await app.close?.();
    },
  };
}
