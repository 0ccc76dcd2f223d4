/**
 * The marketplace for clients of undici's own API (`request`, `stream`, `fetch` from the `undici` package):
 * msw intercepts the global `fetch` and `node:http`, not undici's dispatchers, so this one answers
 * requests under a base URL through the marketplace's `handle` (the same door as the msw handlers) and
 * hands every other request to the dispatcher it was given (by default the global one). Node only.
 */
import { Dispatcher, getGlobalDispatcher } from 'undici';
import type { Marketplace } from './marketplace.js';

/** A request body as undici hands it to a dispatcher, read whole. */
async function bodyBytes(body: Dispatcher.DispatchOptions['body']): Promise<Uint8Array | null> {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  const chunks: Uint8Array[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array | string>)
    chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** Request headers as undici hands them (an object, or a flat array of names and values). */
function headersOf(given: Dispatcher.DispatchOptions['headers']): Headers {
  const headers = new Headers();
  if (!given) return headers;
  if (Array.isArray(given)) {
    for (let i = 0; i + 1 < given.length; i += 2) headers.append(String(given[i]), String(given[i + 1]));
    return headers;
  }
  for (const [name, value] of Object.entries(given as Record<string, string | string[] | undefined>)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/** Legacy handler callbacks, which every undici 7 API handler still answers to (as its MockAgent calls them). */
interface LegacyHandler {
  onConnect?(abort: (err?: Error) => void, context?: unknown): void;
  onHeaders?(status: number, headers: Buffer[], resume: () => void, statusText: string): boolean | void;
  onData?(chunk: Buffer): boolean | void;
  onComplete?(trailers: Buffer[]): void;
  onError?(err: Error): void;
}

/** An undici dispatcher answering requests under `baseUrl` from `market`; others go to `fallback`. */
export class MarketplaceDispatcher extends Dispatcher {
  private readonly prefix: string;

  constructor(
    private readonly market: Marketplace,
    baseUrl: string,
    private readonly fallback: Dispatcher = getGlobalDispatcher(),
  ) {
    super();
    const base = new URL(baseUrl);
    this.prefix = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const url = `${String(options.origin ?? '').replace(/\/+$/, '')}${options.path}`;
    if (url !== this.prefix && !url.startsWith(`${this.prefix}/`) && !url.startsWith(`${this.prefix}?`))
      return this.fallback.dispatch(options, handler);
    void this.answer(url, options, handler as LegacyHandler);
    return true;
  }

  private async answer(url: string, options: Dispatcher.DispatchOptions, handler: LegacyHandler): Promise<void> {
    let aborted = false;
    handler.onConnect?.(() => (aborted = true), null);
    try {
      const body = await bodyBytes(options.body);
      const method = options.method.toUpperCase();
      const request = new Request(url, {
        method,
        headers: headersOf(options.headers),
        ...(body && method !== 'GET' && method !== 'HEAD' ? { body: new Uint8Array(body) } : {}),
      });
      const response = await this.market.handle(request);
      // A dropped connection (a `drop` fault): the network error undici's own would be.
      if (response.type === 'error') throw Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
      const bytes = Buffer.from(await response.arrayBuffer());
      if (aborted) return;
      const raw: Buffer[] = [];
      response.headers.forEach((value, name) => raw.push(Buffer.from(name), Buffer.from(value)));
      handler.onHeaders?.(response.status, raw, () => {}, response.statusText);
      if (bytes.length > 0 && method !== 'HEAD') handler.onData?.(bytes);
      handler.onComplete?.([]);
    } catch (err) {
      if (!aborted) handler.onError?.(err as Error);
    }
  }

  override async close(): Promise<void> {}

  override async destroy(): Promise<void> {}
}
