/**
 * Error messages close their sentences once: the marketplace ends its messages with a full stop, and
 * the CLI puts them inside sentences of its own (`order 1/1 rejected: … .`), which printed `..`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorFromResponse } from '../src/api/errors.js';
import { clause } from '../src/errors.js';
import { NOWHERE, runMkt } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

/** `..` that is not part of an ellipsis (`...`) or of a path (`../x`, `/a/../b`). */
function doubleStop(text: string): boolean {
  const words = text.split(/\s+/).filter((w) => !w.includes('/'));
  return /(?<!\.)\.\.(?!\.)/.test(words.join(' '));
}

describe('a clause of a message', () => {
  it('drops one closing full stop and keeps an ellipsis', () => {
    expect(clause('Listing not found.')).toBe('Listing not found');
    expect(clause('Listing not found. No listing 7. ')).toBe('Listing not found. No listing 7');
    expect(clause('waiting...')).toBe('waiting...');
    expect(clause('no stop')).toBe('no stop');
  });

  it("an API error's message never closes with a full stop, whatever the marketplace sent", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom('', '.', '. ', '..'),
        fc.option(fc.constantFrom('ORD0003', 'ORD0014', 'invalid_token')),
        (text, end, code) => {
          const e = errorFromResponse(400, { code: code ?? undefined, message: `${text}${end}` }, 'order submit');
          // Closed once by the sentence around it, it never ends in two stops (an ellipsis is three). What the
          // marketplace wrote inside its text (fast-check found "..!") is its own and is shown as sent.
          expect(/(?<!\.)\.\.$/.test(`${e.message}.`)).toBe(false);
        },
      ),
    );
  });
});

describe('the messages of bad inputs', () => {
  let mock: TestMock;
  beforeAll(async () => {
    mock = await startMock({ listings: 20 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('have no double full stop, marketplace rejections included', async () => {
    const search = await runMkt(['listings', 'search', '--limit', '1', '-o', 'json'], { env: mock.env });
    const listing = (JSON.parse(search.stdout) as { result: { listing_number: number }[] }).result[0]!.listing_number;
    const bids = (id: number, amount: string) => `listing_id,bid_amount\n${id},${amount}\n`;
    const cases: { args: string[]; env?: Record<string, string>; input?: string; code: number }[] = [
      // A listing the marketplace does not show is left out before sending now (issue 41 item 4), so no rejection
      // comes back for it; the bid of 1,000,000 below is still the marketplace's own rejection.
      { args: ['order', 'submit', '-', '--yes'], input: bids(listing, '1000000'), code: 4 },
      { args: ['order', 'submit', '-', '--yes'], input: bids(listing, '24'), code: 2 },
      { args: ['order', 'get', '00000000-0000-4000-8000-000000000000'], code: 4 },
      { args: ['order', 'get', 'not-a-uuid'], code: 2 },
      { args: ['listings', 'get', '99'], code: 4 },
      { args: ['listings', 'search', '--sort-by', 'nope desc'], code: 2 },
      { args: ['account'], env: { ...mock.env, MKT_ACCESS_TOKEN: 'bad' }, code: 3 },
      { args: ['account'], env: NOWHERE, code: 5 },
      { args: ['config', 'set', 'nope', '1'], code: 2 },
      { args: ['config', 'set', 'base_url', 'ftp://x'], code: 2 },
      { args: ['notes', 'list', '--status', 'WHAT'], code: 2 },
      { args: ['invest', 'check', '/nonexistent/strategy.yaml'], code: 2 },
      { args: ['mock', 'clock', 'advance', 'zz'], code: 2 },
    ];
    for (const c of cases) {
      const r = await runMkt(c.args, { env: c.env ?? mock.env, ...(c.input === undefined ? {} : { input: c.input }) });
      const what = `mkt ${c.args.join(' ')}: ${r.stderr}`;
      expect(r.code, what).toBe(c.code);
      expect(r.stderr, what).toMatch(/^mkt: /);
      expect(doubleStop(r.stderr), what).toBe(false);
    }
  });
});
