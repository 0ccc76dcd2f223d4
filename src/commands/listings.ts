/**
 * `mkt listings search|fields|get` as help lists them. What they take from the listing catalogue (the
 * filter flags of `search`, the columns, the actions) is added by `listings-actions.ts` when one of
 * them runs, so that `mkt listings --help` loads no catalogue.
 */
import type { CommandContext } from '../context.js';
import { deferDefinition, groupCommand } from './groups.js';
import { fieldsCommand, getCommand, searchCommand, type ListingsCommands } from './listings-commands.js';

/** The `listings` command group. */
export function makeListingsCommand(ctx: CommandContext) {
  const listings = groupCommand('listings');
  const commands: ListingsCommands = { search: searchCommand(), fields: fieldsCommand(), get: getCommand() };
  for (const command of Object.values(commands)) listings.addCommand(command);
  deferDefinition(listings, async () => (await import('./listings-actions.js')).defineListings(ctx, commands));
  return listings;
}
