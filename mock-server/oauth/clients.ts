/**
 * Registered agent clients: the seeded demo client plus the ones named in MockOptions.clients
 * (`ID:SECRET:REDIRECT`, from `mkt mock serve --client`). Option clients are looked up from the
 * options every time, so they survive a reset of the world.
 */
import type { VirtualClock } from '../kit/clock.js';
import type { OAuthClient, World } from '../world/world.js';

/**
 * What the authorization flow reads and changes (the mock's context is one): the world, the clock, and the
 * options that add clients and the password grant. Named here, not imported, so the operations that issue
 * keys and tokens (operations/) sit below the context that registers them.
 */
export interface OAuthHost {
  readonly world: World;
  readonly clock: VirtualClock;
  readonly options: { readonly clients?: readonly string[]; readonly allowPasswordGrant?: boolean };
}

/** Parses `ID:SECRET:REDIRECT` (the redirect URL keeps its own colons); throws a clear error on a bad spec. */
export function parseClientSpec(spec: string): OAuthClient {
  const first = spec.indexOf(':');
  const second = first < 0 ? -1 : spec.indexOf(':', first + 1);
  if (first <= 0 || second <= first + 1 || second === spec.length - 1) {
    throw new Error(`bad client '${spec}': expected ID:SECRET:REDIRECT_URL`);
  }
  const clientId = spec.slice(0, first);
  const secret = spec.slice(first + 1, second);
  const redirectUri = spec.slice(second + 1);
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    throw new Error(`bad client '${clientId}': redirect URL '${redirectUri}' is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`bad client '${clientId}': redirect URL must be http or https`);
  if (url.hash) throw new Error(`bad client '${clientId}': redirect URL must not have an anchor (#)`);
  return { clientId, secret, redirectUri };
}

/** The option clients of `ctx`, parsed (throws on a bad spec, so a typo fails at start-up). */
export function optionClients(ctx: OAuthHost): OAuthClient[] {
  return (ctx.options.clients ?? []).map(parseClientSpec);
}

/** The registered client `clientId`, or undefined. */
export function findClient(ctx: OAuthHost, clientId: string | null | undefined): OAuthClient | undefined {
  if (!clientId) return undefined;
  const stored = ctx.world.clients.get(clientId);
  if (stored) return stored;
  const extra = optionClients(ctx).find((c) => c.clientId === clientId);
  if (extra) ctx.world.clients.set(extra.clientId, extra);
  return extra;
}
