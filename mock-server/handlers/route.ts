/**
 * The wrapper every mock handler goes through: validates the `timezone` header, turns ApiError into
 * the API's JSON answer, and a bug into 500 SYS0001 (never an unhandled rejection).
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

/** Wraps a route body into an msw resolver. */
export function route(body: RouteBody) {
  return async ({ request, params }: { request: Request; params: Record<string, string | readonly string[] | undefined> }) => {
    try {
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
