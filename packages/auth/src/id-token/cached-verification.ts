import type { IdTokenClaims, IdTokenVerifier } from './id-token-claims.js';

/**
 * A repeated token answered at once: its claims when the verifier has it verified and cached, its
 * time claims still hold and its key is still the key set's; else `undefined`, and `verify()`
 * decides (an expired token, a rotated key, a first sight). Never throws.
 * @internal
 */
export type CachedVerification = (token: string) => IdTokenClaims | undefined;

/** Under a `Symbol.for`, the same in every copy of `@drops/auth`; a verifier written by hand has none. */
const CACHED_VERIFICATION = Symbol.for('@drops/auth.cached-verification');

/** Attaches `verifyCached` to a verifier `createIdTokenVerifier` built. @internal */
export function withCachedVerification(verifier: IdTokenVerifier, verifyCached: CachedVerification): IdTokenVerifier {
  return Object.defineProperty(verifier, CACHED_VERIFICATION, { value: verifyCached });
}

/**
 * The verifier's {@link CachedVerification}, if it has one of its own: an object inheriting from
 * a verifier (to override `verify`, say) is asked through its `verify`, every time.
 * @internal
 */
export function cachedVerificationOf(verifier: IdTokenVerifier): CachedVerification | undefined {
  if (!Object.hasOwn(verifier, CACHED_VERIFICATION)) return undefined;
  const found = (verifier as { [CACHED_VERIFICATION]?: unknown })[CACHED_VERIFICATION];
  return typeof found === 'function' ? (found as CachedVerification) : undefined;
}
