import type { PublicKey } from '../platform/runtime-crypto.js';
import type { JwsAlgorithm } from './jws-algorithms.js';

/**
 * Where the verifier finds a token's key: a {@link RemoteKeySet} (a JWKS URL) or a
 * `DiscoveredKeySet` (a JWKS found through OpenID Connect discovery, built by `oidc()`'s discovery).
 */
export interface KeySource {
  /** The key for `kid` and `alg` if it is at hand right now; otherwise `undefined` (use `getKey`). */
  peek(kid: string, alg: JwsAlgorithm): PublicKey | undefined;
  /**
   * The key for `kid` imported for `alg`: `UnauthenticatedError('invalid_token')` for a key the
   * provider does not publish for it, `UnavailableError('identity_provider')` when it cannot be had.
   */
  getKey(kid: string, alg: JwsAlgorithm): PublicKey | Promise<PublicKey>;
  /** Fetches now; rejects with `UnavailableError('identity_provider')` if that fails. */
  refresh(): Promise<void>;
}
