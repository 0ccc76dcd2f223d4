/**
 * Profiles and settings: flags > MKT_* environment > config file > defaults. The config file is
 * `$MKT_CONFIG_DIR/config.json` (default `$XDG_CONFIG_HOME/mkt`), one object of settings per profile.
 */
import { chmodSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isValidTimeZone } from '../contract/dates.js';
import { DEMO_CLIENT } from '../contract/demo-client.js';
import { UsageError } from '../errors.js';
import { FORMATS } from '../output/formats.js';
import { makeDirs, readRegularFile } from '../state-files.js';
import { CONFIG_KEYS, type ConfigKey } from './keys.js';

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
  /** Output format: the -o flag, else MKT_OUTPUT, else the config file. */
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

/** A JSON value's type in words, for a message. */
function typeOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * Checks the parsed config file's shape: an object whose `profiles` (optional) maps names to objects
 * whose known settings are strings. A wrong shape is exit 2 naming the key and the type it needs, as
 * it was silently ignored (or a TypeError) before. Keys mkt does not know are kept as they are.
 */
function checkShape(parsed: unknown, path: string): ConfigFile {
  const wrong = (key: string, want: string, got: unknown) =>
    new UsageError(
      `config file ${path}: ${key} must be ${want}, found ${typeOf(got)}`,
      'fix or remove the file (mkt config set writes it in the right shape)',
    );
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw wrong('the top level', 'an object ({"profiles": {...}})', parsed);
  const profiles = (parsed as { profiles?: unknown }).profiles;
  if (profiles === undefined) return { profiles: {} };
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles))
    throw wrong('profiles', 'an object of profiles by name', profiles);
  for (const [name, profile] of Object.entries(profiles)) {
    const at = `profiles.${/^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name)}`;
    if (typeof profile !== 'object' || profile === null || Array.isArray(profile)) throw wrong(at, 'an object of settings', profile);
    for (const key of CONFIG_KEYS) {
      const value = (profile as Record<string, unknown>)[key];
      if (value !== undefined && typeof value !== 'string') throw wrong(`${at}.${key}`, 'a string', value);
    }
  }
  return { profiles: profiles as Record<string, ProfileConfig> };
}

/** Reads the config file; a missing file is an empty config, a broken one (JSON, shape, a FIFO) a clear error. */
export function readConfig(env: Env): ConfigFile {
  const path = join(configDir(env), 'config.json');
  let text: string | undefined;
  try {
    text = readRegularFile(path, 'config file');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    return { profiles: {} };
  }
  if (text === undefined) return { profiles: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`config file ${path} is not valid JSON: ${(err as Error).message}`, 'fix or remove the file');
  }
  return checkShape(parsed, path);
}

/**
 * Warns when the config directory can be written by group or others: whoever can write there can
 * point base_url elsewhere and collect the tokens mkt sends. The words to print, or undefined.
 */
export function configDirWarning(env: Env): string | undefined {
  const dir = configDir(env);
  let mode: number;
  try {
    mode = statSync(dir).mode;
  } catch {
    return undefined;
  }
  if ((mode & 0o022) === 0) return undefined;
  const octal = (mode & 0o777).toString(8).padStart(3, '0');
  return `mkt: warning: the config directory ${dir} is writable by ${mode & 0o020 ? (mode & 0o002 ? 'group and others' : 'group') : 'others'} (mode ${octal}): whoever can write there can change where mkt sends your token; run chmod 700 ${dir}`;
}

