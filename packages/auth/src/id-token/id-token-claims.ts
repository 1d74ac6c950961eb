/** The claims of a verified ID token. */
export interface IdTokenClaims {
  /** The user: 1 to 128 characters. By default the account id. */
  readonly sub: string;
  readonly iss: string;
  readonly aud: string | readonly string[];
  /** Issued at, seconds since the epoch. */
  readonly iat: number;
  /** Expires at, seconds since the epoch. */
  readonly exp: number;
  readonly auth_time?: number;
  readonly nbf?: number;
  readonly email?: string;
  readonly firebase?: { readonly sign_in_provider?: string; readonly [claim: string]: unknown };
  readonly [claim: string]: unknown;
}

/**
 * Verifies ID tokens. Create one with `createIdTokenVerifier`.
 *
 * `verify` resolves the token's claims, or rejects with `UnauthenticatedError` (a bad, expired or
 * foreign token) or `UnavailableError` (the identity provider's key set cannot be had).
 */
export interface IdTokenVerifier {
  verify(token: string): Promise<IdTokenClaims>;
  /** Fetches the key set now, so the first request does not wait for it. */
  warmUp(): Promise<void>;
}
