/** Errors a handler answers with: an HTTP status and the JSON body the real API sends for it. */

/** A failure with the exact status and body to answer. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.message ?? body.error_description ?? body.error ?? status));
  }
}

/** 400 VAL0001 naming the bad parameter (listings, loans, accounts). */
export function validationError(param: string, problem: string): ApiError {
  return new ApiError(400, { code: 'VAL0001', message: `${param}: ${problem}` });
}

/** 401 invalid_token. */
export function invalidToken(description: string): ApiError {
  return new ApiError(
    401,
    { error: 'invalid_token', error_description: description },
    { 'www-authenticate': 'Bearer error="invalid_token"' },
  );
}
