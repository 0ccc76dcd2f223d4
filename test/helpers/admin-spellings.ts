/** Request targets that spell an admin path another way: each must meet the same access rule as /__mock/…. */
import { normaliseTarget } from '../../mock-server/http/request-target.js';

/** Every way of spelling an admin path that used to slip past the raw-target check. */
export const ADMIN_SPELLINGS = [
  '/__mock/state',
  '/v1/../__mock/state',
  '/./__mock/reset',
  '//x/__mock/state',
  '/__MOCK/reset',
  '/v1/%2e%2e/__mock/state',
  '/%2E%2E/__mock/clock',
  '/v1/%2e%2e/%2e%2e/__mock/faults',
  'http://LOCALHOST.:9/__mock/state',
  'HTTP://127.0.0.1/v1/../__mock/reset',
  '/\\__mock/state',
  '/%5F%5Fmock/state',
  '/v1/__mock/state',
  '/__mock/state/',
  '/__mock//state',
  '/__Mock/clock?x=1',
];

/**
 * What a caller with access gets for a spelling: the admin route's 200 where it normalises to
 * `/__mock/…` itself, the 404 naming its path where it has another prefix or case (strict routes).
 */
export function statusWithAccess(target: string): 200 | 404 {
  const t = normaliseTarget(target, 'http://x');
  return t.ok && t.url.pathname.startsWith('/__mock/') ? 200 : 404;
}
