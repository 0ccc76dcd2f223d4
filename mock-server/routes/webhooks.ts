/**
 * GET /__mock/webhooks (who may call it: admin-access.ts): the deliveries of `mock serve --webhook`,
 * newest first, each with its attempts and state, and `counts` per state since the start (the dropped
 * ones no longer listed too: nothing is lost without a count). Without --webhook the list is empty.
 */
import { WEBHOOK_PAGE, WEBHOOK_STATES, type WebhookState } from '../../src/contract/mock-webhooks.js';
import { validationError } from '../kit/api-error.js';
import type { MockContext } from '../context.js';
import type { Webhooks } from '../webhooks/deliveries.js';
import { http, paged, route } from '../route-helper/route.js';

/** `state`: one of the states, or absent. */
function readState(params: URLSearchParams): WebhookState | undefined {
  const text = params.get('state');
  if (text === null) return undefined;
  const state = WEBHOOK_STATES.find((s) => s === text.trim().toLowerCase());
  if (!state) throw validationError('state', `must be one of ${WEBHOOK_STATES.join(', ')}, got '${text}'`);
  return state;
}

/** The webhooks handler over `ctx` and the app's deliveries (null without --webhook). */
export function webhookHandlers(ctx: MockContext, webhooks: Webhooks | null) {
  return [
    // Deliveries are no part of the world: reading them changes nothing the state keeps.
    http.get(
      '*/__mock/webhooks',
      route(
        ctx,
        ({ url, page }) => {
          const state = readState(url.searchParams);
          const counts = webhooks?.counts() ?? { pending: 0, delivered: 0, failed: 0, dropped: 0 };
          return { ...paged(webhooks?.list(state) ?? [], page()), counts };
        },
        { list: WEBHOOK_PAGE },
      ),
    ),
  ];
}
