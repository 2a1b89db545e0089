/**
 * @module credentials/oid4vci/oauth-error
 * The error of the wallet endpoints: OAuth 2.0 / OpenID4VCI bodies
 * `{error, error_description}` instead of the platform's JSON error format.
 */

/** The statuses of OAuth errors: a bad request, or a missing or unknown access token. */
export type OAuthErrorStatus = 400 | 401;

export class OAuthError extends Error {
  constructor(
    readonly status: OAuthErrorStatus,
    readonly error: string,
    readonly description: string,
    /** Extra members, e.g. a fresh `c_nonce` with `invalid_nonce`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  toJSON() {
    return { ...this.extra, error: this.error, error_description: this.description };
  }
}

export const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);
export const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description);
export const invalidProof = (description: string) => new OAuthError(400, 'invalid_proof', description);
export const invalidToken = (description: string) => new OAuthError(401, 'invalid_token', description);
