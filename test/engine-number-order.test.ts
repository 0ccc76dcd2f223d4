/**
 * The hourly tick ends the listings due in an hour in listing number order (their loans, notes and refunds are
 * numbered and posted in that order: engine/market.ts). In a world whose listing numbers ascend with its rows (the
 * seeded and arrived listings: the listing table's `ascending`, kept by world.ts `addListing`) it sorts their rows
 * without reading a number; a listing added with a lower number of its own turns that off, and the numbers are read.
 */
import { afterEach, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { parseState, serializeState } from '../mock-server/world/persistence.js';
import { call, makeApp } from './engine-fixture.js';

const apps: MockApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close?.();
});
const app = (): MockApp => {
  const made = makeApp({ listings: 600, releases: 'steady' });
  apps.push(made);
  return made;
};
const stateText = (a: MockApp): string => {
  a.ctx.engine.settle();
  return serializeState(a.ctx.world, a.ctx.clock.now());
};

test('a seeded world, moved, keeps its listings in number order by row; one added with a lower number of its own turns that off', async () => {
  const a = app();
  expect(a.ctx.world.listingTable.ascending).toBe(true);
  expect((await call(a, 'POST', '/__mock/clock', { body: { advance: '3d' } })).status).toBe(200);
  expect(a.ctx.world.listings.length).toBeGreaterThan(600);
  expect(a.ctx.world.listingTable.ascending).toBe(true);
  // Numbers ascend with the rows indeed: the flag says what the world holds.
  const numbers = a.ctx.world.listings.map((l) => l.listing_number);
  expect(numbers.every((n, i) => i === 0 || n > numbers[i - 1]!)).toBe(true);
  // The next number is still in order; a number below the last one is not.
  expect((await call(a, 'POST', '/__mock/listings', { body: {} })).status).toBe(201);
  expect(a.ctx.world.listingTable.ascending).toBe(true);
  // A world read back from its state file works it out again from its rows: in order still, then not.
  expect(parseState(stateText(a)).world.listingTable.ascending).toBe(true);
  expect((await call(a, 'POST', '/__mock/listings', { body: { listing_number: 5 } })).status).toBe(201);
  expect(a.ctx.world.listingTable.ascending).toBe(false);
  expect(parseState(stateText(a)).world.listingTable.ascending).toBe(false);
});

test("ending an hour's listings by their rows gives the world reading their numbers gives", async () => {
  const [fast, read] = [app(), app()];
  // The same world told its rows are not in number order: every tick reads the numbers of the listings it ends.
  read.ctx.world.listingTable.ascending = false;
  for (const a of [fast, read]) expect((await call(a, 'POST', '/__mock/clock', { body: { advance: '16d' } })).status).toBe(200);
  // Every seeded listing ended in those 16 days, many in the same hour as others, and the loans came out numbered alike.
  expect(fast.ctx.world.loans.size).toBeGreaterThan(300);
  expect(stateText(fast)).toBe(stateText(read));
});
