export type { IdTokenClaims, IdTokenVerifier } from './id-token-claims.js';
export { createIdTokenVerifier } from './create-id-token-verifier.js';
export type { IdTokenVerifierOptions } from './id-token-verifier-options.js';
export { firebase, FIREBASE_JWKS_URL, oidc, type IdentityProviderSettings, type OidcProviderSettings } from './presets.js';
export type { OidcDiscovery } from './oidc-discovery.js';
export { identityProviderFromEnv, type IdentityProviderEnv } from './identity-provider-from-env.js';
export { MAX_TOKEN_LENGTH } from './decode-compact-jwt.js';
export { MAX_TOKEN_LIFETIME_SECONDS } from './verify-claims.js';
export { JWS_ALGORITHMS, type JwsAlgorithm } from './jws-algorithms.js';
