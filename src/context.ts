/**
 * The context every command factory receives: the injected world, the global options, lazily
 * built settings and API client, and the action wrapper that renders what a command returns. The root
 * command `mkt` is defined here with its global options, apart from src/cli.ts, which adds the groups, so
 * that CommandContext takes the options' types from that definition without importing the commands.
 */
import { Command, Option } from '@commander-js/extra-typings';
import type { ApiClient } from './api/client.js';
import type { HttpClient } from './api/http.js';
import type { Pacer } from './api/pacer.js';
import type { Settings } from './config/settings.js';
import type { Io } from './io.js';
import { UsageError } from './errors.js';
import { redactUserInfo } from './redact-url.js';
import { FORMATS, resolveFormat, type Format } from './output/formats.js';
import type { Output } from './output/render.js';
import { VERSION } from './version.js';

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
    .option('--verbose', 'trace HTTP requests on stderr (secrets redacted); shows progress too')
    .option('--progress', 'progress and per-bid lines on stderr even off a terminal (default: only on a terminal)')
    .option('--no-progress', 'no progress lines, even on a terminal (failures and warnings still print)')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .showSuggestionAfterError(true)
    .showHelpAfterError('(run with --help for usage)');
}

/** The root command as its definition types it. */
export type RootCommand = ReturnType<typeof rootCommand>;

/** What every action needs and help does not: the settings reader and the renderers. */
async function loadActionModules() {
  const [settings, render, select] = await Promise.all([
    import('./config/settings.js'),
    import('./output/render.js'),
    import('./output/select.js'),
  ]);
  return { settings, render, select };
}

/** Runs `mkt` in-process with `argv` and `io`, returning the exit code: `main` itself, handed in by main. */
export type RunMkt = (argv: string[], io: Io) => Promise<number>;

/** Shared by all commands of one run. */
export class CommandContext {
  /** Set by commands that end with a code other than 0 without an error (e.g. --wait: 6). */
  exitCode = 0;
  program!: RootCommand;
  /**
   * The run's arguments, set by buildProgram unless the run is shell completion (which reads every flag): a
   * command with a long catalogue of flags defines the ones they name (options.ts, namedOnly). Unset: all of them.
   */
  argv?: readonly string[];
  private http?: HttpClient;
  private pacing?: Pacer;
  private client?: ApiClient;
  private loaded?: Awaited<ReturnType<typeof loadActionModules>>;

  /** `runMkt` lets a command run other mkt commands (the demo) without importing main, which imports every command. */
  constructor(
    readonly io: Io,
    readonly runMkt: RunMkt,
  ) {}

  /** The global options as parsed (typed by the root command's definition). */
  globals(): ReturnType<RootCommand['opts']> {
    return this.program.opts();
  }

  /**
   * Loads the modules actions use, so that `mkt --help` and a usage error start without them: the root
   * command runs this before any action (a preAction hook, src/cli.ts).
   */
  async prepare(): Promise<void> {
    if (this.loaded) return;
    this.loaded = await loadActionModules();
    // Here, once per run: every action passes, and none should go on unwarned.
    const warning = this.loaded.settings.configDirWarning(this.io.env);
    if (warning) this.info(warning);
  }

  private modules(): NonNullable<typeof this.loaded> {
    if (!this.loaded) throw new Error('CommandContext used before prepare(): only actions read settings and render');
    return this.loaded;
  }

  /** Resolved and checked settings of the selected profile (a bad value is exit 2 naming its source). */
  settings(): Settings {
    const g = this.globals();
    return this.modules().settings.resolveSettings(this.io.env, g.profile, { timezone: g.timezone, output: g.output });
  }

  /**
   * The chosen output format. Only the output setting is checked here: every command renders, and a bad
   * URL must not stop `config set` from fixing it, nor `mock serve` (which uses none) from starting.
   */
  format(): Format {
    const g = this.globals();
    const output = g.output ?? this.modules().settings.resolveSettings(this.io.env, g.profile, {}, ['output']).output;
    if (g.query === undefined) return resolveFormat(output, this.io.stdoutIsTTY);
    // --query shapes JSON: it implies json on a terminal, and a table or csv asked for by name cannot carry its answer.
    if (output === undefined) return 'json';
    const format = resolveFormat(output, this.io.stdoutIsTTY);
    if (format === 'table' || format === 'csv') throw new UsageError(`--query applies to -o json or -o ndjson, not ${format}`);
    return format;
  }

