/**
 * `mkt api METHOD PATH`: a raw, authenticated call to any endpoint, as `gh api` is. The path is taken
 * as the API writes it (`/v1/accounts/platform`, `/listingsvc/v2/listings/`) and resolved against the
 * root URL; the call goes through the ApiClient, so the token, GET-only retries and the redacted
 * --verbose trace are the same as for every other command.
 */
import { Option } from '@commander-js/extra-typings';
import type { ApiClient } from '../api/client.js';
import type { ApiError } from '../api/errors.js';
import { DecodeError, decodeEnvelope, toNumber, type Page } from '../contract/decode.js';
import { normalisePath } from '../contract/request-path.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { readInput } from '../input.js';
import type { Format } from '../output/formats.js';
import type { Query } from '../output/select.js';
import { render } from '../output/render.js';
import { groupCommand } from './groups.js';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

/** Largest --input body read. */
const MAX_INPUT = 1 << 20;

/** A JSON object, as a raw answer's list items must be for --paginate. */
type JsonObject = Record<string, unknown>;

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** The `api` command. */
export function makeApiCommand(ctx: CommandContext) {
  return groupCommand('api')
    .argument('<method>', `HTTP method: ${METHODS.join(', ')}`)
    .argument('<path>', 'endpoint path as the API writes it, from the marketplace origin, e.g. /v1/accounts/platform')
    .addOption(
      new Option(
        '-F, --field <key=value>',
        'a typed parameter: true, false, null and numbers are sent as JSON values (repeatable)',
      ).argParser(collect),
    )
    .addOption(new Option('-f, --raw-field <key=value>', 'a string parameter, sent as written (repeatable)').argParser(collect))
    .option('--input <file>', "request body as JSON from a file ('-' for stdin), instead of fields")
    .option('--paginate', 'GET only: follow offset/limit through every page and print one JSON array of the items')
    .addHelpText(
      'after',
      `
Parameters: with GET and DELETE, fields are query parameters; with POST and PUT, they are the
fields of a JSON body. -F types its value as gh does (true, false, null, numbers); -f never does.
A query written in the path (/v1/loans/?limit=5) is kept, the fields' parameters after it.
Output is JSON (or -o ndjson); the output setting of the profile does not apply. --query
(JMESPath) selects from the answer as with every command: with -o json the whole answer, with
-o ndjson each item. A 4xx answer prints its body (whole) and ends with exit 4, a 401/403 with
exit 3, a 5xx with exit 5.`,
    )
    .action(async (methodText, pathText, opts) => {
      const method = parseMethod(methodText);
      const format = outputFormat(ctx.globals().output);
      const select = await answerQuery(ctx.globals().query);
      const fields = [...(opts.field ?? []).map((f) => readField(f, true)), ...(opts.rawField ?? []).map((f) => readField(f, false))];
      if (opts.paginate && method !== 'GET') throw new UsageError(`--paginate follows pages of a GET, not a ${method}`);
      const sendsBody = method === 'POST' || method === 'PUT';
      if (opts.input !== undefined && !sendsBody) throw new UsageError(`--input is a request body, which a ${method} does not send`);
      if (opts.input !== undefined && fields.length > 0)
        throw new UsageError('--input and --field/--raw-field cannot be combined: put the fields in the input');
      const settings = ctx.settings();
      checkPath(settings.rootUrl, pathText);
      // A query written in the path joins the fields' (appended after it): --paginate reads its offset and limit too.
      const at = pathText.indexOf('?');
      const target = at < 0 ? pathText : pathText.slice(0, at);
      const query = new URLSearchParams(at < 0 ? '' : pathText.slice(at + 1));
      const client = await ctx.api();
      let json: unknown;
      if (opts.input !== undefined) json = await readBody(ctx, opts.input);
      else if (sendsBody) json = bodyOf(fields);
      else for (const [k, v] of fields) query.append(k, String(v));
      if (method === 'POST' && placesOrder(settings.rootUrl, settings.baseUrl, target)) {
        // Warned, not routed through the desk: `mkt api` sends what it is given, as `gh api` does (a script may mean exactly this call).
        ctx.info(
          `mkt: warning: POST ${target} places an order past the order desk: nothing checks what the account already holds, no order journal records it, and if this call gets no answer nothing keeps a rerun from placing it twice; \`mkt order submit\` places bids with those safeguards (and sees this order in the account's orders once the marketplace shows it)`,
        );
      }
      const what = `${method} ${pathText}`;
      try {
        if (opts.paginate) {
          await render(ctx.io.stdout, { kind: 'stream', items: everyPage(client, target, query, what), columns: [] }, format, select);
          return;
        }
        const data = await client.call({ method, base: 'root', path: target, query, json, what, decode: (v) => v });
        await printAnswer(ctx, data, format, select);
      } catch (err) {
        // A refused call prints the marketplace's answer on stdout (scripts read it there, as with gh), then fails.
        // It is printed whole: a --query written for the answer would make nothing of the error.
        const body = (err as Partial<ApiError>).body;
        if (body !== undefined && body !== '') await printAnswer(ctx, body, format);
        throw err;
      }
    });
}

function parseMethod(text: string): Method {
  const m = text.toUpperCase();
  if (!(METHODS as readonly string[]).includes(m)) throw new UsageError(`method must be one of ${METHODS.join(', ')}, got '${text}'`);
  return m as Method;
}

/** JSON unless -o ndjson is asked for: a raw answer has no columns for a table or CSV. */
function outputFormat(flag: string | undefined): Format {
  if (flag === undefined || flag === 'json') return 'json';
  if (flag === 'ndjson') return 'ndjson';
  throw new UsageError(`mkt api prints JSON: -o must be json or ndjson, got '${flag}'`);
}

