/**
 * What the CLI checks of `mkt mock serve`'s and `mkt mock proxy`'s flags before it loads a mock, read by the
 * mock's own readers (so the CLI and the mock refuse the same things with the same words), and the error a
 * mock's setup throws on the user's input. An entry point: the CLI takes these from here, never from the
 * mock's rooms (test/import-cycles.test.ts). Light: no route, world or msw loads with it.
 */
export { MockSetupError } from './kit/setup-error.js';
export { parseBasePath } from './http/request-target.js';
export { readAllowedHost } from './http/host-check.js';
export { parseClientSpec } from './oauth/clients.js';
export { readWebhookUrl, webhookSecretProblem } from './webhooks/targets.js';
