/**
 * `mkt mock serve`: the bundled, stateful mock marketplace on a loopback port; `mkt mock proxy`
 * (mock-proxy.ts): a validating proxy in front of another marketplace; `mkt mock clock advance`
 * (mock-clock.ts): move its clock; `mkt mock requests|outbox` (mock-inspect.ts): what it saw and sent; `mkt mock snapshot`
 * (mock-snapshot.ts): named snapshots of its world.
 */
import { Command, Option } from '@commander-js/extra-typings';
import {
  MockSetupError,
  parseBasePath,
  parseClientSpec,
  parseRateLimitSpec,
  readAllowedHost,
  readWebhookUrl,
  webhookSecretProblem,
} from '../../mock-server/library/flags.js';
import type { CommandContext } from '../context.js';
import { MOCK_ADMIN_PREFIX } from '../contract/mock-admin.js';
import { parseReleaseTimes } from '../contract/releases.js';
import { DEFAULT_REQUEST_LOG_SIZE, MAX_REQUEST_LOG_SIZE } from '../contract/mock-inspect.js';
import { UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { groupCommand } from './groups.js';
import { addClockCommands } from './mock-clock.js';
import { addInspectCommands } from './mock-inspect.js';
import { addProcessCommand } from './mock-process.js';
import { proxyCommand } from './mock-proxy.js';
import { addSnapshotCommands, snapshotName } from './mock-snapshot.js';
import { parseCount, requestLogSizeOption, type OptionsOf } from './options.js';
import { readSecret, type ReadSecret } from './secret-options.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `mkt mock serve` as defined: its flags, and so the type of its options. */
function serveCommand() {
  return new Command('serve')
    .description('run the mock marketplace until interrupted (Ctrl-C)')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '4010')
    .option('--host <host>', 'address to bind (loopback by default)', '127.0.0.1')
    .option(
      '--base-path <path>',
      'serve every route under this path prefix, for a mock behind a proxy (/prefix/v1/..., /prefix/__mock/...)',
    )
    .option('--seed <n>', 'seed of the generated world', '1')
    .option('--listings <n>', 'active listings to generate (0: an empty marketplace; none arrive then either)', '2000')
    .option(
      '--history <kind>',
      'seeded: a history of loans and notes; none: no loans, notes or orders, only the investors and their funded accounts',
      'seeded',
    )
    .option(
      '--releases <times>',
      "when new listings arrive: HH:00 times in America/New_York, comma-separated, or 'steady' (every hour)",
      '12:00,18:00',
    )
    .option(
      '--state <dir>',
      'keep the world in DIR across restarts (a snapshot and an operation log; an earlier single state file still loads), and named snapshots in DIR/snapshots/ (without --state, snapshots live in memory until the mock stops)',
    )
    .option('--state-repair', 'cut the --state log at a bad record in its middle (a copy is kept) instead of refusing to start')
    .option('--from-snapshot <name>', 'start from the named snapshot saved in the --state folder (mkt mock snapshot save)')
    .option('--auto-approve <user>', "approve this user's read/write grant at once (repeatable)", collect)
    .option('--client <id:secret:redirect>', 'register another OAuth client (repeatable)', collect)
    .option('--frozen', 'the clock stands still unless moved')
    .option('--start <iso>', 'virtual start time (default: now)')
    .option('--no-admin', `disable the ${MOCK_ADMIN_PREFIX} admin routes`)
    .option(
      '--admin-token <token>',
      'token admin callers must send when bound off loopback (default: random, printed; ps shows a flag to others: prefer --admin-token-file or MKT_MOCK_ADMIN_TOKEN)',
    )
    .option('--admin-token-file <path>', 'read the admin token from this file (mode 0600: refused when others may read it)')
    .option(
      '--allow-host <name>',
      'serve requests whose Host is this name too (repeatable; loopback names and the bound address always are): the name of a proxy in front',
      collect,
    )
    .option(
      '--rate-limit <spec>',
      'throttle as the service does, per client token: on (listings 20/s, orders 10/s, account 20/s, oauth 10/s), off, one number for every group, or GROUP=N pairs (listings=20,orders=10); past a limit a request is answered 429 with Retry-After',
      'on',
    )
    .option('--allow-password-grant', "take grant_type=password with a seeded user's id and password (printed; outside the spec)")
    .option(
      '--request-log-size <n>',
      `requests the request log keeps for \`mkt mock requests\` (0: none)`,
      String(DEFAULT_REQUEST_LOG_SIZE),
    )
    .addOption(new Option('--journal-size <n>').hideHelp())
    .option(
      '--webhook <url>',
      "POST each notification (order validation error, processed, completed) to this http(s) URL as signed JSON, retried on failure (repeatable; the mock's extension: the marketplace sends emails)",
      collect,
    )
    .option(
      '--webhook-secret <secret>',
      'the secret the webhooks are signed with (default: random, printed once on stderr; or --webhook-secret-file, MKT_MOCK_WEBHOOK_SECRET)',
    )
    .option('--webhook-secret-file <path>', 'read the webhook secret from this file (mode 0600: refused when others may read it)');
}

