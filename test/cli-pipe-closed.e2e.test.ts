/** `mkt … | head`: when the reader of stdout goes away, mkt stops producing output and ends quietly (exit 0, no stack). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMkt } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 300 });
});
afterAll(async () => {
  await mock.close();
});

describe('mkt with its stdout closed by the reader', () => {
  for (const format of ['table', 'json', 'ndjson', 'csv']) {
    for (const paging of [['--limit', '100'], ['--all']]) {
      it(`ends quietly with exit 0: listings search -o ${format} ${paging.join(' ')}`, async () => {
        const r = await runMkt(['listings', 'search', '-o', format, ...paging], { env: mock.env, closeStdout: true });
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
      });
    }
  }

  it('ends quietly when help is cut short too', async () => {
    const r = await runMkt(['listings', 'search', '--help'], { closeStdout: true });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
