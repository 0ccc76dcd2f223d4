/**
 * `mkt doctor`'s settings check: the profile's settings and where each came from (a variable, the
 * config file, or the default), because a cron job's environment is not the shell's: a value set with
 * `export MKT_BASE_URL=…` in a terminal is not there at 07:05.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  configDir,
  configDirWarning,
  ENV_OF,
  readConfig,
  resolveSettings,
  stateDir,
  type ProfileConfig,
  type Settings,
} from '../config/settings.js';
import type { ConfigKey } from '../config/keys.js';
import { redactUserInfo } from '../redact-url.js';
import { fail, failure, ok, warn, type Check } from './check.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Where one setting's value comes from, in words: the variable, the config file, or what it follows. */
export function settingSource(key: ConfigKey, env: Env, file: ProfileConfig): string {
  if (env[ENV_OF[key]]) return ENV_OF[key];
  if (file[key]) return 'the config file';
  if (key === 'base_url' || key === 'auth_url') {
    const follows = key === 'base_url' ? 'root_url + /v1' : 'root_url';
    if (env.MKT_ROOT_URL) return `MKT_ROOT_URL (${follows})`;
    if (file.root_url) return `root_url of the config file (${follows})`;
  }
  return 'the default (the local mock)';
}

/** What the settings check found: the check, and the settings when they could be read. */
export interface SettingsFinding {
  check: Check;
  settings?: Settings;
}

/** Reads the profile's settings as a run would, and names where each came from; a bad value fails with its own hint. */
export function checkSettings(env: Env, profileFlag: string | undefined): SettingsFinding {
  const path = join(configDir(env), 'config.json');
  let settings: Settings;
  let file: ProfileConfig;
  try {
    settings = resolveSettings(env, profileFlag);
    file = readConfig(env).profiles[settings.profile] ?? {};
  } catch (err) {
    const { message, hint } = failure(err);
    return { check: fail('settings', message, hint ?? `fix the config file ${path} or the MKT_* variables`) };
  }
  const profileFrom = profileFlag ? '--profile' : env.MKT_PROFILE ? 'MKT_PROFILE' : 'the default';
  const detail = [
    `profile ${settings.profile} (from ${profileFrom})`,
    `base_url ${redactUserInfo(settings.baseUrl)} from ${settingSource('base_url', env, file)}`,
    `auth_url ${redactUserInfo(settings.authUrl)} from ${settingSource('auth_url', env, file)}`,
    `config file ${path}${existsSync(path) ? '' : ' (none yet)'}`,
    `state dir ${settings.stateDir}${env.MKT_STATE_DIR ? ' (MKT_STATE_DIR)' : ''}`,
    `credential store ${env.MKT_CREDENTIAL_STORE ? `${env.MKT_CREDENTIAL_STORE} (MKT_CREDENTIAL_STORE)` : 'keychain, else the file'}`,
  ].join('; ');
  const loose = configDirWarning(env);
  if (loose) return { settings, check: warn('settings', detail, loose.replace(/^mkt: warning: /, '')) };
  // Cron runs with HOME and little else: settings held only in the environment are not there.
  const fromEnv = (['base_url', 'root_url', 'auth_url', 'client_id'] as const).filter((k) => env[ENV_OF[k]] && !file[k]);
  if (fromEnv.length > 0) {
    const one = fromEnv.length === 1;
    const names = fromEnv.map((k) => ENV_OF[k]).join(', ');
    const store = fromEnv.map((k) => `\`mkt config set ${k} VALUE\``).join(', ');
    return {
      settings,
      check: warn(
        'settings',
        detail,
        `${names} ${one ? 'comes' : 'come'} from this shell's environment, which a cron job does not have: store ${one ? 'it' : 'them'} (${store}), or set ${one ? 'it' : 'them'} in the crontab line`,
      ),
    };
  }
  return { settings, check: ok('settings', detail) };
}

/** The profile and state dir the file checks use, even when a URL setting is bad; undefined when the profile name itself is. */
export function fileSettings(env: Env, profileFlag: string | undefined): { profile: string; stateDir: string } | undefined {
  const profile = profileFlag || env.MKT_PROFILE || 'default';
  return /^[A-Za-z0-9_.-]+$/.test(profile) ? { profile, stateDir: stateDir(env) } : undefined;
}