/** The parsed flags of `mkt mock serve`. */
export type ServeOptions = OptionsOf<ReturnType<typeof serveCommand>>;

/** Reads the serve flags (and the secrets' environment variables, from `env`) into mock options (exit 2 on a bad value). */
export function serveOptions(opts: ServeOptions, env: Readonly<Record<string, string | undefined>> = {}) {
  const start = opts.start === undefined ? undefined : Date.parse(opts.start);
  if (start !== undefined && !Number.isFinite(start)) throw new UsageError(`--start must be an ISO date-time, got '${opts.start}'`);
  const requestLogSize = requestLogSizeOption(opts, MAX_REQUEST_LOG_SIZE);
  const port = parseCount('--port', opts.port, 0);
  if (port > 65_535) throw new UsageError(`--port must be a whole number from 0 to 65535, got '${opts.port}'`);
  if (opts.history !== 'seeded' && opts.history !== 'none') throw new UsageError(`--history must be seeded or none, got '${opts.history}'`);
  const releases = parseReleaseTimes(opts.releases);
  if ('problem' in releases) throw new UsageError(`--releases ${releases.problem}`);
  if (opts.fromSnapshot !== undefined) {
    snapshotName(opts.fromSnapshot);
    if (!opts.state)
      throw new UsageError(
        '--from-snapshot needs --state: snapshots saved without --state live only in the memory of the mock that saved them',
      );
  }
  const base = opts.basePath === undefined ? { basePath: '' } : parseBasePath(opts.basePath);
  if ('problem' in base)
    throw new UsageError(`--base-path ${base.problem}`, 'give the prefix the mock is reached under, such as --base-path /mock');
  for (const spec of opts.client ?? []) {
    try {
      parseClientSpec(spec);
    } catch (err) {
      // The mock's message names the client; the flag and the whole value say more here.
      throw new UsageError(`--client '${spec}': ${(err as Error).message.replace(/^bad client '[^']*': /, '')}`);
    }
  }
  const webhookSecret = readSecret({
    flag: '--webhook-secret',
    value: opts.webhookSecret,
    fileFlag: '--webhook-secret-file',
    file: opts.webhookSecretFile,
    envName: 'MKT_MOCK_WEBHOOK_SECRET',
    env,
  });
  const webhooks = webhookOptions(opts.webhook ?? [], webhookSecret);
  const adminToken = readSecret({
    flag: '--admin-token',
    value: opts.adminToken || undefined,
    fileFlag: '--admin-token-file',
    file: opts.adminTokenFile,
    envName: 'MKT_MOCK_ADMIN_TOKEN',
    env,
  });
  const allowHosts = (opts.allowHost ?? []).map((text) => {
    const read = readAllowedHost(text);
    if ('problem' in read) throw new UsageError(`--allow-host ${read.problem}`);
    return read.name;
  });
  const rateLimit = parseRateLimitSpec(opts.rateLimit);
  if ('problem' in rateLimit)
    throw new UsageError(`--rate-limit ${rateLimit.problem}`, 'give off, on, a number such as 20, or pairs such as listings=20,orders=10');
  return {
    port,
    host: opts.host,
    server: { ...(adminToken ? { adminToken: adminToken.value } : {}), allowHosts },
    options: {
      seed: parseCount('--seed', opts.seed, 0),
      listings: parseCount('--listings', opts.listings, 0),
      ...(opts.history === 'none' ? { history: 'none' as const } : {}),
      releases: releases.minutes ?? ('steady' as const),
      ...(opts.fromSnapshot !== undefined ? { fromSnapshot: opts.fromSnapshot } : {}),
      frozen: !!opts.frozen,
      admin: opts.admin,
      requestLogSize,
      ...(start !== undefined ? { start } : {}),
      ...(opts.state ? { stateFile: opts.state } : {}),
      ...(opts.stateRepair ? { stateRepair: true } : {}),
      ...(opts.autoApprove ? { autoApprove: opts.autoApprove } : {}),
      ...(opts.client ? { clients: opts.client } : {}),
      ...(opts.allowPasswordGrant ? { allowPasswordGrant: true } : {}),
      ...(base.basePath ? { basePath: base.basePath } : {}),
      ...(webhooks ? { webhooks } : {}),
      rateLimit: rateLimit.setting,
    },
  };
}

/** --webhook and the webhook secret (flag, file or environment) as the mock's webhook settings; none without a URL. */
function webhookOptions(urls: string[], secret: ReadSecret | undefined) {
  for (const text of urls) {
    const read = readWebhookUrl(text);
    if ('problem' in read) throw new UsageError(`--webhook ${read.problem}`);
  }
  const where = secret?.from === 'file' ? '--webhook-secret-file' : secret?.from === 'env' ? 'MKT_MOCK_WEBHOOK_SECRET' : '--webhook-secret';
  const problem = secret === undefined ? null : webhookSecretProblem(secret.value);
  if (problem) throw new UsageError(`${where} ${problem}`);
  if (urls.length === 0) {
    // A variable left in the environment is not a request to sign; a flag or a file given is.
    if (secret !== undefined && secret.from !== 'env') throw new UsageError(`${where} needs --webhook: with no receiver nothing is signed`);
    return undefined;
  }
  return { urls, ...(secret !== undefined ? { secret: secret.value } : {}) };
}

