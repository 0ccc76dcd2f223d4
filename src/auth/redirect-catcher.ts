/**
 * The loopback redirect catcher of `mkt login`: listens on the host and port of the registered
 * redirect URL (loopback only), accepts exactly one callback whose `state` matches (a wrong state is
 * answered 400 and ignored), answers a small "you can close this tab" page, and handles
 * `error_code=userCancellation` and a timeout.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AuthError, CliError, EXIT, UsageError } from '../errors.js';

/** What a successful callback carries. */
export interface CallbackResult {
  authKey: string;
  /** Space-separated scopes granted. */
  scope: string;
}

/** How the catcher runs. */
export interface CatcherOptions {
  redirectUri: string;
  state: string;
  timeoutMs: number;
  /** Told about ignored requests (stderr). */
  notice?: (line: string) => void;
}

/** A listening catcher. */
export interface Catcher {
  /** Settles with the one matching callback. */
  result: Promise<CallbackResult>;
  close(): Promise<void>;
}

/** The loopback host of `redirectUri` to bind, or a UsageError for anything else. */
export function loopbackTarget(redirectUri: string): { hosts: string[]; port: number; path: string } {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    throw new UsageError(
      `redirect_uri '${redirectUri}' is not an absolute URL`,
      'fix it with `mkt config set redirect_uri http://127.0.0.1:PORT/callback`',
    );
  }
  if (url.protocol !== 'http:')
    throw new UsageError(`redirect_uri '${redirectUri}' must use http:// on a loopback address for the login catcher`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const hosts = host === 'localhost' ? ['127.0.0.1', '::1'] : /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1' ? [host] : null;
  if (!hosts)
    throw new UsageError(
      `redirect_uri host '${url.hostname}' is not a loopback address; mkt login only listens on localhost, 127.0.0.1 or ::1`,
    );
  return { hosts, port: url.port ? Number(url.port) : 80, path: url.pathname || '/' };
}

function page(title: string, text: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>`
    + `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto"><h1>${title}</h1><p>${text}</p></body></html>\n`
  );
}

function answer(res: ServerResponse, status: number, title: string, text: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
  res.end(page(title, text));
}

function sameState(a: string | null, b: string): boolean {
  if (a === null) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What one redirect's query means for the login in progress, and the page a browser is shown for it. */
export type CallbackOutcome =
  | { kind: 'mismatch' }
  | { kind: 'ok'; result: CallbackResult; page: { status: number; title: string; text: string } }
  | { kind: 'failed'; error: AuthError; page: { status: number; title: string; text: string } };

/** Reads a redirect's query against `state`: the catcher and a pasted redirect URL go through this one reading. */
export function readCallback(q: URLSearchParams, state: string): CallbackOutcome {
  if (!sameState(q.get('state'), state)) return { kind: 'mismatch' };
  const errorCode = q.get('error_code');
  if (errorCode) {
    const message = errorCode === 'userCancellation' ? 'login cancelled in the browser' : `login refused by the marketplace: ${errorCode}`;
    return {
      kind: 'failed',
      error: new AuthError(message, 'run `mkt login` again and choose Allow'),
      page: { status: 200, title: 'Sign-in cancelled', text: 'Nothing was stored. You can close this tab and return to the terminal.' },
    };
  }
  const authKey = q.get('auth_key');
  if (!authKey) {
    return {
      kind: 'failed',
      error: new AuthError('the browser callback carried no auth_key', 'run `mkt login` again'),
      page: { status: 400, title: 'Sign-in failed', text: 'The answer carried no auth key. Return to the terminal.' },
    };
  }
  return {
    kind: 'ok',
    result: { authKey, scope: q.get('scope') ?? '' },
    page: { status: 200, title: 'Signed in to mkt', text: 'You can close this tab and return to the terminal.' },
  };
}

async function listen(server: Server, host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Starts the catcher; fails at once with a clear error when the port is busy. */
export async function startCatcher(opts: CatcherOptions): Promise<Catcher> {
  const { hosts, port, path } = loopbackTarget(opts.redirectUri);
  let settle!: { resolve: (r: CallbackResult) => void; reject: (e: Error) => void };
  const result = new Promise<CallbackResult>((resolve, reject) => (settle = { resolve, reject }));
  let done = false;
  const finish = (fn: () => void) => {
    if (done) return;
    done = true;
    fn();
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://catcher');
    if (url.pathname !== path) return answer(res, 404, 'Not found', 'This address only receives the mkt login callback.');
    if (req.method !== 'GET') return answer(res, 405, 'Method not allowed', 'Expected a browser redirect (GET).');
    if (done) return answer(res, 410, 'Already handled', 'This login has already finished. You can close this tab.');
    const outcome = readCallback(url.searchParams, opts.state);
    if (outcome.kind === 'mismatch') {
      opts.notice?.('mkt: ignored a callback whose state does not match this login; still waiting');
      return answer(res, 400, 'Not this login', 'This answer does not belong to the login in progress (state mismatch) and was ignored.');
    }
    answer(res, outcome.page.status, outcome.page.title, outcome.page.text);
    finish(() => (outcome.kind === 'ok' ? settle.resolve(outcome.result) : settle.reject(outcome.error)));
  };

  const servers: Server[] = [];
  try {
    for (const [i, host] of hosts.entries()) {
      const server = createServer(handler);
      try {
        await listen(server, host, port);
        servers.push(server);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // localhost's IPv6 twin is optional (no ::1 on this machine); the first address is not.
        if (i > 0 && (code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT')) continue;
        if (code === 'EADDRINUSE') {
          throw new CliError(
            `cannot catch the login redirect: port ${port} on ${host} is already in use`,
            EXIT.USAGE,
            'another `mkt login` may be running; stop it, or free the port of the registered redirect_uri',
          );
        }
        if (code === 'EACCES') throw new CliError(`cannot listen on ${host}:${port} for the login redirect: permission denied`, EXIT.USAGE);
        throw err;
      }
    }
  } catch (err) {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    throw err;
  }

  const timer = setTimeout(
    () =>
      finish(() =>
        settle.reject(
          new AuthError(
            `login timed out after ${Math.round(opts.timeoutMs / 1000)} s without an answer from the browser`,
            'run `mkt login` again (use --timeout S for more time)',
          ),
        ),
      ),
    opts.timeoutMs,
  );
  const close = async () => {
    clearTimeout(timer);
    await Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeAllConnections();
          }),
      ),
    );
  };
  return { result, close };
}
