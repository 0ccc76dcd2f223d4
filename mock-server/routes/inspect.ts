/**
 * Admin routes to inspect what the mock saw and sent (who may call them: admin-access.ts): the request
 * request log (GET/DELETE /__mock/requests) and the notifications outbox (GET/DELETE /__mock/outbox),
 * lists in the list envelope, newest first.
 */
import { formatDateTime } from '../../src/contract/dates.js';
import { INSPECT_PAGE, type OutboxMessage } from '../../src/contract/mock-inspect.js';
import { validationError } from '../kit/api-error.js';
import type { MockContext } from '../context.js';
import type { RequestLog } from '../request-log/request-log.js';
import type { Message } from '../world/world.js';
import { http, listEnvelope, paged, route } from '../route-helper/route.js';

/** `since`: a whole number 0 or more, or absent. */
export function readSince(params: URLSearchParams): number | undefined {
  const text = params.get('since');
  if (text === null) return undefined;
  if (!/^\d{1,15}$/.test(text.trim())) throw validationError('since', `must be a request id (a whole number 0 or more), got '${text}'`);
  return Number(text);
}

/**
 * `violations`: true, false or absent. Only a proxy's entries have violations (proxy/), so on a mock
 * `true` keeps none: the same question has the same answer wherever it is asked.
 */
export function readViolationsFilter(params: URLSearchParams): boolean {
  const text = params.get('violations');
  if (text === null || text === 'false') return false;
  if (text === 'true') return true;
  throw validationError('violations', `must be true or false, got '${text}'`);
}

/** A message as the outbox route answers it (and the dashboard shows it: routes/dashboard.ts). */
export function messageView(m: Message): OutboxMessage {
  return { ...m, sent_at: formatDateTime(m.sent_at) };
}

/** The inspection handlers over `ctx` and the app's `request log`. */
export function inspectHandlers(ctx: MockContext, requestLog: RequestLog) {
  return [
    // The request log is no part of the world: reading or clearing it changes nothing the state file keeps.
    http.get(
      '*/__mock/requests',
      route(
        ctx,
        ({ url, page }) => {
          const since = readSince(url.searchParams);
          const onlyViolations = readViolationsFilter(url.searchParams);
          const { offset, limit } = page();
          const { result, total } = onlyViolations
            ? requestLog.listViolations(limit, since, offset)
            : requestLog.list(limit, since, offset);
          return listEnvelope(result, total);
        },
        { list: INSPECT_PAGE },
      ),
    ),
    http.delete(
      '*/__mock/requests',
      route(ctx, () => ({ cleared: requestLog.clear() }), { writes: false }),
    ),
    http.get(
      '*/__mock/outbox',
      route(
        ctx,
        ({ url, page }) => {
          const to = url.searchParams.get('to')?.trim().toLowerCase();
          const orderId = url.searchParams.get('order_id')?.trim().toLowerCase();
          const newestFirst: Message[] = [];
          const messages = ctx.world.outbox.messages;
          for (let i = messages.length - 1; i >= 0; i--) {
            const m = messages[i]!;
            if ((to === undefined || m.to.toLowerCase() === to) && (orderId === undefined || m.order_id === orderId)) newestFirst.push(m);
          }
          return paged(newestFirst, page(), messageView);
        },
        { list: INSPECT_PAGE, sync: true },
      ),
    ),
    http.delete(
      '*/__mock/outbox',
      route(ctx, () => ({ cleared: ctx.perform({ kind: 'outbox-clear' }) })),
    ),
  ];
}
