import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMkt } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

const EXAMPLES = resolve(import.meta.dirname, '../examples');
let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 60 });
});
afterAll(async () => {
  await mock.close();
});

describe('the files under examples/ work as the README shows them', () => {
  it("mkt offers request examples/applicant.json gets offers from the mock (its partner code is the mock's valid one)", async () => {
    const r = await runMkt(['offers', 'request', resolve(EXAMPLES, 'applicant.json'), '-o', 'json'], { env: mock.env });
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout) as { offers?: unknown[] };
    expect(body.offers?.length).toBeGreaterThan(0);
    expect(mock.app.ctx.world.offerRecords.size).toBe(1);
  });
});
