/**
 * The token endpoint, POST {base_url}/security/oauth/token (form-urlencoded): the authorization_key
 * and refresh_token grants. Failures become TokenError with the OAuth code: exit 3 for refused
 * credentials (invalid_client, invalid_authkey, invalid_grant, unauthorized), exit 2 for a
 * malformed request (invalid_request, unsupported_grant_type), exit 5 for a server fault.
 */
import type { HttpClient } from '../api/http.js';
import { AUTH_ERRORS } from '../contract/errors.js';
import type { Token } from '../contract/resources.js';
import { CliError, EXIT } from '../errors.js';

/** The token endpoint's answer (the contract's Token). */
export type TokenResponse = Token;

/** A refusal by the token endpoint. */
export class TokenError extends CliError {
  constructor(
    message: string,
    exitCode: number,
    readonly status: number,
    readonly code: string | undefined,
    hint?: string,
  ) {
    super(message, exitCode, hint);
  }
}

const REQUEST_CODES = new Set(['invalid_request', 'unsupported_grant_type']);

function hintFor(code: string | undefined): string | undefined {
  if (code === 'invalid_client')
    return 'check client_id and the client secret (MKT_CLIENT_SECRET or --client-secret), then run `mkt login`';
  if (code === 'invalid_authkey' || code === 'unauthorized') return 'the auth key was replaced or revoked: run `mkt login`';
  if (code === 'invalid_grant') return 'run `mkt login`';
  return undefined;
}

/** Client credentials sent with every grant. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** Calls the token endpoint under `baseUrl`. */
export class TokenEndpoint {
  constructor(
    private readonly http: HttpClient,
    private readonly baseUrl: string,
  ) {}

  /** The token URL. */
  get url(): string {
    return `${this.baseUrl}/security/oauth/token`;
  }

  /** Exchanges an auth key for tokens. */
  exchangeKey(client: ClientCredentials, authKey: string): Promise<TokenResponse> {
    return this.grant({
      grant_type: 'authorization_key',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      auth_key: authKey,
    });
  }

  /** Gets a new access token with a refresh token. */
  refresh(client: ClientCredentials, refreshToken: string): Promise<TokenResponse> {
    return this.grant({
      grant_type: 'refresh_token',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      refresh_token: refreshToken,
    });
  }

  /** Posts one grant form as it is (the two helpers above build the valid ones). */
  async grant(form: Record<string, string>): Promise<TokenResponse> {
    const res = await this.http.send({ method: 'POST', url: this.url, form, group: 'oauth' });
    const body = (res.data && typeof res.data === 'object' ? res.data : {}) as Record<string, unknown>;
    if (res.status === 200 && typeof body.access_token === 'string' && typeof body.refresh_token === 'string') {
      return {
        access_token: body.access_token,
        token_type: String(body.token_type ?? 'bearer'),
        refresh_token: body.refresh_token,
        expires_in: Number(body.expires_in) || 0,
      };
    }
    const code = typeof body.error === 'string' ? body.error : undefined;
    const description = typeof body.error_description === 'string' ? body.error_description : code ? AUTH_ERRORS[code] : undefined;
    const detail =
      [code, description].filter(Boolean).join(': ') || (typeof res.data === 'string' ? res.data.slice(0, 200) : 'unexpected answer');
    const message = `token request (${form.grant_type}) failed (HTTP ${res.status}): ${detail}`;
    const exit =
      res.status >= 500 ? EXIT.UNREACHABLE : code && REQUEST_CODES.has(code) ? EXIT.USAGE : res.status === 200 ? EXIT.BUG : EXIT.AUTH;
    throw new TokenError(message, exit, res.status, code, hintFor(code));
  }
}
