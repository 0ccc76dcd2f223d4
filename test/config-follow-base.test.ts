/** `config set base_url`: root_url and auth_url that lived beside the old base move with it; those set apart are named. */
import { describe, expect, it } from 'vitest';
import { followBase } from '../src/config/follow-base.js';
import { runMkt, tempHome } from './helpers/cli.js';

describe('followBase', () => {
  it('moves the default root_url and auth_url (derived from the local mock) to the new host', () => {
    expect(followBase({}, 'https://api.example.com/v1')).toEqual({
      moved: {
        root_url: { from: 'http://127.0.0.1:4010', to: 'https://api.example.com' },
        auth_url: { from: 'http://127.0.0.1:4010', to: 'https://api.example.com' },
      },
      apart: {},
    });
  });

  it('keeps a base path: root_url is the new base without the old suffix', () => {
    const move = followBase(
      { root_url: 'http://127.0.0.1:4010/base', base_url: 'http://127.0.0.1:4010/base/v1' },
      'http://10.0.0.5:5000/other/v1',
    );
    expect(move.moved.root_url?.to).toBe('http://10.0.0.5:5000/other');
    expect(move.moved.auth_url?.to).toBe('http://10.0.0.5:5000/other');
  });

  it('leaves a URL set to another host than the old base, and names it', () => {
    const move = followBase({ auth_url: 'https://auth.example.net' }, 'https://api.example.com/v1');
    expect(move.moved).toEqual({ root_url: { from: 'http://127.0.0.1:4010', to: 'https://api.example.com' } });
    expect(move.apart).toEqual({ auth_url: 'https://auth.example.net' });
  });

  it('moves nothing when the old base_url was no URL (a bad value being fixed)', () => {
    expect(followBase({ base_url: 'not-a-url' }, 'https://api.example.com/v1')).toEqual({ moved: {}, apart: {} });
    expect(followBase({ root_url: 'bad' }, 'https://api.example.com/v1')).toEqual({ moved: {}, apart: {} });
  });

  it('says nothing when the new base stays on the same host and path', () => {
    expect(followBase({}, 'http://127.0.0.1:4010/v1')).toEqual({ moved: {}, apart: {} });
  });
});

describe('mkt config set base_url', () => {
  const config = async (home: string, ...args: string[]) => runMkt(['config', ...args], { home });

  it('derives root_url and auth_url from the new base when they were derived from the old one, and says so', async () => {
    const home = tempHome();
    const set = await config(home, 'set', 'base_url', 'https://api.example.com/v1');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toContain('root_url follows base_url to its host: https://api.example.com (was http://127.0.0.1:4010)');
    expect(set.stderr).toContain('auth_url follows base_url to its host: https://api.example.com (was http://127.0.0.1:4010)');
    expect((await config(home, 'get', 'root_url')).stdout.trim()).toBe('https://api.example.com');
    expect((await config(home, 'get', 'auth_url')).stdout.trim()).toBe('https://api.example.com');
    expect((await config(home, 'get', 'base_url')).stdout.trim()).toBe('https://api.example.com/v1');
  });

  it('warns naming a URL that was set to another host, and leaves it', async () => {
    const home = tempHome();
    expect((await config(home, 'set', 'auth_url', 'https://auth.example.net')).code).toBe(0);
    const set = await runMkt(['--profile', 'work', 'config', 'set', 'auth_url', 'https://auth.example.net'], { home });
    expect(set.code, set.stderr).toBe(0);
    const moved = await config(home, 'set', 'base_url', 'https://api.example.com/v1');
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toMatch(
      /warning: auth_url \(https:\/\/auth\.example\.net\) stays on another host than base_url.*`mkt config set auth_url URL`/,
    );
    expect((await config(home, 'get', 'auth_url')).stdout.trim()).toBe('https://auth.example.net');
    expect((await config(home, 'get', 'root_url')).stdout.trim()).toBe('https://api.example.com');
    const work = await runMkt(['--profile', 'work', 'config', 'set', 'base_url', 'https://api.example.com/v1'], { home });
    expect(work.stderr).toContain('`mkt --profile work config set auth_url URL`');
  });
});
