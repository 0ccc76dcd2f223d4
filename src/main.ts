/**
 * Entry point: parses argv, runs the command, and turns every outcome into an exit code.
 * Nothing here calls process.exit, so commands run in-process in tests.
 */
import type { CommandContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import { processIo, type Io } from './io.js';
import { VERSION } from './version.js';

/** Runs `mkt` with `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    // Scripts call this to probe for mkt: answer without building the command tree.
    io.stdout.write(`${VERSION}\n`);
    return EXIT.OK;
  }
  const [{ buildProgram }, { CommandContext }, { CommanderError }] = await Promise.all([
    import('./cli.js'), import('./context.js'), import('commander'),
  ]);
  const ctx = new CommandContext(io);
  try {
    const program = await buildProgram(ctx, argv);
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version are exit 0; commander has already printed its message.
      return err.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    }
    return reportError(ctx, err);
  } finally {
    await ctx.close().catch(() => undefined);
  }
}

function reportError(ctx: CommandContext, err: unknown): number {
  if (err instanceof CliError) {
    ctx.info(`mkt: ${err.message}`);
    if (err.hint) ctx.info(`  hint: ${err.hint}`);
    return err.exitCode;
  }
  const verbose = safeVerbose(ctx);
  ctx.info(`mkt: unexpected error: ${(err as Error)?.message ?? String(err)}`);
  if (verbose && err instanceof Error && err.stack) ctx.info(err.stack);
  else ctx.info('  (this is a bug; run again with --verbose for the stack trace)');
  return EXIT.BUG;
}

function safeVerbose(ctx: CommandContext): boolean {
  try {
    return !!ctx.globals().verbose;
  } catch {
    return false;
  }
}
