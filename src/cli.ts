/** The root command: global options, and each command group added from its own factory. */
import { Command, Option } from 'commander';
import { makeAuthCommand } from './commands/auth.js';
import { makeConfigCommand } from './commands/config.js';
import { makeListingsCommand } from './commands/listings.js';
import { makeLoginCommand, makeLogoutCommand } from './commands/login.js';
import { makeMockCommand } from './commands/mock.js';
import type { CommandContext } from './context.js';
import { FORMATS } from './output/render.js';
import { VERSION } from './version.js';

/** Builds the program for one run; help and errors go through the injected streams. */
export function buildProgram(ctx: CommandContext): Command {
  const program = new Command('mkt')
    .description('Invest on the peer-to-peer lending marketplace from the command line, or run its bundled mock.')
    .version(VERSION, '-V, --version')
    .option('--profile <name>', 'credentials and settings profile (env MKT_PROFILE)')
    .addOption(new Option('-o, --output <format>', 'output format (default: table on a terminal, json otherwise)').choices(FORMATS))
    .option('--timezone <zone>', 'IANA time zone for dates in answers (sent as the timezone header)')
    .option('--verbose', 'trace HTTP requests on stderr (secrets redacted)')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .showSuggestionAfterError(true)
    .showHelpAfterError('(run with --help for usage)');
  ctx.program = program;
  program.addCommand(makeLoginCommand(ctx));
  program.addCommand(makeLogoutCommand(ctx));
  program.addCommand(makeAuthCommand(ctx));
  program.addCommand(makeConfigCommand(ctx));
  program.addCommand(makeListingsCommand(ctx));
  program.addCommand(makeMockCommand(ctx));
  configure(program, ctx);
  return program;
}

/** Routes help and errors of a command and all its subcommands through the context's streams. */
function configure(cmd: Command, ctx: CommandContext): void {
  cmd.exitOverride();
  cmd.configureOutput({
    writeOut: (s) => ctx.io.stdout.write(s),
    writeErr: (s) => ctx.io.stderr.write(s),
  });
  for (const sub of cmd.commands) configure(sub, ctx);
}
