import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, runMkt, tempHome } from './helpers/cli.js';

const has = (shell: string): boolean => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

let home: string;
let env: Record<string, string>;
beforeAll(async () => {
  // `mkt` on PATH as an installed one would be, with its own config dir holding two profiles.
  home = tempHome();
  const bin = join(home, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'mkt'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'mkt'), 0o755);
  env = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    MKT_CONFIG_DIR: join(home, 'config'),
    MKT_STATE_DIR: join(home, 'state'),
    // Completion must never reach the network: a call would fail here, and it would show.
    MKT_ROOT_URL: 'http://127.0.0.1:9',
  };
  for (const profile of ['work', 'play']) {
    expect((await runMkt(['--profile', profile, 'config', 'set', 'timezone', 'UTC'], { home })).code).toBe(0);
  }
});

/** What the bash script from `mkt completion bash` offers for a command line split into COMP_WORDS. */
async function bashComplete(words: string[]): Promise<string[]> {
  const script = join(home, 'mkt.bash');
  writeFileSync(script, (await runMkt(['completion', 'bash'])).stdout);
  const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '--norc',
      '--noprofile',
      '-c',
      `source '${script}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _mkt_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { env, encoding: 'utf8', timeout: 20_000 },
  );
  return out.split('\n').filter(Boolean);
}

describe('shell completion', () => {
  it('bash: the script registers itself for mkt', async () => {
    const script = (await runMkt(['completion', 'bash'])).stdout;
    const out = execFileSync('bash', ['--norc', '--noprofile', '-c', `${script}\ncomplete -p mkt`], { env, encoding: 'utf8' });
    expect(out).toContain('-F _mkt_complete');
  });

  it('bash: completes command names', async () => {
    expect(await bashComplete(['mkt', 'lis'])).toEqual(['listings']);
    expect(await bashComplete(['mkt', 'listings', ''])).toEqual(['search', 'fields', 'get']);
  });

  it('bash: completes flags of the command and the global ones', async () => {
    expect(await bashComplete(['mkt', 'listings', 'search', '--fico'])).toEqual(['--fico_score']);
    expect(await bashComplete(['mkt', 'loans', 'list', '--prof'])).toEqual(['--profile']);
  });

  it('bash: completes the enumerated values of a filter, also after a comma and after =', async () => {
    expect(await bashComplete(['mkt', 'listings', 'search', '--platform_rating', ''])).toEqual([
      'AA',
      'A',
      'B',
      'C',
      'D',
      'E',
      'HR',
      'N/A',
    ]);
    expect(await bashComplete(['mkt', 'listings', 'search', '--platform_rating', 'AA,H'])).toEqual(['AA,HR']);
    // Bash splits --fico_score=76 at '=': the candidates replace only the part after it.
    expect(await bashComplete(['mkt', 'listings', 'search', '--fico_score', '=', '76'])).toEqual(['760-779']);
    expect(await bashComplete(['mkt', 'listings', 'search', '--has_mortgage', ''])).toEqual(['true', 'false']);
    expect(await bashComplete(['mkt', '-o', ''])).toEqual(['table', 'json', 'ndjson', 'csv']);
  });

  it('bash: completes profile names from the config file', async () => {
    expect(await bashComplete(['mkt', '--profile', ''])).toEqual(['play', 'work']);
    expect(await bashComplete(['mkt', '--profile', 'w'])).toEqual(['work']);
  });

  it('answers nothing, and no error, for a word it cannot complete', async () => {
    const r = await runMkt(['__complete', '--', 'listings', 'search', '--no_such_flag', ''], { env });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('refuses an unknown shell with exit 2', async () => {
    const r = await runMkt(['completion', 'powershell']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bash, zsh, fish/);
  });

  it.skipIf(!has('zsh'))('zsh: the script is valid zsh (skipped: zsh is not installed)', async () => {
    const script = join(home, 'mkt.zsh');
    writeFileSync(script, (await runMkt(['completion', 'zsh'])).stdout);
    expect(spawnSync('zsh', ['-n', script]).status).toBe(0);
  });

  it.skipIf(!has('fish'))('fish: the script is valid fish (skipped: fish is not installed)', async () => {
    const script = join(home, 'mkt.fish');
    writeFileSync(script, (await runMkt(['completion', 'fish'])).stdout);
    expect(spawnSync('fish', ['--no-execute', script]).status).toBe(0);
  });

  it('zsh and fish scripts are printed and call back mkt __complete', async () => {
    for (const shell of ['zsh', 'fish']) {
      const r = await runMkt(['completion', shell]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('mkt __complete --');
    }
  });
});
