/**
 * `mkt doctor`'s checks that talk to the marketplace: is it there, does its clock agree with this
 * machine's, and do the credentials work and renew. Each finding says what to do; no secret is printed.
 */
import { ApiClient, routedBase, type TokenProvider } from '../api/client.js';
import type { HttpClient, HttpResponse } from '../api/http.js';
import { isLoopbackUrl } from '../auth/client-secret.js';
import type { Settings } from '../config/settings.js';
import { identifyMarketplace, marketplaceAddress, type Marketplace } from '../orders/marketplace.js';
import { redactUserInfo } from '../redact-url.js';
import { fail, failure, ok, warn, type Check } from './check.js';

/** Past this difference between this machine's clock and the marketplace's, the clock check warns. */
export const CLOCK_SKEW_LIMIT_MS = 5 * 60_000;

const FIX_BASE_URL = 'set base_url (`mkt config set base_url URL`, or MKT_BASE_URL / MKT_ROOT_URL in the crontab line)';

/** What the reachability check found: the check, and the answer with the local time it arrived at. */
export interface Reach {
  check: Check;
  answer?: { res: HttpResponse; at: number };
}

/** Sends one unauthenticated GET to base_url: any answer at all means the marketplace is there. */
export async function checkMarketplace(settings: Settings, http: HttpClient, now: () => number): Promise<Reach> {
  const shown = redactUserInfo(settings.baseUrl);
  try {
    marketplaceAddress(settings.baseUrl);
    const res = await http.send({ method: 'GET', url: routedBase(settings.baseUrl) });
    const at = now();
    if (res.status >= 500) {
      return {
        answer: { res, at },
        check: warn('marketplace', `${shown} answered HTTP ${res.status}`, 'the marketplace is there but failing: try again later'),
      };
    }
    return { answer: { res, at }, check: ok('marketplace', `${shown} answered (HTTP ${res.status})`) };
  } catch (err) {
    const { message } = failure(err);
    const start = isLoopbackUrl(settings.baseUrl)
      ? 'start the mock (`mkt mock serve`)'
      : 'check the network and that the marketplace is up';
    return { check: fail('marketplace', message, `${start}, or ${FIX_BASE_URL} if the address is wrong`) };
  }
}

/** Words for a duration: `3 s`, `4 min`, `2 h 5 min`, `15 d 2 h`. */
export function spanWords(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 120) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 120) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ${min % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** Compares this machine's clock with the marketplace's `Date` header (whole seconds, so within a second is exact). */
export function checkClock(settings: Settings, answer: { res: HttpResponse; at: number }): Check {
  const header = answer.res.headers.date;
  const text = Array.isArray(header) ? header[0] : header;
  const theirs = text === undefined ? NaN : Date.parse(text);
  if (!Number.isFinite(theirs)) {
    return warn(
      'clock',
      `the marketplace sent no readable Date header${text ? ` ('${text}')` : ''}; this machine's clock could not be compared`,
      'make sure this machine keeps time (timedatectl set-ntp true)',
    );
  }
  // The header is truncated to the second: up to a second behind the moment it was written.
  const skew = answer.at - theirs;
  if (Math.abs(skew) <= CLOCK_SKEW_LIMIT_MS) {
    return ok(
      'clock',
      `this machine's clock is within ${spanWords(Math.max(Math.abs(skew), 1000))} of the marketplace's Date header (${text})`,
    );
  }
  const words = `this machine's clock is ${skew >= 0 ? 'ahead of' : 'behind'} the marketplace's Date header (${text}) by ${spanWords(skew)}`;
  const mock = isLoopbackUrl(settings.baseUrl) ? '; against the mock, its clock may have been moved (`mkt mock clock`)' : '';
  return warn(
    'clock',
    `${words}, more than ${spanWords(CLOCK_SKEW_LIMIT_MS)}`,
    `set this machine's clock (timedatectl set-ntp true)${mock}`,
  );
}

/** What the credentials check found: the check, and the account they act for when it could be told. */
export interface CredentialsFinding {
  check: Check;
  market?: Marketplace;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Finds the profile's credentials (or MKT_ACCESS_TOKEN), renews them at the token endpoint as a cron
 * run would after an hour, and asks which account they act for (`GET /accounts/platform`, the call
 * every order starts with). The store and expiry times are named, never a secret.
 */
export async function checkCredentials(
  settings: Settings,
  env: Env,
  http: HttpClient,
  now: () => number,
  info: (line: string) => void,
): Promise<CredentialsFinding> {
  let tokens: TokenProvider;
  let detail: string;
  try {
    if (env.MKT_ACCESS_TOKEN) {
      const { envTokenProvider } = await import('../auth/token-provider.js');
      tokens = envTokenProvider(env.MKT_ACCESS_TOKEN);
      detail = 'MKT_ACCESS_TOKEN from the environment (used as it is, never renewed)';
    } else {
      const { AuthSession } = await import('../auth/session.js');
      const session = new AuthSession({ settings, env, http, stderr: info, now });
      const provider = session.tokenProvider();
      const found = await session.stores.locate(session.account);
      // Not found: the provider says why best (the marketplace unreachable, or the hosts this profile is logged in at).
      if (!found) await provider.accessToken();
      const c = found!.credentials;
      // Renewed now, as a daily run finds its hour-long access token expired: a refused refresh token
      // or key shows here rather than at 07:05.
      await session.lock(async () => {
        const again = (await session.stores.locate(session.account)) ?? found!;
        await again.store.save(session.account, await provider.renew(again.credentials, false));
      });
      tokens = provider;
      const refresh = c.refreshExpiresAt ? `, refresh token until ${new Date(c.refreshExpiresAt).toISOString()}` : '';
      detail = `${session.account} in the ${found!.store.kind} (${found!.store.location}), logged in ${new Date(c.loggedInAt).toISOString()}${refresh}; renewed just now`;
    }
  } catch (err) {
    const { message, hint } = failure(err);
    return {
      check: fail('credentials', message, hint ?? 'run `mkt login` (on a machine without a keyring: `mkt login --insecure-storage`)'),
    };
  }
  try {
    const market = await identifyMarketplace(new ApiClient(http, settings, tokens));
    return { market, check: ok('credentials', `${detail}; accepted for account ${market.account}`) };
  } catch (err) {
    const { message, hint } = failure(err);
    const renew = env.MKT_ACCESS_TOKEN ? 'set a fresh MKT_ACCESS_TOKEN, or unset it and run `mkt login`' : 'run `mkt login`';
    return { check: fail('credentials', `${detail}; but ${message}`, hint ?? renew) };
  }
}
