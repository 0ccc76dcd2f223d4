/**
 * The root command: global options, and each command group added from its own factory. Only the
 * group being run is loaded; the others stand in as name and description (enough for root help and
 * typo suggestions), which keeps start-up lean as groups grow.
 */
import { Command, Option } from 'commander';
import type { CommandContext } from './context.js';
import { FORMATS } from './output/render.js';
import { VERSION } from './version.js';

/** A command group: its name, one-line description and factory module. */
interface Group {
  name: string;
  description: string;
  load(): Promise<(ctx: CommandContext) => Command>;
}

/** Every command group, in help order. */
const GROUPS: Group[] = [
  { name: 'login', description: 'sign in through the browser and store the credentials', load: async () => (await import('./commands/login.js')).makeLoginCommand },
  { name: 'logout', description: "remove the profile's stored credentials", load: async () => (await import('./commands/login.js')).makeLogoutCommand },
  { name: 'auth', description: 'credentials of the current profile: status, token', load: async () => (await import('./commands/auth.js')).makeAuthCommand },
  { name: 'config', description: 'settings per profile: get, set, list, unset', load: async () => (await import('./commands/config.js')).makeConfigCommand },
  { name: 'listings', description: 'search and read loan listings', load: async () => (await import('./commands/listings.js')).makeListingsCommand },
  { name: 'order', description: 'place bids and follow orders', load: async () => (await import('./commands/order.js')).makeOrderCommand },
  { name: 'invest', description: 'scripted batch investing from a strategy file: check, run', load: async () => (await import('./commands/invest.js')).makeInvestCommand },
  { name: 'loans', description: 'loans you hold notes in', load: async () => (await import('./commands/loans.js')).makeLoansCommand },
  { name: 'account', description: 'cash balance, pending investments, total value and external_user_id', load: async () => (await import('./commands/account.js')).makeAccountCommand },
  { name: 'offers', description: 'partner: request personalised loan offers for an applicant', load: async () => (await import('./commands/offers.js')).makeOffersCommand },
  { name: 'demo', description: 'walk through the whole story against an embedded mock', load: async () => (await import('./commands/demo.js')).makeDemoCommand },
  { name: 'mock', description: 'the bundled mock marketplace', load: async () => (await import('./commands/mock.js')).makeMockCommand },
];

/** Global options that take a value, so that the group name can be found after them. */
const VALUE_OPTIONS = new Set(['--profile', '-o', '--output', '--timezone']);

/** The first non-option word of argv: the command group being run. */
export function invokedGroup(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-')) return a === 'help' ? argv[i + 1] : a;
  }
  return undefined;
}

/** Builds the program for one run; help and errors go through the injected streams. */
export async function buildProgram(ctx: CommandContext, argv: readonly string[]): Promise<Command> {
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
  const invoked = invokedGroup(argv);
  for (const group of GROUPS) {
    const cmd = group.name === invoked ? (await group.load())(ctx) : new Command(group.name).description(group.description);
    program.addCommand(cmd);
  }
  configure(program, ctx);
  return program;
}

/** Routes help and errors of a command and all its subcommands through the context's streams. */
function configure(cmd: Command, ctx: CommandContext): void {
  cmd.exitOverride();
  // Commander hands `--flag=value` whole to its typo matcher when the flag is unknown, which then finds
  // nothing: give it the flag alone, so `--fico_scor=760-779` is told about --fico_score as `--fico_scor` is.
  const own = cmd as unknown as { unknownOption(flag: string): void };
  const unknownOption = own.unknownOption.bind(cmd);
  own.unknownOption = (flag) => unknownOption(/^--[^=]+=/.test(flag) ? flag.slice(0, flag.indexOf('=')) : flag);
  cmd.configureOutput({
    writeOut: (s) => ctx.io.stdout.write(s),
    writeErr: (s) => ctx.io.stderr.write(s),
  });
  for (const sub of cmd.commands) configure(sub, ctx);
}
