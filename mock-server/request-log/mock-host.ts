/**
 * The request log's host for a mock (the proxy has its own, proxy/seen-secrets.ts): its virtual clock, and
 * the secrets its record is cleaned of, read from the world as it stands (tokens, clients, grants, users).
 */
import type { MockContext } from '../context.js';
import { optionClients } from '../oauth/clients.js';
import { userPassword } from '../oauth/passwords.js';
import type { Store } from '../world/store.js';
import type { RequestLogHost } from './request-log.js';

/** The request log's host for a mock: its virtual clock, its world's tokens and the secrets of its clients, grants and users. */
export function mockRequestLogHost(ctx: MockContext): RequestLogHost {
  /** The `--client` options' secrets, read once per options list (parsing the specs was per request). */
  let options: { specs: unknown; secrets: readonly string[] } | null = null;
  return {
    virtualNow: () => ctx.clock.now(),
    get tokens() {
      return ctx.store.tokens;
    },
    gatherFew(few, from) {
      const store = ctx.store;
      let n = from;
      for (const c of store.clients.values()) few[n++] = c.secret;
      const specs = ctx.options.clients;
      if (options === null || options.specs !== specs) options = { specs, secrets: optionClients(ctx).map((c) => c.secret) };
      for (const s of options.secrets) few[n++] = s;
      for (const g of store.grants) few[n++] = g.authKey;
      // The password grant's passwords (--allow-password-grant), wherever a client puts them.
      for (const s of passwordsOf(store)) few[n++] = s;
      return n;
    },
  };
}

/** The seeded users' passwords of a world: a hash each, so worked out once per world (and again if users were added), not per request. */
function passwordsOf(store: Store): string[] {
  let kept = store.index.passwords;
  if (kept?.users !== store.users.size) {
    kept = { users: store.users.size, list: [...store.users.keys()].map((u) => userPassword(store.seed, u)) };
    store.index.passwords = kept;
  }
  return kept.list;
}
