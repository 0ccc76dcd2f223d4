/**
 * Shell completion. `mkt completion bash|zsh|fish` prints a script; the script calls back the hidden
 * `mkt __complete -- WORDS…`, which prints one candidate a line. Candidates come from the command
 * tree itself (commands, flags, choices), the listing filter catalogue (enumerated values) and the
 * config file (profile names): nothing is fetched, and no client, token or network module is loaded.
 */
import { Argument, Command, type CommandUnknownOpts, type Help, type Option } from '@commander-js/extra-typings';
import { readConfig } from '../config/settings.js';
import { ALLOWED_VALUES, resolveFilterParam } from '../contract/listing-filters.js';
import type { CommandContext } from '../context.js';
import { defineDeferred, groupCommand } from './groups.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

const SCRIPTS: Record<Shell, string> = {
  // COMP_WORDS splits `--flag=value` at '=': __complete joins the pieces again and answers for the last one.
  bash: `# mkt completion for bash. Load it with: source <(mkt completion bash)
_mkt_complete() {
  local IFS=$'\\n'
  COMPREPLY=($(command mkt __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _mkt_complete mkt
`,
  zsh: `#compdef mkt
# mkt completion for zsh. Load it with: source <(mkt completion zsh)  (after compinit)
_mkt() {
  local -a candidates
  candidates=("\${(@f)$(command mkt __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if [[ -n "\${candidates[1]}" ]]; then
    compadd -Q -- "\${candidates[@]}"
  else
    _files
  fi
}
if (( \${+functions[compdef]} )); then compdef _mkt mkt; fi
`,
  fish: `# mkt completion for fish. Load it with: mkt completion fish | source
function __mkt_complete
    set -l words (commandline -opc)
    set -e words[1]
    command mkt __complete -- $words (commandline -ct) 2>/dev/null
end
complete -c mkt -f -a '(__mkt_complete)'
`,
};

/** The `completion` command: prints the script for a shell. */
export function makeCompletionCommand(ctx: CommandContext) {
  return groupCommand('completion')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .action((shell) => {
      ctx.io.stdout.write(SCRIPTS[shell]);
    });
}

/** The hidden `__complete` command the scripts call: prints the candidates for the last word. */
export function makeCompleteCommand(ctx: CommandContext) {
  return new Command('__complete')
    .argument('[words...]')
    .allowUnknownOption()
    .helpOption(false)
    .action(async (words) => {
      await defineDeferred(ctx.program);
      let candidates: string[];
      try {
        candidates = complete(ctx.program, words, ctx.io.env);
      } catch {
        // A completion never prints an error into the middle of a command line being typed.
        candidates = [];
      }
      if (candidates.length > 0) ctx.io.stdout.write(`${candidates.join('\n')}\n`);
    });
}

type Env = Readonly<Record<string, string | undefined>>;

/** The candidates for the last of `words` (the words after `mkt`; the last one is being typed, maybe empty). */
export function complete(root: CommandUnknownOpts, words: readonly string[], env: Env): string[] {
  const { tokens, strip } = joinEquals(words);
  const cur = tokens.at(-1) ?? '';
  let cmd = root;
  let help = cmd.createHelp();
  let pending: Option | undefined;
  let positionals = 0;
  for (const w of tokens.slice(0, -1)) {
    if (pending) {
      pending = undefined;
      continue;
    }
    if (w === '--') return [];
    if (w.startsWith('-') && w.length > 1) {
      const opt = w.includes('=') ? undefined : findOption(cmd, help, w);
      // An optional value ([bool]) is taken only when the next word is not a flag, as commander does.
      if (opt && (opt.required || opt.optional)) pending = opt;
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (sub && positionals === 0) {
      cmd = sub;
      help = cmd.createHelp();
    } else positionals++;
  }
  let out: string[];
  if (pending && !(pending.optional && cur.startsWith('-'))) out = valuesOf(pending, cur, '', env);
  else if (cur.startsWith('--') && cur.includes('=')) {
    const flag = cur.slice(0, cur.indexOf('='));
    const opt = findOption(cmd, help, flag);
    out = opt ? valuesOf(opt, cur.slice(flag.length + 1), `${flag}=`, env) : [];
  } else if (cur.startsWith('-')) {
    out = [...help.visibleOptions(cmd), ...help.visibleGlobalOptions(cmd)]
      .map((o) => o.long ?? o.short ?? '')
      .filter((f) => f.startsWith(cur));
  } else if (positionals === 0 && cmd.commands.length > 0) {
    out = help
      .visibleCommands(cmd)
      .map((c) => c.name())
      .filter((n) => n.startsWith(cur) && n !== 'help');
  } else {
    const choices = cmd.registeredArguments[positionals]?.argChoices ?? [];
    out = choices.filter((c) => c.startsWith(cur));
  }
  return strip === undefined ? out : out.map((c) => c.slice(strip));
}

/**
 * Bash hands `--flag=val` over as three words (`--flag`, `=`, `val`): join them, and say how much of
 * each candidate to cut so that it replaces only what bash takes as the current word.
 */
function joinEquals(words: readonly string[]): { tokens: string[]; strip?: number } {
  const tokens = [...words];
  let strip: number | undefined;
  for (let i = 1; i < tokens.length; i++) {
    if (tokens[i] !== '=' || !tokens[i - 1]!.startsWith('--')) continue;
    const head = `${tokens[i - 1]}=`;
    const hasValue = i + 1 < tokens.length;
    // The word being typed is the '=' itself (candidates keep it) or the value after it (they start after it).
    if (!hasValue) strip = head.length - 1;
    else if (i + 1 === tokens.length - 1) strip = head.length;
    tokens.splice(i - 1, hasValue ? 3 : 2, head + (hasValue ? tokens[i + 1]! : ''));
    i--;
  }
  return { tokens, strip };
}

/** The option `flag` names on `cmd` or any command above it (the global options). */
function findOption(cmd: CommandUnknownOpts, help: Help, flag: string): Option | undefined {
  return [...help.visibleOptions(cmd), ...help.visibleGlobalOptions(cmd)].find((o) => o.long === flag || o.short === flag);
}

/** The values an option takes that start with `typed`; comma-separated lists complete their last item. */
function valuesOf(opt: Option, typed: string, prefix: string, env: Env): string[] {
  const name = (opt.long ?? '').replace(/^--/, '');
  let values: readonly string[] = opt.argChoices ?? [];
  let list = false;
  const filter = resolveFilterParam(name);
  if (name === 'profile') values = Object.keys(readConfig(env).profiles).sort();
  else if (filter?.kind === 'boolean' || opt.flags.includes('[bool]')) values = ['true', 'false'];
  else if (filter?.kind === 'multivalue') {
    values = ALLOWED_VALUES[filter.field] ?? [];
    list = true;
  }
  const comma = list ? typed.lastIndexOf(',') + 1 : 0;
  const done = typed.slice(0, comma);
  const chosen = new Set(done.split(','));
  return values.filter((v) => !chosen.has(v) && v.startsWith(typed.slice(comma))).map((v) => `${prefix}${done}${v}`);
}
