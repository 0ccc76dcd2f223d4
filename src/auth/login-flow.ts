/**
 * `mkt login`'s flow: a 32-byte random state, the loopback catcher on the redirect URL's port, the
 * authorization URL (always printed to stderr, opened in a browser unless told not to), one
 * matching callback, the key exchanged for tokens, everything stored under the profile's lock.
 */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { CredentialStore, Credentials } from './credentials.js';
import { followAutoApproval } from './auto-approval.js';
import { FileStore } from './file-store.js';
import type { BrowserOpener } from './open-browser.js';
import { readPastedRedirect, type PastedRedirect } from './pasted-redirect.js';
import { startCatcher, type CallbackResult } from './redirect-catcher.js';
import type { AuthSession } from './session.js';
import { applyTokens } from './stored-token-provider.js';
import { REFRESH_TOKEN_SECONDS } from '../contract/enums.js';
import { AuthError } from '../errors.js';

/** Inputs of one login. */
export interface LoginInput {
  session: AuthSession;
  /** Where to store the credentials (Stores.forLogin); the session's store for writing when absent. */
  store?: CredentialStore;
  clientSecret: string;
  openBrowser: BrowserOpener | null;
  /** Standard input: pasted redirect URLs are read from it with --no-browser, or when no browser could be opened. */
  stdin?: Readable;
  /** Say how to paste (stdin is a terminal); off a terminal a pasted URL is still read, quietly. */
  promptPaste?: boolean;
  timeoutMs: number;
  stderr: (line: string) => void;
  /** Resolves when the user interrupts (Ctrl-C); the login then stops cleanly. */
  interrupted?: Promise<string>;
}

/** What a login stored (no secrets). */
export interface LoginResult {
  profile: string;
  account: string;
  store: string;
  location: string;
  client_id: string;
  scopes: string;
  access_token_expires_at: string;
  refresh_token_expires_at: string;
}

/** The authorization URL for `clientId` and `state`. */
export function authorizationUrl(authUrl: string, clientId: string, state: string): string {
  const q = new URLSearchParams({ client_id: clientId, response_type: 'auth_key', state });
  return `${authUrl}/oauth?${q.toString()}`;
}

/** Runs the browser login and stores the credentials. */
export async function runLogin(input: LoginInput): Promise<LoginResult> {
  const { session, stderr } = input;
  const { settings } = session.deps;
  const store = input.store ?? session.stores.forWriting();
  const state = randomBytes(32).toString('base64url');
  const catcher = await startCatcher({ redirectUri: settings.redirectUri, state, timeoutMs: input.timeoutMs, notice: stderr });
  let callback: CallbackResult;
  let pasted: PastedRedirect | undefined;
  let over = false; // an opener that fails after the login ended has nothing left to say
  // Settles only if a pasted URL or a followed auto-approval ends the login; until then the catcher, the timeout or Ctrl-C decide.
  let settlePaste!: { resolve: (r: CallbackResult) => void; reject: (e: unknown) => void };
  const fromPaste = new Promise<CallbackResult>((resolve, reject) => (settlePaste = { resolve, reject }));
  fromPaste.catch(() => undefined); // raced below; a rejection after the login ended is not a crash
  // Pasting is offered once: with --no-browser at the start, otherwise when the browser could not be opened.
  const offerPaste = () => {
    if (pasted || !input.stdin) return;
    if (input.promptPaste) {
      stderr(
        `If the browser is on another machine: once you allow mkt there, it is sent to ${settings.redirectUri}?… and that page fails to load;`,
      );
      stderr('copy that whole address from its address bar and paste it here, then press Enter.');
    }
    pasted = readPastedRedirect(input.stdin, settings.redirectUri, state, stderr);
    pasted.result.then(settlePaste.resolve, settlePaste.reject);
  };
  try {
    const url = authorizationUrl(settings.authUrl, settings.clientId, state);
    stderr('Open this URL in a browser to sign in and allow mkt:');
    stderr(`  ${url}`);
    const upTo = `(up to ${Math.round(input.timeoutMs / 1000)} s)…`;
    // Said once a browser is on its way (or with --no-browser, opened by the person): never before "no browser could be opened".
    let waitingSaid = false;
    const waitingForBrowser = () => {
      if (over || waitingSaid) return;
      waitingSaid = true;
      stderr(`Waiting for the browser on ${settings.redirectUri} ${upTo}`);
    };
    // No browser here: the local mock with --auto-approve needs no human, so its redirect is followed
    // here; anything else (a consent page) is for a person, on any machine, then pasted back.
    const followHere = async () => {
      const outcome = await followAutoApproval(session.deps.http, url, settings.redirectUri, state);
      if (over) return;
      if (!outcome) {
        // At a terminal offerPaste says how to paste here; elsewhere the way is a login at a terminal.
        if (!input.promptPaste)
          stderr(
            'mkt: or open it in a browser on any machine, then paste the address it is sent to (it fails to load there) into `mkt login --no-browser` at a terminal',
          );
        offerPaste();
        if (!waitingSaid) stderr(`Waiting for the address it is sent to, ${settings.redirectUri}?… ${upTo}`);
        return;
      }
      stderr('mkt: the authorization server approved at once (a local mock started with --auto-approve); following its redirect here');
      if (outcome.kind === 'ok') settlePaste.resolve(outcome.result);
      else settlePaste.reject(outcome.error);
    };
    if (input.openBrowser) {
      input.openBrowser(
        url,
        (reason) => {
          if (over) return;
          stderr(`mkt: no browser could be opened (${reason}); open the URL above yourself`);
          followHere().catch((err: unknown) => (over ? undefined : settlePaste.reject(err)));
        },
        waitingForBrowser,
      );
    } else {
      waitingForBrowser();
      offerPaste();
    }
    const stop = input.interrupted?.then((sig) => {
      throw new AuthError(`login interrupted (${sig}); nothing was stored`);
    });
    callback = await Promise.race([catcher.result, fromPaste, ...(stop ? [stop] : [])]);
  } finally {
    over = true;
    pasted?.close();
    await catcher.close();
  }
  const client = { clientId: settings.clientId, clientSecret: input.clientSecret };
  const tokens = await session.endpoint.exchangeKey(client, callback.authKey);
  const now = session.now();
  const base: Credentials = {
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    authKey: callback.authKey,
    scopes: callback.scope.split(/\s+/).filter(Boolean),
    loggedInAt: now,
  };
  const credentials = applyTokens(base, tokens, now, REFRESH_TOKEN_SECONDS);
  await session.lock(async () => {
    await store.save(session.account, credentials);
    const file = new FileStore(settings.configDir);
    // The choice is remembered per profile, so every host (and cron) reads the store this login wrote.
    await file.remember(settings.profile, store.kind === 'file');
    // A keychain login leaves no older copy of the secrets behind in the plain file.
    if (store.kind === 'keychain') await file.remove(session.account).catch(() => false);
  });
  return {
    profile: settings.profile,
    account: session.account,
    store: store.kind,
    location: store.location,
    client_id: client.clientId,
    scopes: credentials.scopes.join(' '),
    access_token_expires_at: new Date(credentials.accessExpiresAt!).toISOString(),
    refresh_token_expires_at: new Date(credentials.refreshExpiresAt!).toISOString(),
  };
}
