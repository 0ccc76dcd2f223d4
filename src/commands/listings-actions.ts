/**
 * What the `listings` commands do, loaded when one of them runs (`listings.ts` defers it): a flag of
 * `search` per filterable catalogue field, grouped for help, the query those flags build, and the actions.
 */
import { Option, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { BUREAU2_BY_SHORT, BUREAU2_ELEMENTS } from '../contract/bureau.js';
import { PAGINATION } from '../contract/enums.js';
import { filterParamNames, resolveFilterParam } from '../contract/listing-filters.js';
import { QueryError, readListingSearch, type ListingSearch } from '../contract/listing-query.js';
import { LISTING_FIELD_BY_NAME, LISTING_FIELDS, SORTABLE_FIELDS } from '../contract/listing-fields.js';
import type { CommandContext } from '../context.js';
import { CliError, EXIT, UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { LISTING_SECTIONS } from '../output/sections.js';
import { sortFieldHint } from '../suggest.js';
import type { ListingsCommands } from './listings-commands.js';
import { acceptBothSpellings, namedOnly, parseCount, parseLimit, type OptionsOf } from './options.js';

/** Columns a table shows when --columns is not given. */
export const DEFAULT_LISTING_COLUMNS = [
  'listing_number',
  'platform_rating',
  'fico_score',
  'listing_term',
  'borrower_rate',
  'listing_amount',
  'amount_remaining',
  'percent_funded',
  'listing_title',
  'borrower_state',
];

const LISTING_COLUMNS = [...LISTING_FIELDS.map((f) => f.name), 'invested', 'biddable'];

/** Fields of a listing that describe the borrower rather than the listing or their credit. */
const BORROWER_FIELDS = new Set([
  'borrower_state',
  'employment_status_description',
  'months_employed',
  'occupation',
  'income_range',
  'stated_monthly_income',
  'combined_stated_monthly_income',
  'estimated_monthly_housing_expense',
  'has_mortgage',
  'co_borrower_application',
]);

/** Fields that describe the borrower's credit (the bureau2 indexed elements have a heading of their own). */
const CREDIT_FIELDS = new Set(['fico_score', 'platform_rating', 'platform_score', 'dti_wplatform_loan', 'combined_dti_wplatform_loan']);

/** The help heading of a `listings search` filter flag: listing, borrower, credit or bureau2 indexed. */
function filterHelpGroup(param: string): string {
  const p = resolveFilterParam(param);
  if (!p) return 'Listing filters:';
  if (p.bureau) return 'Bureau2 indexed filters (credit_bureau_values_bureau2_indexed):';
  if (CREDIT_FIELDS.has(p.field) || p.field.startsWith('prior_platform_loans')) return 'Credit filters:';
  if (BORROWER_FIELDS.has(p.field)) return 'Borrower filters:';
  return 'Listing filters:';
}

/** The parsed flags of `mkt listings search`: the typed ones, and a filter flag per catalogue name. */
type SearchOptions = OptionsOf<ListingsCommands['search']> & { readonly [filter: string]: unknown };

function filterDescription(name: string): string {
  const p = resolveFilterParam(name)!;
  if (p.bureau) {
    const e = BUREAU2_BY_SHORT.get(p.field)!;
    return `${p.kind === 'min' ? 'minimum' : 'maximum'} ${e.long} (bureau2, ${e.units})`;
  }
  const f = LISTING_FIELD_BY_NAME.get(p.field)!;
  const what = f.description.replace(/\.$/, '');
  if (p.kind === 'boolean') return `${what} (true|false)`;
  if (p.kind === 'multivalue') return `${what} (comma-separated values)`;
  const unit = f.type === 'datetime' || f.type === 'date' ? 'date' : 'number';
  return `${p.kind === 'min' ? 'minimum' : 'maximum'} ${f.name}: ${what} (${unit})`;
}

/** The flag that sets each control parameter of the search. */
const FLAG_OF_PARAM: Readonly<Record<string, string>> = {
  sort_by: '--sort-by',
  include_credit_bureau_values: '--include-credit-bureau-values',
  biddable: '--biddable',
  invested: '--invested',
};

/** Reads the query with the contract's reader; a problem is exit 2 naming the flag. */
function readOrRefuse(q: URLSearchParams, zone: string | undefined): ListingSearch {
  try {
    return readListingSearch(q, zone);
  } catch (err) {
    if (!(err instanceof QueryError)) throw err;
    const hint = err.param === 'sort_by' ? sortFieldHint(err.problem, [...SORTABLE_FIELDS]) : undefined;
    throw new UsageError(`${FLAG_OF_PARAM[err.param] ?? `--${err.param}`}: ${err.problem}`, hint);
  }
}

/**
 * Turns the parsed flags into the search query and checks it with the contract's reader, the one
 * the marketplace mock answers with: a bad value is exit 2 naming the flag, and nothing is sent.
 */
export function buildSearchQuery(opts: SearchOptions, zone: string | undefined): URLSearchParams {
  const q = new URLSearchParams();
  for (const name of filterParamNames()) {
    const value = opts[name];
    if (value === undefined) continue;
    q.set(name, String(value));
  }
  for (const flag of ['biddable', 'invested'] as const) {
    const v = opts[flag];
    if (v !== undefined) q.set(flag, String(v));
  }
  if (opts.wholeLoan) q.set('whole_loan', 'true');
  if (opts.excludeCoBorrower) q.set('exclude_co_borrower_application', 'true');
  if (opts.includeCreditBureauValues !== undefined) {
    q.set(
      'include_credit_bureau_values',
      opts.includeCreditBureauValues
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .join(','),
    );
  }
  if (opts.sortBy !== undefined) q.set('sort_by', opts.sortBy);
  const search = readOrRefuse(q, zone);
  // Listed values and booleans are sent as the API writes them.
  for (const m of search.multivalues) q.set(m.field, m.values.join(','));
  for (const [name, value] of [...q]) {
    if (name === 'biddable' || name === 'invested' || resolveFilterParam(name)?.kind === 'boolean') q.set(name, value.toLowerCase());
  }
  if (opts.limit !== undefined) q.set('limit', String(parseLimit(opts.limit, PAGINATION.listings)));
  if (opts.offset !== undefined) q.set('offset', String(parseCount('--offset', opts.offset, 0)));
  return q;
}

/**
 * Adds the catalogue's filter flags to `search`, both spellings: those `argv` names when that is all its run needs
 * (options.ts, namedOnly), else every one. Without `argv`, every one.
 */
export function defineFilterFlags(search: ListingsCommands['search'], argv: readonly string[] | undefined, root: CommandUnknownOpts): void {
  const named = argv && namedOnly(argv, filterParamNames(), [search, search.parent, root]);
  for (const name of filterParamNames()) {
    if (named && !named.has(name)) continue;
    search.addOption(new Option(`--${name} <value>`, filterDescription(name)).helpGroup(filterHelpGroup(name)));
  }
  acceptBothSpellings(search);
}

/** Adds the catalogue's filter flags to `search`, and the actions of the three commands. */
export function defineListings(ctx: CommandContext, { search, fields, get }: ListingsCommands): void {
  defineFilterFlags(search, ctx.argv, ctx.program);
  search.action(
    ctx.action(async (opts): Promise<Output> => {
      const settings = ctx.settings();
      const query = buildSearchQuery(opts, settings.timezone);
      const columns = DEFAULT_LISTING_COLUMNS;
      const [api, client] = await Promise.all([import('../api/listings.js'), ctx.api()]);
      if (opts.all) return { kind: 'stream', items: api.searchAll(client, query), columns, fields: LISTING_COLUMNS };
      return { kind: 'page', envelope: await api.search(client, query), columns, fields: LISTING_COLUMNS };
    }, LISTING_COLUMNS),
  );

  fields.action(
    ctx.action(async (): Promise<Output> => {
      const rows = LISTING_FIELDS.map((f) => ({
        field: f.name,
        type: f.type,
        filter: f.filter,
        flags: f.filter === 'range' ? `--${f.name}_min --${f.name}_max` : f.filter === 'none' ? '' : `--${f.name}`,
        description: f.description,
      }));
      for (const e of BUREAU2_ELEMENTS) {
        rows.push({
          field: `credit_bureau_values_bureau2_indexed.${e.long}`,
          type: 'integer',
          filter: 'range',
          flags: `--${e.short}_min --${e.short}_max`,
          description: `${e.units}, ${e.min}-${e.max}${e.special ? `; ${e.special.value} ${e.special.meaning}` : ''}`,
        });
      }
      // On a narrow terminal the name, its flags (never cut: they are typed) and its description matter most.
      return {
        kind: 'rows',
        rows,
        columns: ['field', 'type', 'filter', 'flags', 'description'],
        priority: ['field', 'flags', 'description', 'type', 'filter'],
      };
    }),
  );

  get.action(
    ctx.action(async (numberText): Promise<Output> => {
      const number = parseCount('listing number', numberText, 1);
      const [api, client] = await Promise.all([import('../api/listings.js'), ctx.api()]);
      const listing = await api.get(client, number);
      if (!listing) throw new CliError(`listing ${number} not found (neither active nor originated)`, EXIT.REJECTED);
      return { kind: 'item', item: listing, columns: LISTING_COLUMNS.filter((c) => c in listing), sections: LISTING_SECTIONS };
    }),
  );
}
