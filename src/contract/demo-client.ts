/**
 * The bundled mock's demo OAuth client (DESIGN.md): seeded by the mock, the CLI's default client,
 * and the one whose published secret `mkt login` may use against a loopback marketplace. Not a secret.
 */

/** The demo client: id, published secret and default redirect. */
export const DEMO_CLIENT = { clientId: 'mkt-demo', secret: 'mkt-demo-secret', redirectUri: 'http://localhost:8765/callback' } as const;
