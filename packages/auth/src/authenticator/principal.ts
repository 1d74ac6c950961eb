import type { IdTokenClaims } from '../id-token/id-token-claims.js';

/** The two kinds of credential. */
export type CredentialType = 'api_key' | 'id_token';

/** Every credential type, the default of what a route accepts. */
export const ALL_CREDENTIAL_TYPES: readonly CredentialType[] = Object.freeze(['api_key', 'id_token']);

/**
 * Who made a request, once authenticated.
 *
 * - `credential: 'api_key'`: `keyId` is the key's id (safe to log); `expiresAt` is set when the key
 *   expires (absent for a key that never does): adapters answer `Drops-Key-Expiration` from it.
 * - `credential: 'id_token'`: `claims` are the verified ID token's claims.
 */
export type Principal =
  | {
      readonly accountId: string;
      readonly credential: 'api_key';
      readonly keyId: string;
      readonly claims?: undefined;
      readonly expiresAt?: Date;
    }
  | {
      readonly accountId: string;
      readonly credential: 'id_token';
      readonly claims: IdTokenClaims;
      readonly keyId?: undefined;
      readonly expiresAt?: undefined;
    };
