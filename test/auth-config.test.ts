import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMkt, tempHome } from './helpers/cli.js';

describe('mkt config', () => {
  it('set, get, list and unset a setting per profile', async () => {
    const home = tempHome();
    expect((await runMkt(['config', 'set', 'base_url', 'http://127.0.0.1:5000/v1/'], { home })).code).toBe(0);
    expect((await runMkt(['--profile', 'cron', 'config', 'set', 'client_id', 'cron-client'], { home })).code).toBe(0);
    expect((await runMkt(['config', 'get', 'base_url'], { home })).stdout).toBe('http://127.0.0.1:5000/v1\n');
    expect((await runMkt(['config', 'get', 'client_id'], { home })).stdout).toBe('mkt-demo\n');
    expect((await runMkt(['--profile', 'cron', 'config', 'get', 'client_id'], { home })).stdout).toBe('cron-client\n');
    const list = JSON.parse((await runMkt(['config', 'list', '-o', 'json'], { home })).stdout) as Array<{
      key: string;
      value: string;
      source: string;
    }>;
    expect(list.find((r) => r.key === 'base_url')).toEqual({ key: 'base_url', value: 'http://127.0.0.1:5000/v1', source: 'config file' });
    expect(list.find((r) => r.key === 'client_id')?.source).toBe('default');
    // root_url and auth_url were derived from the old base_url: they moved with it (config-follow-base.test.ts).
    const file = JSON.parse(readFileSync(join(home, 'config', 'config.json'), 'utf8')) as {
      profiles: Record<string, Record<string, string>>;
    };
    expect(file.profiles).toEqual({
      default: { base_url: 'http://127.0.0.1:5000/v1', root_url: 'http://127.0.0.1:5000', auth_url: 'http://127.0.0.1:5000' },
      cron: { client_id: 'cron-client' },
    });
    expect((await runMkt(['config', 'unset', 'base_url'], { home })).code).toBe(0);
    expect((await runMkt(['config', 'get', 'base_url'], { home })).stdout).toBe('http://127.0.0.1:5000/v1\n');
    expect((await runMkt(['config', 'unset', 'root_url'], { home })).code).toBe(0);
    expect((await runMkt(['config', 'get', 'base_url'], { home })).stdout).toBe('http://127.0.0.1:4010/v1\n');
  });

  it('set and unset say on stderr what they did, the profile and the file, a password in a URL as ***; stdout stays empty', async () => {
    const home = tempHome();
    const file = join(home, 'config', 'config.json');
    const set = await runMkt(['--profile', 'work', 'config', 'set', 'root_url', 'https://me:hunter2@api.example.com/'], { home });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe('');
    expect(set.stderr).toBe(`mkt: set root_url = https://***@api.example.com (profile work, ${file})\n`);
    expect(set.stderr).not.toContain('hunter2');
    const zone = await runMkt(['config', 'set', 'timezone', 'Europe/Paris'], { home });
    expect(zone.stderr).toBe(`mkt: set timezone = Europe/Paris (profile default, ${file})\n`);
    const unset = await runMkt(['--profile', 'work', 'config', 'unset', 'root_url'], { home });
    expect(unset.code, unset.stderr).toBe(0);
    expect(unset.stdout).toBe('');
    expect(unset.stderr).toBe(`mkt: unset root_url (profile work, ${file}); it is now http://127.0.0.1:4010\n`);
  });

  it('environment variables win over the file, and list says so', async () => {
    const home = tempHome();
    await runMkt(['config', 'set', 'auth_url', 'http://127.0.0.1:5001'], { home });
    const r = await runMkt(['config', 'list', '-o', 'json'], { home, env: { MKT_AUTH_URL: 'http://127.0.0.1:6001' } });
    const rows = JSON.parse(r.stdout) as Array<{ key: string; value: string; source: string }>;
    expect(rows.find((x) => x.key === 'auth_url')).toEqual({ key: 'auth_url', value: 'http://127.0.0.1:6001', source: 'MKT_AUTH_URL' });
  });

  it('refuses unknown keys (with a suggestion), secrets and bad values with exit 2', async () => {
    const home = tempHome();
    const typo = await runMkt(['config', 'set', 'base_ur', 'http://x'], { home });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("did you mean 'base_url'");
    const secret = await runMkt(['config', 'set', 'client_secret', 'x'], { home });
    expect(secret.code).toBe(2);
    expect(secret.stderr).toContain('secrets never go into config.json');
    const url = await runMkt(['config', 'set', 'redirect_uri', 'not a url'], { home });
    expect(url.code).toBe(2);
    const zone = await runMkt(['config', 'set', 'timezone', 'Mars/Olympus'], { home });
    expect(zone.code).toBe(2);
  });
});
