/**
 * What `config set base_url` does to root_url and auth_url: those that lived beside the old base_url
 * (same origin, as the defaults do) move with it; those set to another host stay and are named, so
 * that the API never goes to one host while tokens and the mock's admin routes go to another unsaid.
 */
import { DEFAULT_ROOT_URL, type ProfileConfig } from './settings.js';

/** The URLs that follow base_url. */
const FOLLOWERS = ['root_url', 'auth_url'] as const;

/** What setting base_url changes besides it, and what it leaves on another host. */
export interface BaseMove {
  /** New values for the followers that lived beside the old base_url. */
  moved: Partial<Record<(typeof FOLLOWERS)[number], { from: string; to: string }>>;
  /** Followers set to another origin than the old base_url: left as they are. */
  apart: Partial<Record<(typeof FOLLOWERS)[number], string>>;
}

/** `text` as a URL, or undefined when it is none (a bad value kept in the file). */
function url(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** The profile's root_url, base_url and auth_url as resolveSettings derives them from what is set. */
function effectiveUrls(profile: ProfileConfig): { root_url: string; base_url: string; auth_url: string } {
  const root = profile.root_url ?? DEFAULT_ROOT_URL;
  return { root_url: root, base_url: profile.base_url ?? `${root}/v1`, auth_url: profile.auth_url ?? root };
}

/**
 * `value` carried from `oldBase` to `newBase`: when the old base was `value` plus a path suffix
 * (`/v1`) and the new one ends in that suffix too, the new base without it; else `value`'s path on
 * the new base's origin.
 */
function carried(value: URL, oldBase: URL, newBase: URL): string {
  const path = value.pathname.replace(/\/+$/, '');
  const suffix = oldBase.pathname.startsWith(path) ? oldBase.pathname.slice(path.length).replace(/\/+$/, '') : undefined;
  const newPath = newBase.pathname.replace(/\/+$/, '');
  if (suffix && suffix.startsWith('/') && newPath.endsWith(suffix)) return `${newBase.origin}${newPath.slice(0, -suffix.length)}`;
  return `${newBase.origin}${path}`;
}

/** What `config set base_url newBase` changes in `profile` besides base_url (both URLs already checked). */
export function followBase(profile: ProfileConfig, newBase: string): BaseMove {
  const old = effectiveUrls(profile);
  const oldBase = url(old.base_url);
  const to = new URL(newBase);
  const move: BaseMove = { moved: {}, apart: {} };
  // A broken old base_url (what `config set` is often fixing) was no base for anything: nothing follows it.
  if (!oldBase) return move;
  for (const key of FOLLOWERS) {
    const value = url(old[key]);
    if (!value) continue;
    if (value.origin !== oldBase.origin) {
      if (value.origin !== to.origin) move.apart[key] = old[key];
      continue;
    }
    const next = carried(value, oldBase, to);
    if (next !== old[key]) move.moved[key] = { from: old[key], to: next };
  }
  return move;
}
