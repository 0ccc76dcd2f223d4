/** `mkt offers request FILE|-` (partner side): send an applicant, print the offers or every error with its meaning. */
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import type { OfferRequest, OfferResponse } from '../api/offers.js';
import { OFFER_ASSERTIONS, OFFER_ERRORS } from '../contract/errors.js';
import type { CommandContext } from '../context.js';
import { EXIT, UsageError } from '../errors.js';
import type { Output } from '../output/render.js';

/** Largest applicant file read (the mock reads at most 1 MiB too). */
const MAX_INPUT = 1 << 20;

/** Columns of the offers table. */
export const OFFER_COLUMNS = ['term', 'amount', 'rate', 'apr', 'monthly_payment', 'url'];
/** Columns of the errors table. */
export const ERROR_COLUMNS = ['code', 'meaning', 'detail'];

interface RequestOptions {
  partnerCode?: string;
}

class JsonFault {
  constructor(readonly offset: number, readonly problem: string) {}
}

/** Where and why `text` is not JSON: the offset of the first fault (found by a small scanner, since V8's messages differ between Node versions). */
export function locateJsonError(text: string): { offset: number; problem: string } {
  let i = 0;
  const at = (): string => (i >= text.length ? 'end of input' : JSON.stringify(text[i]));
  const fail = (problem: string, offset = i): never => {
    throw new JsonFault(offset, problem);
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = (): void => {
    const start = i++;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c === '\\') {
        const e = text[i + 1] ?? '';
        if ('"\\/bfnrt'.includes(e) && e !== '') i += 2;
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else fail('invalid escape in string');
        continue;
      }
      if (c < ' ') fail('line break or control character inside a string (a missing closing quote?)');
      i++;
    }
    fail('string never closed', start);
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (;;) {
        ws();
        if (c === '{') {
          if (text[i] !== '"') fail(`expected a double-quoted property name, found ${at()}`);
          string();
          ws();
          if (text[i] !== ':') fail(`expected ':' after the property name, found ${at()}`);
          i++;
        }
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === close) return void i++;
        else fail(`expected ',' or '${close}', found ${at()}`);
      }
    }
    if (c === '"') return string();
    const num = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    num.lastIndex = i;
    const m = c === '-' || (c !== undefined && c >= '0' && c <= '9') ? num.exec(text) : null;
    if (m) return void (i += m[0].length);
    for (const lit of ['true', 'false', 'null']) if (text.startsWith(lit, i)) return void (i += lit.length);
    fail(`expected a value, found ${at()}`);
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${at()} after the end of the JSON value`);
    return { offset: i, problem: 'no fault found' };
  } catch (err) {
    if (err instanceof JsonFault) return { offset: err.offset, problem: err.problem };
    return { offset: 0, problem: 'nested too deeply to locate the fault' };
  }
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

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

async function readInput(ctx: CommandContext, file: string): Promise<{ text: string; source: string }> {
  if (file === '-') {
    let text = '';
    for await (const chunk of ctx.io.stdin) {
      text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
      if (text.length > MAX_INPUT) throw new UsageError(`stdin: larger than ${MAX_INPUT} bytes`);
    }
    return { text, source: 'stdin' };
  }
  try {
    const text = await readFile(file, 'utf8');
    if (text.length > MAX_INPUT) throw new UsageError(`${file}: larger than ${MAX_INPUT} bytes`);
    return { text, source: file };
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

const pct = (x: number): string => `${(x * 100).toFixed(2)}%`;

/** The offers as table rows: term, amount, rate, APR, monthly payment, URL. */
export function offerRows(r: OfferResponse): Record<string, unknown>[] {
  return (r.offers ?? []).map((o) => ({
    term: `${o.loan_term_in_months} months`,
    amount: o.loan_amount,
    rate: pct(o.loan_rate),
    apr: pct(o.apr),
    monthly_payment: o.monthly_payment.toFixed(2),
    url: o.offer_url,
  }));
}

/** What the server said beyond the meaning the catalogue already gives. */
function detailOf(message: string | undefined, meaning: string | undefined): string {
  const m = (message ?? '').trim();
  if (meaning && m.startsWith(meaning)) return m.slice(meaning.length).trim().replace(/^\((.*)\)$/, '$1');
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
  const { text, source } = await readInput(ctx, file);
  const value = parseApplicant(text, source);
  const code = opts.partnerCode ?? (ctx.io.env.MKT_PARTNER_CODE || undefined);
  if (code !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    const ident = typeof v.identification === 'object' && v.identification !== null && !Array.isArray(v.identification) ? v.identification : {};
    v.identification = { ...ident, partner_source_code: code };
  }
  const { checkOfferRequest } = await import('../api/offers.js');
  return checkOfferRequest(value, source);
}

/** The `offers` command group. */
export function makeOffersCommand(ctx: CommandContext): Command {
  const offers = new Command('offers').description('partner: request personalised loan offers for an applicant');

  offers
    .command('request')
    .description('send applicant JSON and print the offers, or every error and assertion with its meaning (exit 4)')
    .argument('<file>', "applicant JSON file, or '-' for standard input")
    .option('--partner-code <code>', 'partner source code; overrides MKT_PARTNER_CODE, which overrides identification.partner_source_code in the file')
    .action(ctx.action(async (file: string, opts: RequestOptions): Promise<Output> => {
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
    }));

  return offers;
}
