/**
 * A node request as the app reads it (the shape of app.ts IncomingRequest): its headers read as Fetch's
 * Headers read them, the body the adapter read, and a Fetch Request made only on demand. Methods of a
 * class, so a request makes no closures on its way (the adapter, http-adapter.ts, makes one per request).
 */
import type { IncomingMessage } from 'node:http';

/** Turns one node request into a Fetch Request for the app, on the already normalised `url`. */
export function toFetchRequest(req: IncomingMessage, url: URL, body: Buffer): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
    else headers.set(k, v);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD' && body.length > 0;
  return new Request(url, { method, headers, body: hasBody ? new Uint8Array(body) : undefined });
}

/** Node's request headers read as Fetch's Headers read them (a repeated header joined with `, `). */
class NodeHeaders {
  constructor(private readonly req: IncomingMessage) {}

  get(name: string): string | null {
    const v = this.req.headers[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
}

/** A node request as the app reads it (app.ts IncomingRequest): methods of a class, no closures made per request. */
export class NodeRequest {
  readonly url: string;
  readonly headers: NodeHeaders;

  constructor(
    private readonly req: IncomingMessage,
    readonly method: string,
    readonly parsedUrl: URL,
    /** Null when the request has no body (or its method none). */
    readonly body: Buffer | null,
    private readonly read: Buffer,
    /** `parsedUrl`'s pathname and search, read once (request-target.ts TargetResult). */
    readonly path: string,
    readonly search: string,
  ) {
    this.url = parsedUrl.href;
    this.headers = new NodeHeaders(req);
  }

  /** As Fetch's text() reads a body: UTF-8, a BOM dropped. */
  text(): Promise<string> {
    return Promise.resolve(this.body ? new TextDecoder().decode(this.body) : '');
  }

  toRequest(): Request {
    return toFetchRequest(this.req, this.parsedUrl, this.read);
  }
}
