/**
 * `mkt/mock`: the marketplace as a library for msw's setupServer (Node) and setupWorker (a browser). The
 * browser build (dist/browser/mock.js) is this entry; Node's (node.ts) adds `serve`.
 */
export {
  createMarketplace,
  DEFAULT_START,
  MarketplaceError,
  type HandlerOptions,
  type Marketplace,
  type MarketplaceOptions,
  type MarketplaceUser,
  type TokenOptions,
} from './marketplace.js';
export type { FaultConfig } from '../http/faults.js';
export type { OutboxMessage, RequestLogEntry } from '../../src/contract/mock-inspect.js';
export type { SnapshotEntry, SnapshotLoaded } from '../../src/contract/mock-snapshots.js';
export type { NoteAnswerFields } from '../../src/contract/resources.js';
export type { RateLimitState } from '../http/rate-limit.js';
