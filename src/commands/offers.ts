/** `mkt offers request FILE|-` (partner side): send an applicant, print the offers or every error with its meaning. */
import { Command } from '@commander-js/extra-typings';
import type { OfferRequest, OfferResponse } from '../api/offers.js';
import { OFFER_ASSERTIONS, OFFER_ERRORS } from '../contract/errors.js';
import type { CommandContext } from '../context.js';
import { EXIT, UsageError } from '../errors.js';
import type { Output } from '../output/render.js';
import { lineColumn, locateJsonError, readInput } from '../input.js';
import { groupCommand } from './groups.js';
import type { OptionsOf } from './options.js';

/** Largest applicant file read (the mock reads at most 1 MiB too). */
const MAX_INPUT = 1 << 20;

/** Columns of the offers table. */
export const OFFER_COLUMNS = ['term', 'amount', 'rate', 'apr', 'monthly_payment', 'url'];
/** Columns of the errors table. */
export const ERROR_COLUMNS = ['code', 'meaning', 'detail'];

/** `mkt offers request` as defined: its argument and flags. */
function requestCommand() {
  return new Command('request')
    .description('send applicant JSON and print the offers, or every error and assertion with its meaning (exit 4)')
    .argument('<file>', "applicant JSON file, or '-' for standard input")
    .option(
      '--partner-code <code>',
      'partner source code; overrides MKT_PARTNER_CODE, which overrides identification.partner_source_code in the file',
    );
}

/** The parsed flags of `mkt offers request`. */
type RequestOptions = OptionsOf<ReturnType<typeof requestCommand>>;

/** Parses the applicant file; malformed JSON is a UsageError naming line and column. */
export function parseApplicant(text: string, source: string): unknown {
  const body = text.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(body);
  } catch {
    const { offset, problem } = locateJsonError(body);
    const { line, column } = lineColumn(body, offset);
    throw new UsageError(`${source}: not valid JSON at line ${line}, column ${column}: ${problem}`);
  }
}

/** The offers as table rows: term, amount, rate, APR, monthly payment, URL. */
export function offerRows(r: OfferResponse): Record<string, unknown>[] {
  return (r.offers ?? []).map((o) => ({
    term: `${o.loan_term_in_months} months`,
    amount: o.loan_amount,
    // Numbers, as the API sent them: a table shows the rates as percentages and the payment as money, csv as they are.
    rate: o.loan_rate,
    apr: o.apr,
    monthly_payment: o.monthly_payment,
    url: o.offer_url,
  }));
}

/** What the server said beyond the meaning the catalogue already gives. */
function detailOf(message: string | undefined, meaning: string | undefined): string {
  const m = (message ?? '').trim();
  if (meaning && m.startsWith(meaning))
    return m
      .slice(meaning.length)
      .trim()
      .replace(/^\((.*)\)$/, '$1');
  return m;
}

/** Every error, each MKTPL-1012 followed by its assertions, with the meaning of each code. */
export function errorRows(r: OfferResponse): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (const e of r.errors ?? []) {
    const meaning = OFFER_ERRORS[e.code]?.message;
    rows.push({ code: e.code, meaning: meaning ?? '(unknown code)', detail: detailOf(e.message, meaning) });
    for (const a of e.assertions ?? []) {
      const am = OFFER_ASSERTIONS[a.code];
      rows.push({ code: a.code, meaning: am ?? '(unknown code)', detail: detailOf(a.message, am) });
    }
  }
  return rows;
}

/** Reads, checks and completes the applicant: the partner code comes from --partner-code, else MKT_PARTNER_CODE, else the file. */
export async function loadApplicant(ctx: CommandContext, file: string, opts: RequestOptions): Promise<OfferRequest> {
  const { text, source } = await readInput(ctx.io, file, MAX_INPUT);
  const value = parseApplicant(text, source);
  const code = opts.partnerCode ?? (ctx.io.env.MKT_PARTNER_CODE || undefined);
  if (code !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    const ident =
      typeof v.identification === 'object' && v.identification !== null && !Array.isArray(v.identification) ? v.identification : {};
    v.identification = { ...ident, partner_source_code: code };
  }
  const { checkOfferRequest } = await import('../api/offers.js');
  return checkOfferRequest(value, source);
}

/** The `offers` command group. */
export function makeOffersCommand(ctx: CommandContext) {
  const offers = groupCommand('offers');

  offers.addCommand(
    requestCommand().action(
      ctx.action(async (file, opts): Promise<Output> => {
        const format = ctx.format();
        const applicant = await loadApplicant(ctx, file, opts);
        const [api, client] = await Promise.all([import('../api/offers.js'), ctx.api()]);
        const response = await api.request(client, applicant);
        const failed = api.hasErrors(response);
        if (failed) {
          ctx.exitCode = EXIT.REJECTED;
          const assertions = (response.errors ?? []).reduce((n, e) => n + (e.assertions?.length ?? 0), 0);
          ctx.info(`mkt: the marketplace made no offers: ${response.errors!.length} error(s), ${assertions} assertion(s)`);
        } else if (response.referral_code) {
          ctx.info(`referral code ${response.referral_code}; all offers: ${response.offers_url ?? '(no link)'}`);
        }
        if (format === 'json' || format === 'ndjson') return { kind: 'item', item: response as Record<string, unknown> };
        return failed
          ? { kind: 'rows', rows: errorRows(response), columns: ERROR_COLUMNS }
          : { kind: 'rows', rows: offerRows(response), columns: OFFER_COLUMNS };
      }),
    ),
  );

  return offers;
}
