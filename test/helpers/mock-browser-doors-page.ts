/**
 * The page of the browser door's fixed walk (test/mock-browser.e2e.test.ts): the walk of door-walk.ts through
 * msw's setupWorker and the marketplace's handlers; the answers go to `window.answers`.
 */
import { setupWorker } from 'msw/browser';
import { createMarketplace } from '../../mock-server/library/index.js';
import { runWalk, WALK_WORLD, type WalkAnswer } from './door-walk.js';

const API = 'https://api.example.test';

async function walk(): Promise<WalkAnswer[]> {
  const market = createMarketplace(WALK_WORLD);
  await setupWorker(...market.handlers(API)).start({ quiet: true, onUnhandledRequest: 'bypass' });
  return runWalk((request) => fetch(request), API, await market.tokenFor('alice'));
}

walk().then(
  (answers) => {
    (window as unknown as { answers: WalkAnswer[] }).answers = answers;
    document.documentElement.dataset.done = 'yes';
  },
  (err: unknown) => {
    document.documentElement.dataset.error = err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err);
  },
);
