/** `mkt config get|set|list|unset`: per-profile settings in `$MKT_CONFIG_DIR/config.json` (never secrets). */
import { join } from 'node:path';
import { CONFIG_KEYS, type ConfigKey } from '../config/keys.js';
import { checkSetting, configDir, ENV_OF, readConfig, resolveSettings, writeConfig, type Settings } from '../config/settings.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { redactUserInfo } from '../redact-url.js';
import type { Output } from '../output/render.js';
import { groupCommand } from './groups.js';
import { suggest } from './options.js';

/** The config file `config set` and `unset` write. */
const configFile = (env: Readonly<Record<string, string | undefined>>): string => join(configDir(env), 'config.json');

function effective(s: Settings, key: ConfigKey): string | undefined {
  const map: Partial<Record<ConfigKey, string | undefined>> = {
    base_url: s.baseUrl,
    root_url: s.rootUrl,
    auth_url: s.authUrl,
    client_id: s.clientId,
    redirect_uri: s.redirectUri,
    timezone: s.timezone,
  };
  return map[key];
}

/** Checks a key name (exit 2 with a suggestion). */
export function checkKey(key: string): ConfigKey {
  if ((CONFIG_KEYS as readonly string[]).includes(key)) return key as ConfigKey;
  if (/secret|token|password|auth_key/i.test(key))
    throw new UsageError(
      `'${key}' is not a setting: secrets never go into config.json`,
      'mkt login stores them in the keychain; use MKT_CLIENT_SECRET for the client secret',
    );
  const near = suggest(key, CONFIG_KEYS);
  throw new UsageError(
    `unknown setting '${key}'`,
    near ? `did you mean '${near}'? (settings: ${CONFIG_KEYS.join(', ')})` : `settings: ${CONFIG_KEYS.join(', ')}`,
  );
}

/** Checks a value for `key` (exit 2), by the same rule that checks it on use. */
export function checkValue(key: ConfigKey, value: string): string {
  return checkSetting(key, value);
}

/** The `config` command group. */
export function makeConfigCommand(ctx: CommandContext) {
  const config = groupCommand('config');
  // Unchecked: a bad value already in the file or the environment must not stop listing or fixing it.
  const settings = () => resolveSettings(ctx.io.env, ctx.globals().profile, {}, false);
  const profile = () => settings().profile;

  config
    .command('list')
    .description('every setting of the profile: its value and where it comes from')
    .action(
      ctx.action(async (): Promise<Output> => {
        const env = ctx.io.env;
        const s = settings();
        const file = readConfig(env).profiles[s.profile] ?? {};
        const rows = CONFIG_KEYS.map((key) => {
          const source = env[ENV_OF[key]] ? ENV_OF[key] : file[key] !== undefined ? 'config file' : 'default';
          const value = file[key] !== undefined && source === 'config file' ? file[key] : (effective(s, key) ?? env[ENV_OF[key]] ?? null);
          return { key, value: value === null ? null : redactUserInfo(value), source };
        });
        return { kind: 'rows', rows, columns: ['key', 'value', 'source'] };
      }),
    );

  config
    .command('get')
    .description('the effective value of one setting')
    .argument('<key>', 'setting name')
    .action(
      ctx.action(async (keyText): Promise<Output> => {
        const key = checkKey(keyText);
        const s = settings();
        const value = effective(s, key) ?? readConfig(ctx.io.env).profiles[s.profile]?.[key] ?? ctx.io.env[ENV_OF[key]];
        // A password in a URL stays in the file: scripts read URLs here, and none needs the password back.
        if (value !== undefined) ctx.io.stdout.write(`${redactUserInfo(value)}\n`);
        return { kind: 'none' };
      }),
    );

  config
    .command('set')
    .description('set a setting of the profile')
    .argument('<key>', 'setting name')
    .argument('<value>', 'new value')
    .action(
      ctx.action(async (keyText, valueText): Promise<Output> => {
        const key = checkKey(keyText);
        const value = checkValue(key, valueText);
        const name = profile();
        const file = readConfig(ctx.io.env);
        const before = file.profiles[name] ?? {};
        file.profiles[name] = { ...before, [key]: value };
        const followers = key === 'base_url' ? (await import('../config/follow-base.js')).followBase(before, value) : undefined;
        for (const [k, m] of Object.entries(followers?.moved ?? {})) file.profiles[name][k as ConfigKey] = m.to;
        writeConfig(ctx.io.env, file);
        // Said on stderr, as login and logout say what they did: stdout stays empty for scripts, as before.
        ctx.info(`mkt: set ${key} = ${redactUserInfo(value)} (profile ${name}, ${configFile(ctx.io.env)})`);
        if (ctx.io.env[ENV_OF[key]]) ctx.info(`mkt: note: ${ENV_OF[key]} is set and overrides ${key}`);
        for (const [k, m] of Object.entries(followers?.moved ?? {}))
          ctx.info(`mkt: ${k} follows base_url to its host: ${redactUserInfo(m.to)} (was ${redactUserInfo(m.from)})`);
        const apart = Object.entries(followers?.apart ?? {});
        if (apart.length > 0) {
          const list = apart.map(([k, v]) => `${k} (${redactUserInfo(v)})`).join(' and ');
          ctx.info(
            `mkt: warning: ${list} ${apart.length > 1 ? 'stay' : 'stays'} on another host than base_url, as set; if ${apart.length > 1 ? 'they' : 'it'} moved too, run \`mkt${name === 'default' ? '' : ` --profile ${name}`} config set ${apart[0]![0]} URL\``,
          );
        }
        return { kind: 'none' };
      }),
    );

  config
    .command('unset')
    .description('remove a setting of the profile (back to the default)')
    .argument('<key>', 'setting name')
    .action(
      ctx.action(async (keyText): Promise<Output> => {
        const key = checkKey(keyText);
        const name = profile();
        const file = readConfig(ctx.io.env);
        const p = { ...file.profiles[name] };
        delete p[key];
        if (Object.keys(p).length) file.profiles[name] = p;
        else delete file.profiles[name];
        writeConfig(ctx.io.env, file);
        const now = effective(settings(), key);
        ctx.info(
          `mkt: unset ${key} (profile ${name}, ${configFile(ctx.io.env)})${now === undefined ? '' : `; it is now ${redactUserInfo(now)}`}`,
        );
        return { kind: 'none' };
      }),
    );

  return config;
}
