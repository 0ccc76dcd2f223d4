/**
 * The request log's size flag: `--request-log-size`, and `--journal-size`, its name before the request log
 * had one word, still taken (hidden from help) so that scripts naming it go on working; exit 2 naming the
 * flag the user typed.
 */
import { describe, expect, it } from 'vitest';
import { requestLogSizeOption } from '../src/commands/options.js';

describe('the request log size flag', () => {
  it('reads --request-log-size, or --journal-size when that is the one given', () => {
    expect(requestLogSizeOption({ requestLogSize: '1000' }, 5000)).toBe(1000);
    expect(requestLogSizeOption({ requestLogSize: '1000', journalSize: '0' }, 5000)).toBe(0);
    expect(requestLogSizeOption({ requestLogSize: '1000', journalSize: undefined }, 5000)).toBe(1000);
  });

  it('refuses a bad or too large value with exit 2, naming the flag given', () => {
    expect(() => requestLogSizeOption({ requestLogSize: '9000' }, 5000)).toThrow(
      expect.objectContaining({ exitCode: 2, message: "--request-log-size must be at most 5000, got '9000'" }),
    );
    expect(() => requestLogSizeOption({ requestLogSize: '10', journalSize: '9000' }, 5000)).toThrow(
      expect.objectContaining({ exitCode: 2, message: "--journal-size must be at most 5000, got '9000'" }),
    );
    expect(() => requestLogSizeOption({ requestLogSize: 'x' }, 5000)).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringMatching(/^--request-log-size/) }),
    );
  });
});
