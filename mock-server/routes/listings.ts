/** GET {root_url}/listingsvc/v2/listings/: search active listings or originated ones the caller invested in. */
import type { MockContext } from '../context.js';
import { parseListingQuery, type ListingQuery } from '../search/listing-query.js';
import { runListingQuery } from '../search/listing-search.js';
import { listingPage } from '../search/listing-json.js';
import { keptParticipation } from '../search/kept-participation.js';
import { authedRoute, http, JsonText, type Route } from '../route-helper/route.js';

/** The search's path, normalised (request-target.ts). */
export const LISTINGS_PATH = '/listingsvc/v2/listings';

/**
 * A page of listings as UTF-8 chunks, most of them its rows' kept bytes (search/listing-json.ts): the
 * HTTP adapter writes them to the socket one after the other, corked, so no page buffer is made or
 * filled per request. The text is made only when someone asks for it (in-process callers, the answer check).
 */
export class JsonPage extends JsonText {
  /** The body's length in bytes. */
  readonly size: number;

  constructor(readonly chunks: readonly Buffer[]) {
    super('');
    let size = 0;
    for (const c of chunks) size += c.length;
    this.size = size;
  }

  override get serialised(): string {
    return this.body().toString('utf8');
  }

  override body(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

/** Parsed queries a search keeps, and pages kept whole; each starts over when full. */
const KEPT_QUERIES = 64;
/**
 * Pages up to this size are kept whole: a 500-row page is ~1.4 MB, and made afresh it was its search and ~1,000
 * chunks in one writev, twice the CPU of writing one buffer.
 */
const KEPT_PAGE_BYTES = 2 * 1024 * 1024;
/** The kept pages of a world hold at most this many bytes together (they start over past it, as past KEPT_QUERIES). */
const KEPT_PAGES_BYTES = 32 * 1024 * 1024;

/** Query strings longer than this are parsed afresh each time. */
const KEPT_QUERY_CHARS = 2000;

/** The key a parsed query is kept under: the zone and the query string. */
const queryKey = (search: string, zone: string | undefined): string => `${zone ?? ''}\n${search}`;

/** The listings search (it reads only the request's head). */
export function listingsSearch(ctx: MockContext): Route {
  // A parsed query is a pure function of the query string and the zone, never changed once made:
  // kept by this route (as long as the app), so a query asked again is not read again.
  const queries = new Map<string, ListingQuery>();
  // The query read last, always one of `queries` (a clear comes only with a new query, which becomes the last).
  const last: { search: string; zone: string | undefined; query: ListingQuery | null } = { search: '', zone: undefined, query: null };
  const parse = (url: URL, search: string, zone: string | undefined): ListingQuery => {
    // A client polling or paging asks the same query again and again: then no key text is made and looked up.
    if (last.query !== null && search === last.search && zone === last.zone) return last.query;
    if (search.length > KEPT_QUERY_CHARS) return parseListingQuery(url.searchParams, zone);
    const key = queryKey(search, zone);
    let query = queries.get(key);
    if (query === undefined) {
      // A query that is refused throws here and is not kept.
      query = parseListingQuery(url.searchParams, zone);
      if (queries.size >= KEPT_QUERIES) queries.clear();
      queries.set(key, query);
    }
    last.search = search;
    last.zone = zone;
    last.query = query;
    return query;
  };
  return authedRoute(ctx, 'read_listing', ({ caller, url, zone, request }) => {
    // The query string as the adapter read it (the same text for a target asked again), else the URL's.
    const search = request.search ?? url.search;
    // The listing query pages itself (its limits are part of the query), so this is not a `list` route.
    const query = parse(url, search, zone);
    const world = ctx.world;
    const participation = keptParticipation(world, ctx.engine.version, caller.accountId);
    // A page asked again of an unchanged world (a client polling a search) is written as one kept buffer, kept by the world
    // (it goes with it): a page of its rows' kept bytes was ~28 chunks, whose writev was half the mock's CPU on the 25-row page under load.
    const pages = world.index.keptPages;
    const kept = pages.get(query);
    if (
      kept
      && kept.version === ctx.engine.version
      && kept.listings === world.index.listingsVersion
      && kept.participation === participation
    ) {
      return new JsonPage([kept.bytes]);
    }
    const { page, total } = runListingQuery(world, query, participation);
    const view = { zone, participation, bureaus: query.bureaus, showLoanFields: query.showLoanFields };
    const answer = new JsonPage(listingPage(world, page, view, total));
    // Only a query this route keeps parsed can be asked again as the same object (a long one is parsed afresh each time).
    if (answer.size <= KEPT_PAGE_BYTES && queries.get(queryKey(search, zone)) === query) {
      if (pages.size >= KEPT_QUERIES || keptBytes(pages) + answer.size > KEPT_PAGES_BYTES) pages.clear();
      // Kept under the versions as they stand after the search: a search may bring the listing indexes up, which moves the
      // listings' version, and with it the caller's participation map (the same holdings: the search changes none).
      const version = ctx.engine.version;
      pages.set(query, {
        version,
        listings: world.index.listingsVersion,
        participation: keptParticipation(world, version, caller.accountId),
        bytes: answer.body(),
      });
    }
    return answer;
  });
}

/** The bytes of the pages a world keeps (a few dozen at most: counted only when one is added). */
function keptBytes(pages: ReadonlyMap<object, { bytes: Buffer }>): number {
  let n = 0;
  for (const p of pages.values()) n += p.bytes.length;
  return n;
}

/** The listings handlers. */
export function listingsHandlers(ctx: MockContext) {
  return [http.get(`*${LISTINGS_PATH}`, listingsSearch(ctx))];
}