  /**
   * The width tables fit: COLUMNS when set, else the terminal's (80 when it reports none or 0, as some
   * emulators and serial consoles do); none when stdout is not a terminal (piped text is not cut).
   */
  tableWidth(): number | undefined {
    const env = this.io.env.COLUMNS?.trim();
    if (env && /^\d+$/.test(env) && Number(env) >= 20) return Number(env);
    const columns = this.io.stdoutColumns;
    return this.io.stdoutIsTTY ? (columns !== undefined && columns > 0 ? columns : 80) : undefined;
  }

  /** Colour only on a terminal, and never with --no-color or NO_COLOR. */
  color(): boolean {
    return this.io.stdoutIsTTY && this.globals().color !== false && !this.io.env.NO_COLOR;
  }

  /** A message for the person: stderr, a password in a URL shown as `***`. */
  info(line: string): void {
    this.io.stderr.write(`${redactUserInfo(line)}\n`);
  }

  /**
   * Whether progress and per-bid lines are printed: --progress / --no-progress when given, else with
   * --verbose, else only when stderr is a terminal, so that a cron job, which mails whatever reaches
   * stderr, mails failures and warnings alone.
   */
  showsProgress(): boolean {
    const g = this.globals();
    return g.progress ?? (g.verbose === true || this.io.stderrIsTTY);
  }

  /** A progress line (what the run is doing, or what its output already says): stderr when showsProgress(). */
  progress(line: string): void {
    if (this.showsProgress()) this.info(line);
  }

  /** The run's one pacer (src/api/pacer.ts): every HTTP client of the run keeps under the limits together. */
  async pacer(): Promise<Pacer> {
    if (!this.pacing) {
      const { Pacer } = await import('./api/pacer.js');
      this.pacing = new Pacer(this.io);
    }
    return this.pacing;
  }

  /** The HTTP client (undici is loaded on first use). */
  async httpClient(): Promise<HttpClient> {
    if (!this.http) {
      const [{ HttpClient }, { httpTimeoutMs }, pacer] = await Promise.all([
        import('./api/http.js'),
        import('./config/timeouts.js'),
        this.pacer(),
      ]);
      const trace = this.globals().verbose ? (line: string) => this.info(line) : undefined;
      this.http = new HttpClient({ trace, clock: this.io, sleep: this.io.sleep, pacer, timeoutMs: httpTimeoutMs(this.io.env) });
    }
    return this.http;
  }

  /** The authenticated API client for the selected profile. */
  async api(): Promise<ApiClient> {
    if (!this.client) {
      const [{ ApiClient }, { createTokenProvider }] = await Promise.all([import('./api/client.js'), import('./auth/index.js')]);
      const settings = this.settings();
      const http = await this.httpClient();
      const tokens = await createTokenProvider({ settings, env: this.io.env, http, stderr: (l) => this.info(l) });
      this.client = new ApiClient(http, settings, tokens, this.io);
    }
    return this.client;
  }

  /**
   * Wraps a command body: it returns an Output, which is rendered in the chosen format. `--query`, and
   * `--columns` against `fields` when the command names them, are checked before the body runs, so a
   * mistake is exit 2 with nothing sent.
   */
  action<A extends unknown[]>(body: (...args: A) => Promise<Output | void>, fields?: readonly string[]): (...args: A) => Promise<void> {
    return async (...args: A) => {
      const g = this.globals();
      const format = this.format();
      const {
        render: { render },
        select: { checkColumns, parseQuery },
      } = this.modules();
      const query = g.query === undefined ? undefined : await parseQuery(g.query);
      if (g.columns !== undefined && fields) checkColumns(g.columns, fields);
      const output = await body(...args);
      if (!output) return;
      // Commander hands the running command to an action last: its flags are what a footer may suggest.
      const command = args.at(-1);
      const flags = command instanceof Command ? command.options.flatMap((o) => (o.long ? [o.long] : [])) : [];
      await render(this.io.stdout, output, format, {
        color: this.color(),
        width: format === 'table' ? this.tableWidth() : undefined,
        columns: g.columns,
        query,
        notes: this.io.stderr,
        flags,
      });
    };
  }

  /** Releases pooled connections so the process can end. */
  async close(): Promise<void> {
    await this.http?.close();
  }
}