/** A failure to listen on --host/--port as the user's mistake (exit 2 naming the flag), or as it was. */
function listenError(err: unknown, host: string, port: number): unknown {
  const code = (err as { code?: string }).code;
  if (code === 'EADDRINUSE') return new UsageError(`port ${port} is in use; pick another with --port`, '--port 0 picks a free one');
  if (code === 'EACCES') return new UsageError(`--port ${port} needs privileges to bind on ${host}`, 'pick one above 1023 with --port');
  if (code === 'EADDRNOTAVAIL')
    return new UsageError(`--host '${host}' is not an address of this machine`, 'bind a local address, such as 127.0.0.1');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new UsageError(`--host '${host}' does not resolve to an address`, 'bind a local address, such as 127.0.0.1');
  return err;
}

/** The `mock` command group. */
export function makeMockCommand(ctx: CommandContext) {
  const mock = groupCommand('mock');
  mock.addCommand(
    serveCommand().action(
      ctx.action(async (opts): Promise<Output> => {
        const { port, host, server: serverOptions, options } = serveOptions(opts, ctx.io.env);
        const { createMockApp, answerCheckOption, snapshotOption, startHttpServer, describeMock, ArrivalsThread } =
          await import('../../mock-server/library/server.js');
        // V8's flags for long clock moves, as each begins: the wider inlining budget (from the first on: it costs a start
        // and a short move more than it gives; it applies to code optimised after it, so a serve whose first moves were
        // short keeps the code they optimised until V8 optimises it again) and the move's heap growth step. Loaded here:
        // the group's other commands need neither it nor Node's v8 module.
        const { tuneV8ForLongMove } = await import('../os/v8-flags.js');
        let longMoves = 0;
        // A long move's arrivals drawn on another thread (the machine's second core) while its ticks run on this one.
        const arrivals = new ArrivalsThread();
        let app;
        try {
          app = createMockApp({
            ...options,
            ...answerCheckOption(ctx.io.env),
            ...snapshotOption(ctx.io.env),
            beforeLongMove: () => tuneV8ForLongMove(longMoves++ === 0),
            arrivalsAhead: arrivals.ahead,
          });
        } catch (err) {
          // A torn or foreign --state file, or an --auto-approve user the world lacks (the mock names the
          // seeded ones), is the user's to fix, not a bug: exit 2 with the reason.
          if (err instanceof MockSetupError) throw new UsageError(err.message);
          throw err;
        }
        let server;
        try {
          server = await startHttpServer(app, host, port, serverOptions);
        } catch (err) {
          await app.close?.(); // its timers would keep the process alive after the error
          throw listenError(err, host, port);
        }
        // Listened for before the banner: a supervisor that reads it and stops the mock at once stops it cleanly (no signal
        // may come while nothing listens and end the process before its close).
        const stopped = ctx.io.stopSignal();
        ctx.io.stdout.write(describeMock(app, server.origin));
        // Started while the mock is idle, where its moves are long (a million listings): its first move waits for no start.
        arrivals.warm(app.ctx.world);
        // Only a secret the user did not choose is printed, once, and on stderr: the data on stdout may be kept.
        if (app.webhooks?.secretGenerated)
          ctx.info(`mock: webhook secret (verify Mkt-Signature with it; set your own with --webhook-secret): ${app.webhooks.secret}`);
        // Only a token the user did not choose is printed: one given (flag, file or environment) stays unechoed.
        if (server.adminToken && serverOptions.adminToken === undefined) {
          ctx.io.stdout.write(
            `  admin token (bound off loopback, ${MOCK_ADMIN_PREFIX}/* needs it): ${server.adminToken}\n    send it as Authorization: Bearer TOKEN or x-mock-admin-token: TOKEN; mkt mock clock advance --admin-token TOKEN\n`,
          );
        }
        const signal = await stopped;
        ctx.info(`mock: ${signal}, stopping`);
        await server.close();
        await app.close?.();
        await arrivals.close();
        return { kind: 'none' };
      }),
    ),
  );
  mock.addCommand(proxyCommand(ctx));
  mock
    .command('openapi')
    .description('print the OpenAPI 3.1 document of the API and the mock (JSON; the mock serves it at /openapi.json)')
    .action(
      ctx.action(async (): Promise<Output> => {
        const { buildOpenApiDocument } = await import('../contract/openapi/document.js');
        // The document is JSON for tools whatever -o says: a table of it would help no one.
        ctx.io.stdout.write(`${JSON.stringify(buildOpenApiDocument(), null, 2)}
`);
        return { kind: 'none' };
      }),
    );
  addClockCommands(mock, ctx);
  addInspectCommands(mock, ctx);
  addProcessCommand(mock, ctx);
  addSnapshotCommands(mock, ctx);
  return mock;
}
