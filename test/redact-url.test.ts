import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactUserInfo } from '../src/redact-url.js';

describe('redactUserInfo', () => {
  it('leaves no part of a password given in a URL, as WHATWG URL reads it, and keeps the rest', () => {
    const secret = fc
      .string({ minLength: 6, maxLength: 20, unit: fc.constantFrom('a', 'Z', '9', '@', ':', '%', '!', '$', ' ', 'é') })
      .filter((s) => /[a-zA-Z9]{3}/.test(s));
    fc.assert(
      fc.property(secret, fc.constantFrom('http', 'https'), fc.constantFrom('/v1', '', '/x?q=1'), (pw, scheme, path) => {
        const raw = `${scheme}://user:${pw}@127.0.0.1:4010${path}`;
        let url: URL;
        try {
          url = new URL(raw);
        } catch {
          return;
        }
        for (const text of [raw, url.href, `cannot use '${raw}': port`]) {
          const out = redactUserInfo(text);
          const core = /[a-zA-Z9]{3}/.exec(pw)![0];
          expect(out).not.toContain(`${core}@127`);
          expect(out).toContain('***@127.0.0.1:4010');
          if (url.password) expect(out).not.toContain(url.password);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('does not touch e-mail addresses or URLs without user-info', () => {
    expect(redactUserInfo('mail bob@example.com about http://127.0.0.1:4010/v1?x=a@b')).toBe(
      'mail bob@example.com about http://127.0.0.1:4010/v1?x=a@b',
    );
  });
});
