/** `mkt auth status` and `mkt auth token`: where the credentials live and when they expire (never the secrets), and a valid token. */
import type { CommandContext } from '../context.js';
import { AuthError } from '../errors.js';
import type { Output } from '../output/render.js';
import { groupCommand } from './groups.js';
import { redactUserInfo } from '../redact-url.js';

const iso = (ms: number | undefined): string | null => (ms ? new Date(ms).toISOString() : null);

/** The `auth` command group. */
export function makeAuthCommand(ctx: CommandContext) {
  const auth = groupCommand('auth');

  auth
    .command('status')
    .description('profile, credential store, granted scopes and expiries (never the secrets)')
    .action(
      ctx.action(async (): Promise<Output> => {
        const settings = ctx.settings();
        if (ctx.io.env.MKT_ACCESS_TOKEN) {
          return {
            kind: 'item',
            item: {
              profile: settings.profile,
              store: 'MKT_ACCESS_TOKEN',
              location: 'environment',
              base_url: redactUserInfo(settings.baseUrl),
              note: 'token taken from the environment as it is; nothing stored',
            },
          };
        }
        const { AuthSession } = await import('../auth/session.js');
        const session = new AuthSession({
          settings,
          env: ctx.io.env,
          http: await ctx.httpClient(),
          stderr: (l) => ctx.info(l),
          now: () => ctx.io.now(),
        });
        const found = await session.stores.locate(session.account);
        if (!found) throw new AuthError(`not logged in (profile ${settings.profile}, ${session.account})`, 'run `mkt login`');
        const c = found.credentials;
        const now = ctx.io.now();
        return {
          kind: 'item',
          item: {
            profile: settings.profile,
            account: session.account,
            store: found.store.kind,
            location: found.store.location,
            base_url: redactUserInfo(settings.baseUrl),
            client_id: c.clientId,
            scopes: c.scopes.join(' '),
            logged_in_at: iso(c.loggedInAt),
            access_token_expires_at: iso(c.accessExpiresAt),
            access_token_valid: !!c.accessExpiresAt && c.accessExpiresAt > now,
            refresh_token_expires_at: iso(c.refreshExpiresAt),
            refresh_token_valid: !!c.refreshExpiresAt && c.refreshExpiresAt > now,
            auth_key: 'stored (never expires)',
          },
        };
      }),
    );

  auth
    .command('token')
    .description('print a valid access token, renewing it first when needed')
    .action(
      ctx.action(async (): Promise<Output> => {
        const { createTokenProvider } = await import('../auth/index.js');
        const provider = await createTokenProvider({
          settings: ctx.settings(),
          env: ctx.io.env,
          http: await ctx.httpClient(),
          stderr: (l) => ctx.info(l),
          now: () => ctx.io.now(),
        });
        ctx.io.stdout.write(`${await provider.accessToken()}\n`);
        return { kind: 'none' };
      }),
    );

  return auth;
}
