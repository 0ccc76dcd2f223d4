/** The settings a profile can hold, apart from how they are read: the root command lists them in `config`'s description at start-up. */

/** Keys a profile can set with `mkt config set`. */
export const CONFIG_KEYS = ['base_url', 'root_url', 'auth_url', 'client_id', 'redirect_uri', 'timezone', 'output'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
