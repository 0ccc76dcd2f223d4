/** `mkt listings get` on an 80-column terminal (tmux): every line within the width, every value whole. */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { display } from '../src/output/columns.js';
import { BIN, runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';
import { skipUnless } from './helpers/requirements.js';

const noTmux = skipUnless('the 80-column listing test', ['tmux']);

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 20 });
});
afterAll(async () => {
  await mock?.close();
});

/** Every `[key, text]` a person should find in the listing, nested objects' fields included, as the terminal shows them. */
function shown(item: Record<string, unknown>): [string, string][] {
  return Object.entries(item).flatMap(([k, v]): [string, string][] =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? [[k, ''], ...shown(v as Record<string, unknown>)]
      : [[k, display(k, v).text]],
  );
}

describe.skipIf(noTmux)('mkt listings get on an 80-column terminal (tmux)', () => {
  it('prints no line over 80 columns and every key and value whole', async () => {
    const search = await runMkt(['listings', 'search', '--limit', '1', '-o', 'json'], { env: mock.env });
    expect(search.code, search.stderr).toBe(0);
    const number = (JSON.parse(search.stdout) as { result: { listing_number: number }[] }).result[0]!.listing_number;
    const json = await runMkt(['listings', 'get', String(number), '-o', 'json'], { env: mock.env });
    expect(json.code, json.stderr).toBe(0);
    const listing = JSON.parse(json.stdout) as Record<string, unknown>;
    // The case that overflowed: bureau fields under a long parent name, next to dates and amounts.
    expect(Object.keys(listing)).toContain('credit_bureau_values_bureau2_indexed');

    const home = tempHome();
    const session = `mkt-get-${process.pid}-${Date.now()}`;
    const envs = `MKT_ROOT_URL=${mock.origin} MKT_ACCESS_TOKEN=${mock.env.MKT_ACCESS_TOKEN} MKT_CONFIG_DIR=${home}/c MKT_STATE_DIR=${home}/s NO_COLOR=1`;
    execFileSync('tmux', [
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '80',
      '-y',
      '400',
      `env -u COLUMNS ${envs} ${process.execPath} ${BIN} listings get ${number}; echo EXIT=$?; sleep 60`,
    ]);
    const screen = () => execFileSync('tmux', ['capture-pane', '-p', '-J', '-S', '-', '-t', session]).toString();
    try {
      let text = screen();
      for (let i = 0; i < 100 && !/EXIT=\d/.test(text); i++) {
        // The mock runs in this process: wait without blocking it.
        await new Promise((r) => setTimeout(r, 100));
        text = screen();
      }
      expect(text).toContain('EXIT=0');
      // -J joins wrapped lines, so a line wider than the pane shows up here as one over 80.
      for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
      expect(text).not.toContain('…');
      const flat = text.replace(/\s+/g, '');
      for (const [key, value] of shown(listing)) expect(flat, key).toContain(`${key}${value ? ':' : ''}${value}`.replace(/\s+/g, ''));
    } finally {
      execFileSync('tmux', ['kill-session', '-t', session]);
    }
  });
});
