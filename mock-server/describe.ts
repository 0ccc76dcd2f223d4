/** What `mkt mock serve` prints on start: the URLs to configure and the seeded credentials. */
import type { MockApp } from './app.js';
import { DEMO_CLIENT, PARTNER_CODES } from './seed.js';

/** A human-readable summary of a started mock. */
export function describeMock(app: MockApp, origin: string): string {
  const s = app.ctx.store;
  const users = [...s.users.values()].map((u) => `${u.id} (${u.accountIds.join(', ')})`).join(', ');
  return [
    `mock marketplace listening on ${origin}`,
    `  base_url  ${origin}/v1`,
    `  root_url  ${origin}`,
    `  auth_url  ${origin}`,
    `  seed ${s.seed}, ${s.listings.filter((l) => l.listing_status === 2).length} active listings (${s.listings.length} in all), clock ${app.ctx.clock.frozen ? 'frozen' : 'running'} at ${new Date(app.ctx.clock.now()).toISOString()}`,
    `  OAuth client: client_id ${DEMO_CLIENT.clientId}, client_secret ${DEMO_CLIENT.secret}, redirect ${DEMO_CLIENT.redirectUri}`,
    `  investors: ${users}`,
    `  partner codes: ${PARTNER_CODES.valid} (valid), ${PARTNER_CODES.expired} (expired)`,
    app.ctx.options.autoApprove?.length
      ? `  grants approved at once for: ${app.ctx.options.autoApprove.join(', ')}; try: MKT_ROOT_URL=${origin} mkt login`
      : `  try: MKT_ROOT_URL=${origin} mkt login   (start with --auto-approve alice to skip the consent page)`,
    '',
  ].join('\n');
}
