/**
 * Profiles and settings: flags > MKT_* environment > config file > defaults. The config file is
 * `$MKT_CONFIG_DIR/config.json` (default `$XDG_CONFIG_HOME/mkt`), one object of settings per profile.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';

/** Keys a profile can set with `mkt config set`. */
export const CONFIG_KEYS = ['base_url', 'root_url', 'auth_url', 'client_id', 'redirect_uri', 'timezone', 'output'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

/** The local mock, where every default points. */
export const DEFAULT_ROOT_URL = 'http://127.0.0.1:4010';

/** Settings of one profile as the file holds them. */
export type ProfileConfig = Partial<Record<ConfigKey, string>>;

/** The config file. */
export interface ConfigFile {
  profiles: Record<string, ProfileConfig>;
}

/** Everything a command needs to reach the marketplace, resolved. */
export interface Settings {
  profile: string;
  baseUrl: string;
  rootUrl: string;
  authUrl: string;
  clientId: string;
  redirectUri: string;
  timezone: string | undefined;
  /** Output format from MKT_OUTPUT or the config file (the -o flag wins over both). */
  output: string | undefined;
  configDir: string;
  stateDir: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The config directory: MKT_CONFIG_DIR, else XDG_CONFIG_HOME/mkt, else ~/.config/mkt. */
export function configDir(env: Env): string {
  return env.MKT_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'mkt');
}

/** The state directory: MKT_STATE_DIR, else XDG_STATE_HOME/mkt, else ~/.local/state/mkt. */
export function stateDir(env: Env): string {
  return env.MKT_STATE_DIR || join(env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state'), 'mkt');
}

/** Reads the config file; a missing file is an empty config, a broken one a clear error. */
export function readConfig(env: Env): ConfigFile {
  const path = join(configDir(env), 'config.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { profiles: {} };
  }
  try {
    const parsed = JSON.parse(text) as Partial<ConfigFile>;
    return { profiles: parsed.profiles && typeof parsed.profiles === 'object' ? parsed.profiles : {} };
  } catch (err) {
    throw new UsageError(`config file ${path} is not valid JSON: ${(err as Error).message}`, 'fix or remove the file');
  }
}

/** Writes the config file atomically. */
export function writeConfig(env: Env, config: ConfigFile): void {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'config.json');
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, path);
}

const trimSlash = (u: string): string => u.replace(/\/+$/, '');

/** Resolves a profile's settings from the environment and the config file. */
export function resolveSettings(env: Env, profileFlag: string | undefined, timezoneFlag: string | undefined): Settings {
  const profile = profileFlag || env.MKT_PROFILE || 'default';
  if (!/^[A-Za-z0-9_.-]+$/.test(profile)) throw new UsageError(`profile name '${profile}' may use only letters, digits, '.', '_' and '-'`);
  const file = readConfig(env).profiles[profile] ?? {};
  const pick = (envName: string, key: ConfigKey): string | undefined => env[envName] || file[key] || undefined;
  const rootUrl = trimSlash(pick('MKT_ROOT_URL', 'root_url') ?? DEFAULT_ROOT_URL);
  return {
    profile,
    rootUrl,
    baseUrl: trimSlash(pick('MKT_BASE_URL', 'base_url') ?? `${rootUrl}/v1`),
    authUrl: trimSlash(pick('MKT_AUTH_URL', 'auth_url') ?? rootUrl),
    clientId: pick('MKT_CLIENT_ID', 'client_id') ?? 'mkt-demo',
    redirectUri: pick('MKT_REDIRECT_URI', 'redirect_uri') ?? 'http://localhost:8765/callback',
    timezone: timezoneFlag || env.MKT_TIMEZONE || file.timezone || undefined,
    output: env.MKT_OUTPUT || file.output || undefined,
    configDir: configDir(env),
    stateDir: stateDir(env),
  };
}