/** Writes the config file atomically; the directory is created 0700, as login creates it. */
export function writeConfig(env: Env, config: ConfigFile): void {
  const dir = configDir(env);
  makeDirs(dir, 'the config directory', 'set MKT_CONFIG_DIR to a directory mkt may write to');
  const path = join(dir, 'config.json');
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

const trimSlash = (u: string): string => u.replace(/\/+$/, '');

/** The environment variable that overrides each key. */
export const ENV_OF: Readonly<Record<ConfigKey, string>> = {
  base_url: 'MKT_BASE_URL',
  root_url: 'MKT_ROOT_URL',
  auth_url: 'MKT_AUTH_URL',
  client_id: 'MKT_CLIENT_ID',
  redirect_uri: 'MKT_REDIRECT_URI',
  timezone: 'MKT_TIMEZONE',
  output: 'MKT_OUTPUT',
};

/**
 * Checks one setting's value and returns it normalised (URLs without a trailing slash, except the
 * redirect URI, which must match its registration exactly). `origin` names where the value came from
 * (a flag, a variable, a profile's key) so that the message points at what to fix; exit 2.
 */
export function checkSetting(key: ConfigKey, value: string, origin: string = key, hint?: string): string {
  const v = value.trim();
  if (!v) throw new UsageError(`${origin} needs a value`, hint);
  if (key.endsWith('_url') || key === 'redirect_uri') {
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      // WHATWG URL refuses a port above 65535 too, without saying so: say it.
      const port = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(v)?.[1];
      if (port !== undefined && Number(port) > 65_535)
        throw new UsageError(`${origin} has port ${port}, above 65535, got '${value}'`, hint);
      throw new UsageError(`${origin} must be an absolute http or https URL, got '${value}'`, hint);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError(`${origin} must be an http or https URL, got '${value}'`, hint);
    if (url.hash) throw new UsageError(`${origin} must not have an anchor (#), got '${value}'`, hint);
    return key === 'redirect_uri' ? v : trimSlash(v);
  }
  if (key === 'timezone' && !isValidTimeZone(v)) {
    throw new UsageError(`${origin}: unknown time zone '${value}'; use an IANA name such as America/New_York`, hint);
  }
  if (key === 'output' && !(FORMATS as readonly string[]).includes(v)) {
    throw new UsageError(`${origin} must be one of ${FORMATS.join(', ')}, got '${value}'`, hint);
  }
  return v;
}

/** Flags that win over the environment and the config file. */
export interface SettingFlags {
  timezone?: string | undefined;
  output?: string | undefined;
}

/**
 * Which values resolveSettings checks: all (the default), none (the `config` commands, so that a bad
 * value can still be listed and fixed), or only some (the output format, which every command needs).
 */
export type CheckSettings = boolean | readonly ConfigKey[];

/**
 * Resolves a profile's settings from the environment and the config file. Checked by default: a bad
 * value is a UsageError naming the flag, variable or profile key it came from, before anything is sent.
 */
export function resolveSettings(
  env: Env,
  profileFlag: string | undefined,
  flags: SettingFlags = {},
  check: CheckSettings = true,
): Settings {
  const profile = profileFlag || env.MKT_PROFILE || 'default';
  if (!/^[A-Za-z0-9_.-]+$/.test(profile)) {
    throw new UsageError(
      `${profileFlag ? '--profile' : 'MKT_PROFILE'}: profile name '${profile}' may use only letters, digits, '.', '_' and '-'`,
    );
  }
  const file = readConfig(env).profiles[profile] ?? {};
  const pick = (key: ConfigKey, flag?: { name: string; value: string | undefined }): string | undefined => {
    const envName = ENV_OF[key];
    const checked = typeof check === 'boolean' ? check : check.includes(key);
    if (flag?.value) return checked ? checkSetting(key, flag.value, flag.name) : flag.value;
    if (env[envName]) return checked ? checkSetting(key, env[envName], envName, `fix or unset ${envName}`) : env[envName];
    const stored = file[key];
    if (!stored) return undefined;
    if (!checked) return stored;
    const fix = `mkt${profile === 'default' ? '' : ` --profile ${profile}`} config set ${key} VALUE`;
    return checkSetting(key, stored, `${key} of profile '${profile}' in ${join(configDir(env), 'config.json')}`, `fix it with \`${fix}\``);
  };
  const rootUrl = trimSlash(pick('root_url') ?? DEFAULT_ROOT_URL);
  return {
    profile,
    rootUrl,
    baseUrl: trimSlash(pick('base_url') ?? `${rootUrl}/v1`),
    authUrl: trimSlash(pick('auth_url') ?? rootUrl),
    clientId: pick('client_id') ?? DEMO_CLIENT.clientId,
    redirectUri: pick('redirect_uri') ?? DEMO_CLIENT.redirectUri,
    timezone: pick('timezone', { name: '--timezone', value: flags.timezone }),
    output: pick('output', { name: '--output', value: flags.output }),
    configDir: configDir(env),
    stateDir: stateDir(env),
  };
}
