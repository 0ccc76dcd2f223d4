/**
 * The root command `mkt` and its global options. Apart from src/cli.ts, which adds the groups, so that
 * CommandContext can take the global options' types from this definition without importing cli.ts.
 */
import { Command, Option } from '@commander-js/extra-typings';
import { FORMATS } from '../output/formats.js';
import { VERSION } from '../version.js';

/** The root command with its global options, whose types `CommandContext.globals()` reads. */
export function rootCommand() {
  return new Command('mkt')
    .description('Invest on the peer-to-peer lending marketplace from the command line, or run its bundled mock.')
    .version(VERSION, '-V, --version')
    .option('--profile <name>', 'credentials and settings profile (env MKT_PROFILE)')
    .addOption(new Option('-o, --output <format>', 'output format (default: table on a terminal, json otherwise)').choices(FORMATS))
    .option('--columns <names>', 'fields to show, comma-separated, in every format (json and ndjson objects keep only these keys)')
    .option('--query <expr>', 'JMESPath expression applied to JSON output (-o json: the whole answer; -o ndjson: each item)')
    .option('--timezone <zone>', 'IANA time zone for dates in answers (sent as the timezone header)')
    .option('--verbose', 'trace HTTP requests on stderr (secrets redacted)')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .showSuggestionAfterError(true)
    .showHelpAfterError('(run with --help for usage)');
}

/** The root command as its definition types it. */
export type RootCommand = ReturnType<typeof rootCommand>;
