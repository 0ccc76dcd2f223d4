/** `mkt mock serve`: the bundled, stateful mock marketplace on a loopback port. */
import { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { parseCount } from './options.js';

interface ServeOptions {
  port: string;
  host: string;
  seed: string;
  listings: string;
  state?: string;
  autoApprove?: string[];
  client?: string[];
  frozen?: boolean;
  start?: string;
  admin: boolean;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Reads the serve flags into mock options (exit 2 on a bad value). */
export function serveOptions(opts: ServeOptions) {
  const start = opts.start === undefined ? undefined : Date.parse(opts.start);
  if (start !== undefined && !Number.isFinite(start)) throw new UsageError(`--start must be an ISO date-time, got '${opts.start}'`);
  return {
    port: parseCount('--port', opts.port, 0),
    host: opts.host,
    options: {
      seed: parseCount('--seed', opts.seed, 0),
      listings: parseCount('--listings', opts.listings, 0),
      frozen: !!opts.frozen,
      admin: opts.admin,
      ...(start !== undefined ? { start } : {}),
      ...(opts.state ? { stateFile: opts.state } : {}),
      ...(opts.autoApprove ? { autoApprove: opts.autoApprove } : {}),
      ...(opts.client ? { clients: opts.client } : {}),
    },
  };
}

/** The `mock` command group. */
export function makeMockCommand(ctx: CommandContext): Command {
  const mock = new Command('mock').description('the bundled mock marketplace');
  mock
    .command('serve')
    .description('run the mock marketplace until interrupted (Ctrl-C)')
    .option('--port <port>', 'port to listen on (0 picks a free one)', '4010')
    .option('--host <host>', 'address to bind (loopback by default)', '127.0.0.1')
    .option('--seed <n>', 'seed of the generated world', '1')
    .option('--listings <n>', 'active listings to generate', '2000')
    .option('--state <file>', 'keep the world in FILE across restarts')
    .option('--auto-approve <user>', "approve this user's read/write grant at once (repeatable)", collect)
    .option('--client <id:secret:redirect>', 'register another OAuth client (repeatable)', collect)
    .option('--frozen', 'the clock stands still unless moved')
    .option('--start <iso>', 'virtual start time (default: now)')
    .option('--no-admin', 'disable the /__mock admin routes')
    .action(ctx.action(async (opts: ServeOptions): Promise<Output> => {
      const { port, host, options } = serveOptions(opts);
      const [{ createMockApp }, { startHttpServer }, { describeMock }] = await Promise.all([
        import('../../mock-server/app.js'),
        import('../../mock-server/http-adapter.js'),
        import('../../mock-server/describe.js'),
      ]);
      const app = createMockApp(options);
      let server;
      try {
        server = await startHttpServer(app, host, port);
      } catch (err) {
        const e = err as Error & { code?: string };
        if (e.code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${host} is already in use`, 'pick another with --port (0 picks a free one)');
        throw err;
      }
      ctx.io.stdout.write(describeMock(app, server.origin));
      const signal = await ctx.io.stopSignal();
      ctx.info(`mock: ${signal}, stopping`);
      await server.close();
      await app.close?.();
      return { kind: 'none' };
    }));
  return mock;
}
