import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import * as accounts from '../src/api/accounts.js';
import { ApiClient } from '../src/api/client.js';
import { HttpClient } from '../src/api/http.js';
import { MarketClock, parseHttpDate } from '../src/api/market-clock.js';
import type { TokenProvider } from '../src/api/client.js';
import type { Settings } from '../src/config/settings.js';
import { startMock, TEST_START, type TestMock } from './helpers/mock.js';

const DAY = 86_400_000;
/** RFC 9110 §5.6.7's own example, in each of its three forms. */
const RFC_EXAMPLE = Date.UTC(1994, 10, 6, 8, 49, 37);

describe('an HTTP Date read', () => {
  it('reads every whole second back from the form servers send (IMF-fixdate)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59) / 1000 }), (s) => {
        expect(parseHttpDate(new Date(s * 1000).toUTCString())).toBe(s * 1000);
      }),
    );
  });

  it('reads the obsolete RFC 850 and asctime forms, case aside', () => {
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(RFC_EXAMPLE);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(RFC_EXAMPLE);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(RFC_EXAMPLE);
    expect(parseHttpDate('sun, 06 NOV 1994 08:49:37 gmt')).toBe(RFC_EXAMPLE);
    expect(parseHttpDate('Thursday, 26-Nov-26 01:02:03 GMT')).toBe(Date.UTC(2026, 10, 26, 1, 2, 3));
  });

  it('refuses what is not a date rather than guessing (a day past the month, an hour 24, a bare number, a zone other than GMT)', () => {
    for (const text of [
      'Tue, 31 Nov 2026 00:00:00 GMT',
      'Thu, 26 Nov 2026 24:00:00 GMT',
      'Thu, 26 Nov 2026 01:02:03 +0100',
      '1',
      '2026-11-26T01:02:03Z',
      '',
    ]) {
      expect(parseHttpDate(text), text).toBeNull();
    }
  });

  it('never throws: any text is a time in whole seconds or null', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const at = parseHttpDate(text);
        expect(at === null || (Number.isSafeInteger(at) && at % 1000 === 0)).toBe(true);
      }),
    );
  });
});

describe('an HTTP Date read by position', () => {
  /** `t` with every ASCII letter in the other case: a text only the patterns read (the positional reading takes the names as servers capitalise them). */
  const swapped = (t: string) => t.replace(/[A-Za-z]/g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
  /** A date as servers send it (years 0000–9999), or the same with one character changed. */
  const nearFixdate = fc
    .tuple(
      fc.integer({ min: -62_167_219_200, max: 253_402_300_799 }),
      fc.nat(28),
      fc.constantFrom(...'0123456789 :,-+/AaGgMmTtZz\t'),
      fc.boolean(),
    )
    .map(([s, at, c, whole]) => {
      const t = new Date(s * 1000).toUTCString();
      return whole ? t : t.slice(0, at) + c + t.slice(at + 1);
    });

  it('reads the form servers send as the patterns read it: any text and the same with its letters in the other case are the same time', () => {
    fc.assert(
      fc.property(fc.oneof(nearFixdate, fc.string({ maxLength: 32 })), (text) => {
        expect(parseHttpDate(text), text).toBe(parseHttpDate(swapped(text)));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("the marketplace's clock", () => {
  it("is this machine's until an answer tells it, then runs on from the answer's Date with this machine's clock", () => {
    let local = Date.UTC(2026, 0, 1);
    const clock = new MarketClock({ now: () => local });
    expect(clock.now()).toBe(local);
    expect(clock.skew()).toBeNull();
    clock.heard(new Date(local + 15 * DAY).toUTCString());
    expect(clock.now()).toBe(local + 15 * DAY);
    local += 60_000;
    expect(clock.now()).toBe(local + 15 * DAY);
    expect(clock.skew()).toBe(15 * DAY);
  });

  it('tells the last Date it heard, so a Date standing still while time passes can be seen', () => {
    let local = Date.UTC(2026, 0, 1);
    const clock = new MarketClock({ now: () => local });
    expect(clock.lastDate()).toBeNull();
    const frozen = new Date(local - DAY).toUTCString();
    clock.heard(frozen);
    local += 5_000;
    clock.heard(frozen);
    clock.heard('yesterday');
    expect(clock.lastDate()).toBe(Date.parse(frozen));
  });

  it('keeps what it knew when an answer has no Date, a repeated one or one it cannot read', () => {
    const local = Date.UTC(2026, 0, 1);
    const clock = new MarketClock({ now: () => local });
    clock.heard(new Date(local - DAY).toUTCString());
    for (const date of [undefined, ['a', 'b'], 'yesterday']) clock.heard(date);
    expect(clock.now()).toBe(local - DAY);
  });
});

describe("the mock's Date and the client that reads it", () => {
  let mock: TestMock | undefined;
  afterEach(async () => {
    await mock?.close();
  });

  it("the mock's answers are dated by its virtual clock, moved or not, and ApiClient.marketNow() follows them", async () => {
    mock = await startMock({ listings: 20, frozen: true, start: TEST_START });
    const machine = Date.UTC(2020, 0, 1);
    const http = new HttpClient();
    const settings = { baseUrl: `${mock.origin}/v1`, rootUrl: mock.origin, authUrl: mock.origin } as Settings;
    const tokens = { accessToken: async () => mock!.env.MKT_ACCESS_TOKEN! } as TokenProvider;
    const client = new ApiClient(http, settings, tokens, { now: () => machine });
    try {
      expect(client.marketNow()).toBe(machine);
      await accounts.platform(client);
      expect(client.marketNow()).toBe(TEST_START);
      const moved = await fetch(`${mock.origin}/__mock/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"advance":"15d"}',
      });
      // The move's own answer is dated after it.
      expect(Date.parse(moved.headers.get('date')!)).toBe(TEST_START + 15 * DAY);
      // The token has expired by the moved clock: the refusal still tells the time.
      await expect(accounts.platform(client)).rejects.toThrow();
      expect(client.marketNow()).toBe(TEST_START + 15 * DAY);
      // An error answer (404) carries the mock's time too.
      const missing = await fetch(`${mock.origin}/v1/nothing-here`);
      expect(missing.status).toBe(404);
      expect(Date.parse(missing.headers.get('date')!)).toBe(TEST_START + 15 * DAY);
    } finally {
      await http.close();
    }
  });
});
