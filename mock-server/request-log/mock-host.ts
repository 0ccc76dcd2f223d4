/**
 * The request log's host for a mock (the proxy has its own, proxy/seen-secrets.ts): its virtual clock, and
 * the secrets its record is cleaned of, read from the world as it stands (tokens, clients, grants, users).
 */
import type { MockContext } from '../context.js';
import { optionClients } from '../oauth/clients.js';
import { userPassword } from '../oauth/passwords.js';
import type { World } from '../world/world.js';
import type { RequestLogHost } from './request-log.js';

/** The request log's host for a mock: its virtual clock, its world's tokens and the secrets of its clients, grants and users. */
export function mockRequestLogHost(ctx: MockContext): RequestLogHost {
  /** The `--client` options' secrets, read once per options list (parsing the specs was per request). */
  let options: { specs: unknown; secrets: readonly string[] } | null = null;
  return {
    virtualNow: () => ctx.clock.now(),
    get tokens() {
      return ctx.world.tokens;
    },
    gatherFew(few, from) {
      const world = ctx.world;
      let n = from;
      for (const c of world.clients.values()) few[n++] = c.secret;
      const specs = ctx.options.clients;
      if (options === null || options.specs !== specs) options = { specs, secrets: optionClients(ctx).map((c) => c.secret) };
      for (const s of options.secrets) few[n++] = s;
      for (const g of world.grants) few[n++] = g.authKey;
      // The password grant's passwords (--allow-password-grant), wherever a client puts them.
      for (const s of passwordsOf(world)) few[n++] = s;
      return n;
    },
  };
}

/** The seeded users' passwords of a world: a hash each, so worked out once per world (and again if users were added), not per request. */
function passwordsOf(world: World): string[] {
  let kept = world.index.passwords;
  if (kept?.users !== world.users.size) {
    kept = { users: world.users.size, list: [...world.users.keys()].map((u) => userPassword(world.seed, u)) };
    world.index.passwords = kept;
  }
  return kept.list;
}
