/**
 * The root command: global options, and each command group added from its own factory. Only the
 * group being run is loaded; the others stand in as name and description (enough for root help and
 * typo suggestions), which keeps start-up lean as groups grow.
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { GROUPS, groupCommand, type GroupName } from './commands/groups.js';
import { configureHelp } from './commands/help.js';
import { rootCommand, type CommandContext, type RootCommand } from './context.js';
import { redactUserInfo } from './redact-url.js';
import { alternatives, suggestions } from './suggest.js';

/** Loads a group's factory: only the group being run is imported. */
const FACTORIES: Record<GroupName, () => Promise<(ctx: CommandContext) => CommandUnknownOpts>> = {
  login: async () => (await import('./commands/login.js')).makeLoginCommand,
  logout: async () => (await import('./commands/login.js')).makeLogoutCommand,
  auth: async () => (await import('./commands/auth.js')).makeAuthCommand,
  config: async () => (await import('./commands/config.js')).makeConfigCommand,
  listings: async () => (await import('./commands/listings.js')).makeListingsCommand,
  order: async () => (await import('./commands/order.js')).orderCommand,
  invest: async () => (await import('./commands/invest.js')).investCommand,
  loans: async () => (await import('./commands/loans.js')).makeLoansCommand,
  notes: async () => (await import('./commands/notes.js')).makeNotesCommand,
  portfolio: async () => (await import('./commands/portfolio.js')).makePortfolioCommand,
  statement: async () => (await import('./commands/statement.js')).makeStatementCommand,
  account: async () => (await import('./commands/account.js')).makeAccountCommand,
  offers: async () => (await import('./commands/offers.js')).makeOffersCommand,
  demo: async () => (await import('./commands/demo.js')).makeDemoCommand,
  mock: async () => (await import('./commands/mock.js')).makeMockCommand,
  api: async () => (await import('./commands/api.js')).makeApiCommand,
  completion: async () => (await import('./commands/completion.js')).makeCompletionCommand,
  doctor: async () => (await import('./commands/doctor.js')).makeDoctorCommand,
};

/** The hidden command shell completion scripts call back. */
const COMPLETE = '__complete';

/** Global options that take a value, so that the group name can be found after them. */
const VALUE_OPTIONS = new Set(['--profile', '-o', '--output', '--timezone', '--columns', '--query']);

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
export async function buildProgram(ctx: CommandContext, argv: readonly string[]): Promise<RootCommand> {
  const program = rootCommand();
  ctx.program = program;
  // Runs before the action of any subcommand: help and usage errors never load what actions need.
  program.hook('preAction', () => ctx.prepare());
  const invoked = invokedGroup(argv);
  // Shell completion needs every group's flags; it loads the factories, which import nothing heavy at the top.
  const completing = invoked === COMPLETE;
  if (!completing) ctx.argv = argv;
  for (const { name } of GROUPS) {
    program.addCommand(name === invoked || completing ? (await FACTORIES[name]())(ctx) : groupCommand(name));
  }
  if (completing) program.addCommand((await import('./commands/completion.js')).makeCompleteCommand(ctx), { hidden: true });
  configure(program, ctx);
  return program;
}

/** Routes help and errors of a command and all its subcommands through the context's streams. */
function configure(cmd: CommandUnknownOpts, ctx: CommandContext): void {
  cmd.exitOverride();
  suggestNames(cmd);
  cmd.configureOutput({
    writeOut: (s) => ctx.io.stdout.write(s),
    writeErr: (s) => ctx.io.stderr.write(redactUserInfo(s)),
  });
  configureHelp(cmd, ctx.io);
  for (const sub of cmd.commands) configure(sub, ctx);
}

/** Commander's own parts that name an unknown flag or command (not in its typings). */
interface Unknowns {
  unknownOption(flag: string): void;
  unknownCommand(): void;
  args: string[];
  _allowUnknownOption: boolean;
  _enablePositionalOptions: boolean;
}

/**
 * Unknown flags and commands get their suggestion from src/suggest.ts, as every other typed name does.
 * Commander's own matcher allows 3 edits, so `--fico` (for --fico_score) or `--state` (for
 * --borrower_state) got none, and it was handed `--flag=value` whole, which matched nothing.
 */
function suggestNames(cmd: CommandUnknownOpts): void {
  const own = cmd as unknown as Unknowns;
  const hint = (names: string[]): string => (names.length > 0 ? `\n(Did you mean ${alternatives(names)}?)` : '');
  own.unknownOption = (typed) => {
    if (own._allowUnknownOption) return;
    const flag = /^--[^=]+=/.test(typed) ? typed.slice(0, typed.indexOf('=')) : typed;
    // The flags of this command and of those above it whose options it may take, as commander looks them up.
    const flags: string[] = [];
    for (let c: CommandUnknownOpts | null = cmd; c; c = (c as unknown as Unknowns)._enablePositionalOptions ? null : c.parent) {
      flags.push(
        ...c
          .createHelp()
          .visibleOptions(c)
          .flatMap((o) => (o.long ? [o.long] : [])),
      );
    }
    cmd.error(`error: unknown option '${flag}'${flag.startsWith('--') ? hint(suggestions(flag, flags)) : ''}`, {
      code: 'commander.unknownOption',
    });
  };
  own.unknownCommand = () => {
    const typed = own.args[0] ?? '';
    const names = cmd
      .createHelp()
      .visibleCommands(cmd)
      .flatMap((c) => [c.name(), ...c.aliases()]);
    cmd.error(`error: unknown command '${typed}'${hint(suggestions(typed, names))}`, { code: 'commander.unknownCommand' });
  };
}
