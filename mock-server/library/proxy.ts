/**
 * What `mkt mock proxy` starts, alone: the validating proxy, without the mock's world, routes or server
 * (server.ts), so that a proxy loads only what it runs. Not in package.json's `exports`, as server.ts.
 */
export { parseUpstream, startProxy } from '../proxy/proxy-server.js';
