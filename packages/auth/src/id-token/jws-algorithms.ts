/**
 * The JWS algorithms an ID token verifier can be given (`algorithms`): RSA, RSA-PSS, ECDSA, Ed25519.
 * The default is `['RS256']` alone.
 *
 * @example
 * ```ts
 * createIdTokenVerifier({ issuer, audience, jwksUrl, algorithms: ['RS256', 'ES256'] });
 * JWS_ALGORITHMS.includes('PS256'); // true
 * ```
 */
export const JWS_ALGORITHMS = Object.freeze(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'EdDSA'] as const);

/** One of {@link JWS_ALGORITHMS}. `EdDSA` means Ed25519. */
export type JwsAlgorithm = (typeof JWS_ALGORITHMS)[number];

/** The public members of a JWK the platform imports, nothing else (no `alg`, `use`, `key_ops`). */
export interface PublicJwkMembers {
  readonly kty: 'RSA' | 'EC' | 'OKP';
  readonly n?: string;
  readonly e?: string;
  readonly crv?: string;
  readonly x?: string;
  readonly y?: string;
}

const RSA_ALGORITHMS: readonly JwsAlgorithm[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
/** The one algorithm of each curve: a key is usable only for its own (kty, crv and alg agree). */
const CURVE_ALGORITHM: Readonly<Record<string, JwsAlgorithm>> = { 'EC.P-256': 'ES256', 'EC.P-384': 'ES384', 'OKP.Ed25519': 'EdDSA' };

/**
 * The algorithms, among `allowed`, a JWK may verify: an RSA key every RSA algorithm allowed (or
 * only its `alg`), an EC or OKP key only its curve's one (ES256 for P-256, ES384 for P-384, EdDSA
 * for Ed25519), and only if its `alg`, when present, names that one too. Empty when none.
 */
export function algorithmsOfJwk(jwk: Readonly<Record<string, unknown>>, allowed: readonly JwsAlgorithm[]): JwsAlgorithm[] {
  const { kty, crv, alg } = jwk;
  const own = kty === 'RSA' ? RSA_ALGORITHMS : [CURVE_ALGORITHM[`${String(kty)}.${String(crv)}`]];
  return own.filter((a): a is JwsAlgorithm => a !== undefined && allowed.includes(a) && (alg === undefined || alg === a));
}
