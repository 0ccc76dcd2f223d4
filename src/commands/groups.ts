/**
 * Every command group's name, summary and description, written once. The root command lists the groups
 * from here without loading their modules (start-up stays lean), and each factory starts its command
 * from `groupCommand`, so the root help and the group's own help cannot drift apart.
 */
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { CONFIG_KEYS } from '../config/keys.js';

/** One group: `summary` is its line in `mkt --help`, `description` heads its own help (default: the summary). */
export interface GroupInfo {
  name: string;
  summary: string;
  description?: string;
}

/** Every command group, in help order. */
export const GROUPS = [
  {
    name: 'login',
    summary: 'sign in through the browser and store the credentials',
    description: 'sign in through the browser (authorization-key flow) and store the credentials',
  },
  {
    name: 'logout',
    summary: "remove the profile's stored credentials",
    description: "remove the profile's stored credentials (keychain and file)",
  },
  { name: 'auth', summary: 'credentials of the current profile: status, token', description: 'credentials of the current profile' },
  {
    name: 'config',
    summary: 'settings per profile: get, set, list, unset',
    description: `settings per profile (${CONFIG_KEYS.join(', ')})`,
  },
  {
    name: 'doctor',
    summary: 'check what a cron job needs: settings, marketplace, credentials, clock, journal, lock, PATH',
    description:
      "check, one line each, what a cron job needs: settings and where they come from, the marketplace reachable, credentials present and renewable, the clock against the marketplace's, the order journal and lock, and mkt on PATH",
  },
  { name: 'listings', summary: 'search and read loan listings' },
  { name: 'order', summary: 'place bids and follow orders' },
  { name: 'invest', summary: 'scripted batch investing from a strategy file: check, run, simulate' },
  { name: 'loans', summary: 'loans you hold notes in' },
  { name: 'notes', summary: 'your notes: your pro-rata share of each loan you hold' },
  {
    name: 'portfolio',
    summary: 'your notes summed up: value, cash, received, by status and rating, realised and expected returns',
    description:
      'your notes summed up: account value, cash, pending bids, outstanding principal, what was received, notes by status and by rating, and the realised and expected net annualised returns (IRR) from the payments',
  },
  {
    name: 'statement',
    summary: "a period's flows per note from the payments: interest, fees, principal, losses (CSV for tax time)",
    description:
      'per note and in total, what the payments of a period brought: interest, late fees, service and collection fees, principal received, principal lost to charge-offs (with the date) and sale proceeds; table, JSON or CSV. A record of flows, not tax advice',
  },
  { name: 'account', summary: 'cash balance, pending investments, total value and external_user_id' },
  { name: 'offers', summary: 'partner: request personalised loan offers for an applicant' },
  {
    name: 'demo',
    summary: 'walk through the whole story against an embedded mock',
    description: 'walk through login, search, order, wait, clock, loans against an embedded mock (no network, keychain or browser)',
  },
  { name: 'mock', summary: 'the bundled mock marketplace' },
  {
    name: 'api',
    summary: 'make an authenticated call to any endpoint and print the JSON answer',
    description: 'make an authenticated call to any marketplace endpoint (as `gh api`) and print the JSON answer',
  },
  { name: 'completion', summary: 'print a shell completion script: bash, zsh or fish' },
] as const satisfies readonly GroupInfo[];

/** A group's name. */
export type GroupName = (typeof GROUPS)[number]['name'];

/** The bare command of a group, with its summary and description: factories add options and actions to it. */
export function groupCommand(name: GroupName): Command {
  const info: GroupInfo = GROUPS.find((g) => g.name === name)!;
  return new Command(name).summary(info.summary).description(info.description ?? info.summary);
}

/** Where a group keeps its deferred definition (run at most once): on the command itself, dropped with it. */
const DEFINE = Symbol('mkt.deferredDefinition');

/** A command that may carry its deferred definition. */
type DeferringCommand = CommandUnknownOpts & { [DEFINE]?: () => Promise<void> };

/**
 * Defers the costly part of a group's definition (the listing catalogue's ~150 flags of `listings search`)
 * until one of its subcommands runs or shows its help, so that the root help and the group's own help do
 * not pay for it. `define` adds options and actions to the subcommands the group already has; it must
 * not add commands (help and error routing are set on the tree before parsing).
 */
export function deferDefinition(group: CommandUnknownOpts, define: () => Promise<void>): void {
  let defined: Promise<void> | undefined;
  const once = () => (defined ??= define());
  (group as DeferringCommand)[DEFINE] = once;
  group.hook('preSubcommand', once);
}

/** Runs every deferred definition in the tree under `cmd`: shell completion reads every flag. */
export async function defineDeferred(cmd: CommandUnknownOpts): Promise<void> {
  await (cmd as DeferringCommand)[DEFINE]?.();
  for (const sub of cmd.commands) await defineDeferred(sub);
}
