/**
 * Entry point: parses argv, runs the command, and turns every outcome into an exit code.
 * Nothing here calls process.exit, so commands run in-process in tests.
 */
import type { CommandContext } from './context.js';
import { CliError, EXIT, OutputClosedError, systemErrorWords } from './errors.js';
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
    import('./cli.js'),
    import('./context.js'),
    import('@commander-js/extra-typings'),
  ]);
  const ctx = new CommandContext(io, main);
  try {
    const program = await buildProgram(ctx, argv);
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version are exit 0; commander has already printed its message.
      return err.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    }
    return reportError(ctx, argv, err);
  } finally {
    await ctx.close().catch(() => undefined);
  }
}

function reportError(ctx: CommandContext, argv: readonly string[], err: unknown): number {
  if (err instanceof OutputClosedError) {
    const code = (err.cause as { code?: unknown } | undefined)?.code;
    if (code === undefined || code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED') {
      // The reader took what it wanted (`mkt … | head`): end quietly, as gh does. A verdict already
      // reached (an incomplete --wait) still stands; a closed pipe adds no failure of its own.
      return ctx.exitCode;
    }
    // A full disk or a failing device is a real failure: the output is incomplete.
    ctx.info(`mkt: cannot write the output: ${systemErrorWords(err.cause)}`);
    return EXIT.BUG;
  }
  if (err instanceof CliError) {
    ctx.info(`mkt: ${err.message}`);
    if (err.hint) ctx.info(`  hint: ${err.hint}`);
    return err.exitCode;
  }
  const sys = err as { code?: unknown; syscall?: unknown; path?: unknown };
  if (err instanceof Error && typeof sys.code === 'string' && typeof sys.syscall === 'string') {
    // The machine refused (a state dir not writable, a disk full): say what and where in words, no bug report.
    ctx.info(`mkt: cannot ${sys.syscall}${typeof sys.path === 'string' ? ` ${sys.path}` : ''}: ${systemErrorWords(err)}`);
    if (isVerbose(ctx, argv) && err.stack) ctx.info(err.stack);
    return EXIT.BUG;
  }
  // A bug: one line that says so and asks for a report; the stack only when asked for.
  const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  ctx.info(`mkt: internal error (${what}); this is a bug in mkt ${VERSION}, please report it with the command and the output of --verbose`);
  if (isVerbose(ctx, argv) && err instanceof Error && err.stack) ctx.info(err.stack);
  return EXIT.BUG;
}

/** --verbose as parsed, or as written when the failure came before parsing finished. */
function isVerbose(ctx: CommandContext, argv: readonly string[]): boolean {
  try {
    if (ctx.globals().verbose) return true;
  } catch {
    // No program yet: fall back to argv.
  }
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--verbose');
}
