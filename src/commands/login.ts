/** `mkt login` and `mkt logout`: the browser authorization-key flow, and removing what it stored. */
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { groupCommand } from './groups.js';
import { parseCount } from './options.js';

/** Default seconds `mkt login` waits for the browser. */
export const LOGIN_TIMEOUT_SECONDS = 300;

async function session(ctx: CommandContext, insecureStorage = false) {
  const { AuthSession } = await import('../auth/session.js');
  return new AuthSession({
    settings: ctx.settings(),
    env: ctx.io.env,
    http: await ctx.httpClient(),
    stderr: (l) => ctx.info(l),
    now: () => ctx.io.now(),
    insecureStorage,
  });
}

/** The `login` command. */
export function makeLoginCommand(ctx: CommandContext) {
  return groupCommand('login')
    .option(
      '--no-browser',
      'do not open a browser: print the URL, and accept the redirect URL pasted on standard input (for a browser on another machine)',
    )
    .option('--timeout <seconds>', 'how long to wait for the browser', String(LOGIN_TIMEOUT_SECONDS))
    .option('--insecure-storage', 'keep credentials in a 0600 file under the config dir instead of the OS keychain')
    .option(
      '--client-secret <secret>',
      'the client secret (else MKT_CLIENT_SECRET, the stored one, the demo default on a local mock, or a prompt)',
    )
    .action(
      ctx.action(async (opts): Promise<Output> => {
        if (ctx.io.env.MKT_ACCESS_TOKEN)
          throw new UsageError('MKT_ACCESS_TOKEN is set: mkt uses that token and stores nothing', 'unset MKT_ACCESS_TOKEN to log in');
        const timeoutMs = parseCount('--timeout', opts.timeout, 1) * 1000;
        const auth = await session(ctx, !!opts.insecureStorage);
        const settings = auth.deps.settings;
        const [{ resolveClientSecret }, { runLogin }, { browserOpener }] = await Promise.all([
          import('../auth/client-secret.js'),
          import('../auth/login-flow.js'),
          import('../auth/open-browser.js'),
        ]);
        // Fail fast, before any browser work, when the store is locked or absent.
        const store = await auth.stores.forLogin(settings.profile);
        await store.check();
        const previous = await store.load(auth.account);
        const interactive = ctx.io.stdinIsTTY && ctx.io.stderrIsTTY;
        const { secret } = await resolveClientSecret({
          flag: opts.clientSecret,
          env: ctx.io.env,
          clientId: settings.clientId,
          baseUrl: settings.baseUrl,
          stored: previous?.clientId === settings.clientId ? previous.clientSecret : undefined,
          interactive,
          prompt: async (message) => {
            const { password } = await import('@inquirer/prompts');
            return password({ message, mask: '*' }, { input: ctx.io.stdin, output: ctx.io.stderr });
          },
        });
        const result = await runLogin({
          session: auth,
          store,
          clientSecret: secret,
          timeoutMs,
          stderr: (l) => ctx.info(l),
          openBrowser: opts.browser ? browserOpener(ctx.io.env) : null,
          stdin: ctx.io.stdin,
          promptPaste: ctx.io.stdinIsTTY,
          interrupted: ctx.io.stopSignal(),
        });
        ctx.info(
          `Logged in: profile ${result.profile}, credentials in the ${result.store === 'file' ? `file ${result.location}` : 'OS keychain'}.`,
        );
        return { kind: 'item', item: { ...result } };
      }),
    );
}

/** The `logout` command. */
export function makeLogoutCommand(ctx: CommandContext) {
  return groupCommand('logout').action(
    ctx.action(async (): Promise<Output> => {
      const auth = await session(ctx);
      const { removeEverywhere } = await import('../auth/logout.js');
      const removed = await auth.lock(() => removeEverywhere(auth));
      ctx.info(
        removed.length ? `Logged out: removed ${auth.account} from ${removed.join(' and ')}.` : `Nothing stored for ${auth.account}.`,
      );
      return { kind: 'item', item: { profile: auth.deps.settings.profile, account: auth.account, removed_from: removed.join(',') } };
    }),
  );
}
