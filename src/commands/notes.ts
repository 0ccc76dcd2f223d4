/** `mkt notes list|get`: your notes, each your share of one loan. */
import { LOAN_STATUSES, PAGINATION, PLATFORM_RATINGS, readRating } from '../contract/enums.js';
import { NOTE_FIELDS, NOTE_ID } from '../contract/note-fields.js';
import { toNumber, type Note } from '../contract/decode.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { groupCommand } from './groups.js';
import { acceptBothSpellings, pageQuery } from './options.js';

const NOTE_COLUMNS = [
  'loan_note_id',
  'platform_rating',
  'note_status_description',
  'days_past_due',
  'note_ownership_amount',
  'principal_balance_pro_rata_share',
  'principal_paid_pro_rata_share',
  'interest_paid_pro_rata_share',
  'lender_yield',
  'term',
  'origination_date',
  'next_payment_due_date',
];
/** What a narrow terminal keeps first: which note, how it stands, what is still out. */
const NOTE_PRIORITY = [
  'loan_note_id',
  'note_status_description',
  'principal_balance_pro_rata_share',
  'platform_rating',
  'days_past_due',
  'note_ownership_amount',
  'interest_paid_pro_rata_share',
];

/** Status words beyond the API's own names (CURRENT, CHARGEOFF, …), compared without case, spaces, dashes or underscores. */
const STATUS_ALIASES: Readonly<Record<string, number>> = { chargedoff: 2, paidinfull: 4 };
const squash = (s: string): string => s.toLowerCase().replace(/[\s_-]/g, '');
const STATUS_WORDS = new Map<string, number>([
  ...Object.entries(LOAN_STATUSES).map(([code, name]): [string, number] => [squash(name), Number(code)]),
  ...Object.entries(STATUS_ALIASES),
]);

/** Ratings a note can carry, as help and errors list them: the platform's, N/A on old loans (NA read as N/A). */
const RATINGS = `${PLATFORM_RATINGS.join(', ')} (or NA)`;

/** A comma-separated list of `flag`, each item read by `read` (undefined: not one of them). */
function parseList<T>(flag: string, text: string, read: (item: string) => T | undefined, allowed: string): Set<T> {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError(`${flag} needs at least one value: ${allowed}`);
  return new Set(
    items.map((item) => {
      const value = read(item);
      if (value === undefined) throw new UsageError(`${flag}: unknown value '${item}'; use ${allowed}`);
      return value;
    }),
  );
}

/** `--status current,chargeoff` or `--status 1,2`: status codes. */
export function parseStatuses(text: string): Set<number> {
  const names = Object.entries(LOAN_STATUSES)
    .map(([code, name]) => `${name.toLowerCase()} (${code})`)
    .join(', ');
  return parseList(
    '--status',
    text,
    (item) => (/^\d+$/.test(item) ? (LOAN_STATUSES[Number(item)] ? Number(item) : undefined) : STATUS_WORDS.get(squash(item))),
    names,
  );
}

/** `--rating a,b,na`: ratings, as the API spells them (`na` is N/A). */
export function parseRatings(text: string): Set<string> {
  return parseList<string>('--rating', text, readRating, RATINGS);
}

/** The notes of `items` that pass `keep`, as they come. */
async function* only(items: AsyncIterable<Note>, keep: (note: Note) => boolean): AsyncGenerator<Note> {
  for await (const note of items) if (keep(note)) yield note;
}

/** The `notes` command group. */
export function makeNotesCommand(ctx: CommandContext) {
  const notes = groupCommand('notes');
  const list = notes
    .command('list')
    .description('your notes (default: newest origination first)')
    .option('--all', 'every page, streamed')
    .option(
      '--status <names>',
      'only notes of these statuses, comma-separated: words (current, chargeoff, defaulted, completed, …) or codes (0-6); reads every page',
    )
    .option('--rating <ratings>', `only notes of these ratings, comma-separated (${RATINGS}); reads every page`)
    .option('--sort-by <clause>', "any note field, e.g. 'principal_balance_pro_rata_share desc'")
    .option('--limit <n>', `notes per page (default and maximum ${PAGINATION.notes.max})`)
    .option('--offset <n>', 'index of the first note')
    .addHelpText(
      'after',
      '\nThe marketplace does not filter notes by status or rating: with --status or\n--rating, mkt reads every page (as --all) and keeps the notes that match.\n',
    )
    .action(
      ctx.action(async (opts): Promise<Output> => {
        const statuses = opts.status === undefined ? undefined : parseStatuses(opts.status);
        const ratings = opts.rating === undefined ? undefined : parseRatings(opts.rating);
        const filtered = statuses !== undefined || ratings !== undefined;
        if (filtered && (opts.limit !== undefined || opts.offset !== undefined)) {
          throw new UsageError('--status and --rating read every page; leave out --limit and --offset');
        }
        const q = pageQuery(opts, PAGINATION.notes);
        const [api, client] = await Promise.all([import('../api/notes.js'), ctx.api()]);
        const shown = { columns: NOTE_COLUMNS, fields: NOTE_FIELDS, priority: NOTE_PRIORITY };
        if (filtered) {
          const keep = (n: Note): boolean =>
            (!statuses || statuses.has(toNumber(n.note_status) ?? Number.NaN))
            && (!ratings || ratings.has(readRating(n.platform_rating ?? '') ?? n.platform_rating ?? ''));
          return { kind: 'stream', items: only(api.listAll(client, q), keep), ...shown };
        }
        if (opts.all) return { kind: 'stream', items: api.listAll(client, q), ...shown };
        return { kind: 'page', envelope: await api.list(client, q), ...shown };
      }, NOTE_FIELDS),
    );
  acceptBothSpellings(list);
  notes
    .command('get')
    .description('one note by its id (loan number, dash, note number: as `mkt notes list` shows it)')
    .argument('<id>', 'loan_note_id, e.g. 500123-900456')
    .action(
      ctx.action(async (id): Promise<Output> => {
        if (!NOTE_ID.test(id))
          throw new UsageError(`note id must be a loan number, a dash and a note number (e.g. 500123-900456), got '${id}'`);
        const [api, client] = await Promise.all([import('../api/notes.js'), ctx.api()]);
        return { kind: 'item', item: await api.get(client, id), columns: [...NOTE_FIELDS] };
      }, NOTE_FIELDS),
    );
  return notes;
}