/**
 * The path below the root URL, refused when it would leave the marketplace's origin (the bearer
 * token must never be sent elsewhere) or carries characters no path has.
 */
function checkPath(rootUrl: string, path: string): string {
  if (!path.startsWith('/') || /[\s\u0000-\u001f\u007f#\\]/.test(path)) {
    throw new UsageError(
      `path must start with / and hold no spaces, control characters, '#' or '\\', got '${path}'`,
      'e.g. mkt api GET /v1/accounts/platform',
    );
  }
  // Joined as ApiClient.url joins it, then parsed as undici will parse it.
  const root = new URL(rootUrl);
  const url = new URL(`${rootUrl}${path}`);
  if (url.origin !== root.origin) throw new UsageError(`path '${path}' leaves the marketplace's origin ${root.origin}`);
  return path;
}

/**
 * True when `path` (below `rootUrl`) is the order placement endpoint, `{base_url}/orders/`, under any
 * spelling the marketplace's router reads as it (`/v1//orders`, `/v1/./orders/`, `%6Frders`).
 */
function placesOrder(rootUrl: string, baseUrl: string, path: string): boolean {
  const asked = normalisePath(new URL(`${rootUrl}${path}`).pathname);
  const base = normalisePath(new URL(baseUrl).pathname);
  if ('problem' in asked || 'problem' in base) return false;
  return new URL(`${rootUrl}${path}`).host === new URL(baseUrl).host && asked.path === `${base.path === '/' ? '' : base.path}/orders`;
}

/** `key=value` as a field; with `typed`, true/false/null and JSON numbers become JSON values. */
function readField(text: string, typed: boolean): [string, unknown] {
  const eq = text.indexOf('=');
  const flag = typed ? '--field' : '--raw-field';
  if (eq <= 0) throw new UsageError(`${flag} must be key=value, got '${text}'`);
  const key = text.slice(0, eq);
  const value = text.slice(eq + 1);
  if (!typed) return [key, value];
  if (value === 'true' || value === 'false') return [key, value === 'true'];
  if (value === 'null') return [key, null];
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value) && Number.isFinite(Number(value))) return [key, Number(value)];
  return [key, value];
}

function bodyOf(fields: [string, unknown][]): JsonObject | undefined {
  if (fields.length === 0) return undefined;
  const body: JsonObject = {};
  for (const [k, v] of fields) {
    if (Object.hasOwn(body, k)) throw new UsageError(`field '${k}' is given twice`);
    body[k] = v;
  }
  return body;
}

async function readBody(ctx: CommandContext, file: string): Promise<unknown> {
  const { text, source } = await readInput(ctx.io, file, MAX_INPUT);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${source} is not JSON: ${(err as Error).message}; nothing was sent`);
  }
}

/**
 * The global --query, compiled before anything is sent (exit 2 on a bad one), as every command does. A
 * `key=value` is refused: it is what a query parameter looks like, and JMESPath would quietly answer null.
 */
async function answerQuery(expression: string | undefined): Promise<{ query?: Query }> {
  if (expression === undefined) return {};
  if (/^\s*[A-Za-z_][\w.-]*\s*=(?!=)/.test(expression)) {
    throw new UsageError(
      `--query is a JMESPath expression selecting from the answer, not a query parameter: got '${expression}'`,
      `send a query parameter with -f '${expression.trim()}' (or in the path, after '?'); select with e.g. --query 'result[].listing_number'`,
    );
  }
  const { parseQuery } = await import('../output/select.js');
  return { query: await parseQuery(expression) };
}

/** Prints an answer: JSON through the renderer (shaped by --query), text as it came. */
async function printAnswer(ctx: CommandContext, data: unknown, format: Format, select: { query?: Query } = {}): Promise<void> {
  if (typeof data === 'string') {
    if (data && select.query) ctx.info('mkt: the answer is not JSON: printed as it came, without --query');
    if (data) ctx.io.stdout.write(data.endsWith('\n') ? data : `${data}\n`);
    return;
  }
  if (Array.isArray(data)) return render(ctx.io.stdout, { kind: 'rows', rows: data as JsonObject[], columns: [] }, format, select);
  if (data !== null && typeof data === 'object') return render(ctx.io.stdout, { kind: 'item', item: data as JsonObject }, format, select);
  ctx.io.stdout.write(`${JSON.stringify(select.query ? select.query.apply(data) : data)}\n`);
}

const decodePage = decodeEnvelope<JsonObject>((v, p) => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new DecodeError(p, 'is not an object');
  return v as JsonObject;
});

/**
 * Every item from the query's offset on. The page size is the query's limit, or else the size of the
 * endpoint's first (default) page, so no endpoint's maximum has to be known here.
 */
async function* everyPage(client: ApiClient, path: string, query: URLSearchParams, what: string): AsyncGenerator<JsonObject> {
  const asked = query.get('limit');
  let offset = Number(query.get('offset') ?? 0);
  if (!Number.isInteger(offset) || offset < 0)
    throw new UsageError(`offset must be a whole number (0 or more), got '${query.get('offset')}'`);
  let pageSize: number | undefined;
  for (;;) {
    const q = new URLSearchParams(query);
    q.set('offset', String(offset));
    if (pageSize !== undefined && asked === null) q.set('limit', String(pageSize));
    const page: Page<JsonObject> = await client.call({ method: 'GET', base: 'root', path, query: q, what, decode: decodePage });
    yield* page.result;
    pageSize ??= asked === null ? page.result.length : Number(asked);
    offset += page.result.length;
    if (page.result.length === 0 || page.result.length < pageSize || offset >= (toNumber(page.total_count) ?? Infinity)) return;
  }
}
