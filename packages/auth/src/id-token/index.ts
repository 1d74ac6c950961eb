export type { IdTokenClaims, IdTokenVerifier } from './id-token-claims.js';
