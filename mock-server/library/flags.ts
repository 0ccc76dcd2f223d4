/**
 * What the CLI checks of `mkt mock serve`'s and `mkt mock proxy`'s flags before it loads a mock, read by the
 * mock's own readers (so the CLI and the mock refuse the same things with the same words), and the error a
 * mock's setup throws on the user's input. An entry point: the CLI takes these from here, never from the
 * mock's rooms (test/import-cycles.test.ts). Light: no route, world or msw loads with it.
 */

/** A start the user's options cannot meet (a torn state file, an unknown --auto-approve user): exit 2. */
export { MockSetupError } from '../kit/setup-error.js';
/** `--base-path`, normalised, or the problem. */
export { parseBasePath } from '../http/request-target.js';
/** `--allow-host`: a host name or address alone, or the problem. */
export { readAllowedHost } from '../http/host-check.js';
/** `--client ID:SECRET:REDIRECT`; throws naming what is wrong. */
export { parseClientSpec } from '../oauth/clients.js';
/** `--webhook URL` and the webhook secret, or the problem. */
export { readWebhookUrl, webhookSecretProblem } from '../webhooks/targets.js';
/** `--rate-limit off|on|N|GROUP=N,…`: the throttle's setting, or the problem. */
export { parseRateLimitSpec } from '../http/rate-limit.js';
