/**
 * Entry point: parses argv, runs the command, and turns every outcome into an exit code.
 * Nothing here calls process.exit, so commands run in-process in tests.
 */
import { CommanderError } from 'commander';
import { buildProgram } from './cli.js';
import { CommandContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import { processIo, type Io } from './io.js';

/** Runs `mkt` with `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const ctx = new CommandContext(io);
  try {
    const program = buildProgram(ctx);
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (err) {
    return reportError(ctx, err);
  } finally {
    await ctx.close().catch(() => undefined);
  }
}

function reportError(ctx: CommandContext, err: unknown): number {
  if (err instanceof CommanderError) {
    // Help and version are exit 0; commander has already printed its usage message.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.OK;
    return err.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
  }
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
