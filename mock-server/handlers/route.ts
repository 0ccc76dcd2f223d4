/**
 * The wrapper every mock handler goes through: validates the `timezone` header (and, on a JSON route,
 * the body's content type), turns ApiError into the API's JSON answer, and a bug into 500 SYS0001
 * (never an unhandled rejection).
 */
import { HttpResponse } from 'msw';
import { isValidTimeZone } from '../../src/contract/dates.js';
import { ApiError, validationError } from '../api-error.js';

/** What a route body receives. */
export interface RouteInput {
  request: Request;
  url: URL;
  params: Record<string, string | readonly string[] | undefined>;
  /** The request's IANA zone, or undefined for UTC. */
  zone: string | undefined;
}

/** A route body: returns a JSON value (status 200) or a Response of its own. */
export type RouteBody = (input: RouteInput) => unknown | Promise<unknown>;

/** Reads and checks the `timezone` header. */
export function zoneOf(request: Request): string | undefined {
  const zone = request.headers.get('timezone')?.trim();
  if (!zone) return undefined;
  if (!isValidTimeZone(zone)) throw validationError('timezone', `unknown time zone '${zone}'`);
  return zone;
}

/**
 * Content types a JSON route takes: JSON, or text/plain, which fetch and undici declare for a string
 * body (scripts and tests send JSON that way); no declared type is read as JSON too.
 */
const JSON_TYPE = /^(application\/([\w.+-]+\+)?json|text\/plain)\s*(;|$)/i;

/** 415 when a request to a JSON route carries a body declared as something else (a form, XML, …). */
export function checkJsonContentType(request: Request): void {
  if (request.body === null) return;
  const type = request.headers.get('content-type')?.trim() ?? '';
  if (type === '' || JSON_TYPE.test(type)) return;
  throw new ApiError(415, {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: `content-type: '${type.slice(0, 100)}' is not accepted here; send the body as application/json`,
  });
}

/** How a route reads its body: `json` routes refuse other declared content types with 415. */
export interface RouteOptions {
  json?: boolean;
}

/** Wraps a route body into an msw resolver. */
export function route(body: RouteBody, options: RouteOptions = {}) {
  return async ({ request, params }: { request: Request; params: Record<string, string | readonly string[] | undefined> }) => {
    try {
      if (options.json) checkJsonContentType(request);
      const url = new URL(request.url);
      const result = await body({ request, url, params, zone: zoneOf(request) });
      if (result instanceof Response) return result;
      return HttpResponse.json(result as Record<string, unknown>);
    } catch (err) {
      if (err instanceof ApiError) return HttpResponse.json(err.body, { status: err.status, headers: err.headers });
      console.error('mock: unexpected error', err);
      return HttpResponse.json({ code: 'SYS0001', message: 'Application Error' }, { status: 500 });
    }
  };
}
