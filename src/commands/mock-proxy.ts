/**
 * `mkt mock proxy --upstream URL`: a loopback proxy in front of another marketplace (the real service,
 * or another mock) that forwards everything unchanged and checks each request and answer against the
 * OpenAPI document (mock-server/proxy/). Its request log answers `mkt mock requests [--violations]`; on
 * Ctrl-C or SIGTERM it prints the differences by endpoint and field to stderr and exits 0.
 */
import { Command, Option } from '@commander-js/extra-typings';
import type { CommandContext } from '../context.js';
import { MOCK_ADMIN_PREFIX } from '../contract/mock-admin.js';
import { DEFAULT_REQUEST_LOG_SIZE, MAX_REQUEST_LOG_SIZE } from '../contract/mock-inspect.js';
import { UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { parseCount, requestLogSizeOption } from './options.js';

/** `mkt mock proxy` as defined. */
export function proxyCommand(ctx: CommandContext) {
  return new Command('proxy')
    .description(
      'forward every request to another marketplace unchanged, checking both directions against the OpenAPI document, until interrupted',
    )
    .requiredOption('--upstream <url>', 'the marketplace to forward to: http(s)://host[:port][/base]')
    .option('--port <port>', 'port to listen on, on 127.0.0.1 (0 picks a free one)', '4011')
    .option(
      '--request-log-size <n>',
      `exchanges its request log keeps for \`mkt mock requests\` (0: none)`,
      String(DEFAULT_REQUEST_LOG_SIZE),
    )

    .addOption(new Option('--journal-size <n>').hideHelp())
    .option(
      '--allow-host <name>',
      'serve requests whose Host is this name too (repeatable; loopback names always are)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .action(
      ctx.action(async (opts): Promise<Output> => {
        const port = parseCount('--port', opts.port, 0);
        if (port > 65_535) throw new UsageError(`--port must be a whole number from 0 to 65535, got '${opts.port}'`);
        const requestLogSize = requestLogSizeOption(opts, MAX_REQUEST_LOG_SIZE);
        const [{ parseUpstream, startProxy }, { readAllowedHost }] = await Promise.all([
          import('../../mock-server/library/proxy.js'),
          import('../../mock-server/library/flags.js'),
        ]);
        const allowHosts = (opts.allowHost ?? []).map((text) => {
          const read = readAllowedHost(text);
          if ('problem' in read) throw new UsageError(`--allow-host ${read.problem}`);
          return read.name;
        });
        const upstream = parseUpstream(opts.upstream);
        if ('problem' in upstream)
          throw new UsageError(`--upstream ${upstream.problem}`, "give the marketplace's root, such as --upstream http://127.0.0.1:4010");
        let proxy;
        try {
          proxy = await startProxy({ upstream: opts.upstream, requestLogSize, allowHosts }, port);
        } catch (err) {
          if ((err as { code?: string }).code === 'EADDRINUSE')
            throw new UsageError(`port ${port} is in use; pick another with --port`, '--port 0 picks a free one');
          throw err;
        }
        // Listened for before the banner, as `mock serve` does: a stop sent on reading it finds a listener.
        const stopped = ctx.io.stopSignal();
        ctx.io.stdout.write(
          [
            `mkt mock proxy: ${proxy.origin} -> ${opts.upstream}`,
            `  every request is forwarded unchanged and checked against the OpenAPI document, both ways`,
            `  point a client at it: MKT_ROOT_URL=${proxy.origin}`,
            `  differences: mkt mock requests --violations (GET ${proxy.origin}${MOCK_ADMIN_PREFIX}/requests?violations=true)`,
            `  Ctrl-C stops it and prints them by endpoint and field`,
            '',
          ].join('\n'),
        );
        const signal = await stopped;
        await proxy.close();
        ctx.io.stderr.write(`mkt mock proxy: ${signal}, stopping\n${proxy.tally.text()}`);
        return { kind: 'none' };
      }),
    );
}
