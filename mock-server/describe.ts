/** What `mkt mock serve` prints on start: the URLs to configure and the seeded credentials. */
import { join } from 'node:path';
import { MOCK_ADMIN_PREFIX } from '../src/contract/mock-admin.js';
import type { MockApp } from './app.js';
import { userPassword } from './oauth/passwords.js';
import { DEMO_CLIENT, PARTNER_CODES } from './seed/seed.js';

/** The origin `mkt` talks to when nothing is configured: the banner leaves MKT_ROOT_URL out for it. */
const DEFAULT_ORIGIN = 'http://127.0.0.1:4010';

/**
 * The banner's `try:` line, runnable as printed in a clone after `npm ci` (a test runs it): `npx` finds the
 * project's own bin; `--insecure-storage` because the mock's credentials are throw-away and a fresh
 * machine may have no keychain; MKT_ROOT_URL exported, not prefixed, so the commands after login find the mock too.
 */
export function tryLine(root: string): string {
  const login = 'npx mkt login --insecure-storage';
  return root === DEFAULT_ORIGIN ? login : `export MKT_ROOT_URL=${root}; ${login}`;
}

/** Each seeded user's id and password, as the password grant takes them. */
function passwords(app: MockApp): string {
  return [...app.ctx.world.users.keys()].map((id) => `${id} ${userPassword(app.ctx.world.seed, id)}`).join(', ');
}

/** The throttle in words: the limits per client token, or off, with the flag that changes it. */
function rateLimitLine(app: MockApp): string {
  const { enabled, limits } = app.ctx.rateLimit.get();
  if (!enabled) return 'off (the service throttles: --rate-limit on)';
  const each = Object.entries(limits).map(([group, n]) => `${group} ${n}/s`);
  return `${each.join(', ')} per client token, as the service (429 past them; --rate-limit off or GROUP=N to change)`;
}

/** Where the world came from, when --state was given: restored from the folder (or file), a named snapshot, or seeded into a new folder. */
function stateLine(app: MockApp): string[] {
  const started = app.ctx.startedFrom;
  if (started.state === null) return [];
  if (started.from === 'snapshot')
    return [
      `  restored from snapshot ${started.name} (${join(started.folder, `${started.name}.snapshot`)}): the world and the clock as saved at ${new Date(started.savedNow).toISOString()}; kept in ${started.state}`,
    ];
  if (started.from === 'state') {
    const replayed =
      started.operations === 0 ? '' : ` (${started.operations} operation${started.operations === 1 ? '' : 's'} replayed after its base)`;
    return [`  restored from ${started.state}: the world it kept${replayed}`];
  }
  return [`  state kept in ${started.state} (new: the world seeded)`];
}

/** A human-readable summary of a started mock; its URLs carry the base path (`--base-path`), as every route does. */
export function describeMock(app: MockApp, origin: string): string {
  const s = app.ctx.world;
  const root = `${origin}${app.ctx.options.basePath ?? ''}`;
  const users = [...s.users.values()].map((u) => `${u.id} (${u.accountIds.join(', ')})`).join(', ');
  const active = s.listings.filter((l) => l.listing_status === 2);
  const whole = active.filter((l) => l.investment_typeid === 2).length;
  return [
    `mock marketplace listening on ${origin}${root === origin ? '' : ` under ${root.slice(origin.length)}`}`,
    `  base_url  ${root}/v1`,
    `  root_url  ${root}`,
    `  auth_url  ${root}`,
    ...(app.ctx.options.admin ? [`  dashboard ${root}${MOCK_ADMIN_PREFIX}/ (the world, the clock, the request log, in a browser)`] : []),
    ...stateLine(app),
    `  seed ${s.seed}, ${active.length} active listings (${s.listings.length} in all), clock ${app.ctx.clock.frozen ? 'frozen' : 'running'} at ${new Date(app.ctx.clock.now()).toISOString()}`,
    // Search shows fractional listings unless asked for whole loans, so its total is not the count above.
    `  of the active: ${active.length - whole} fractional (what \`mkt listings search\` shows), ${whole} whole-loan (shown with --whole-loan)`,
    `  OAuth client: client_id ${DEMO_CLIENT.clientId}, client_secret ${DEMO_CLIENT.secret}, redirect ${DEMO_CLIENT.redirectUri}`,
    `  investors: ${users}`,
    `  passwords, for the password grant (outside the spec; ${app.ctx.options.allowPasswordGrant ? 'on' : 'off, on with --allow-password-grant'}): ${passwords(app)}`,
    `  rate limits: ${rateLimitLine(app)}`,
    `  partner codes: ${PARTNER_CODES.valid} (valid), ${PARTNER_CODES.expired} (expired)`,
    app.ctx.options.autoApprove?.length
      ? `  grants approved at once for: ${app.ctx.options.autoApprove.join(', ')}`
      : '  consent: a page in the browser (start with --auto-approve alice to skip it)',
    ...(app.webhooks
      ? [
          `  webhooks: each outbox event POSTed, signed (Mkt-Signature), to ${app.webhooks.urls.join(', ')}; deliveries at ${root}/__mock/webhooks`,
        ]
      : []),
    `  try, in another terminal of this clone: ${tryLine(root)}`,
    '',
  ].join('\n');
}
