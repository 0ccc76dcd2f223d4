/**
 * The listings subcommands as help lists them, before the catalogue's flags and the actions are added:
 * `listings.ts` makes the group of them, `listings-actions.ts` completes them (and reads their types here).
 */
import { Command } from '@commander-js/extra-typings';
import { FILTER_DATE_FORMS } from '../contract/dates.js';
import { PAGINATION } from '../contract/enums.js';

/** `mkt listings search` as defined here: its own flags (`listings-actions.ts` adds a flag per catalogue filter). */
export function searchCommand() {
  return new Command('search')
    .description('search active listings (or, with --biddable false, originated listings you invested in)')
    .option('--sort-by <clauses>', "sort, e.g. 'borrower_rate desc' or 'platform_rating asc,listing_amount desc'")
    .option('--limit <n>', `listings per page (default ${PAGINATION.listings.default}, maximum ${PAGINATION.listings.max})`)
    .option('--offset <n>', 'index of the first listing')
    .option('--all', 'follow every page and stream the listings')
    .option('--biddable [bool]', 'true: active listings (default); false: originated listings')
    .option('--invested [bool]', 'true (or alone): only listings you invested in; false: only those you did not')
    .option('--whole-loan', 'whole-loan listings only (default: fractional only)')
    .option('--exclude-co-borrower', 'leave out co-borrower applications')
    .option('--include-credit-bureau-values <bureaus>', 'add bureau1, bureau2 or both (slower on large sets)')
    .addHelpText(
      'after',
      `
Every flag also takes the other spelling: --fico_score or --fico-score.
Listed values are case-insensitive (--platform_rating a,b is A,B).
Dates: ${FILTER_DATE_FORMS}.`,
    );
}

/** `mkt listings fields`. */
export function fieldsCommand() {
  return new Command('fields').description('the filter catalogue: every listing field, its type and how it can be filtered');
}

/** `mkt listings get`. */
export function getCommand() {
  return new Command('get').description('one listing by number, active or originated').argument('<number>', 'listing number');
}

/** The subcommands as defined here, in help order: `listings-actions.ts` completes them. */
export interface ListingsCommands {
  search: ReturnType<typeof searchCommand>;
  fields: ReturnType<typeof fieldsCommand>;
  get: ReturnType<typeof getCommand>;
}
