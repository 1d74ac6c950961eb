import { createPublicKey, type KeyObject } from 'node:crypto';

/** A key set imported into Node `KeyObject`s, by `kid`. */
export interface ImportedKey {
  readonly key: KeyObject;
  /** `n.e` of the JWK, so an unchanged key keeps its `KeyObject` across refreshes. */
  readonly fingerprint: string;
}

/** RSA keys shorter than this are ignored. */
const MIN_MODULUS_BITS = 2048;

/**
 * Imports the RS256-capable keys of a JWKS document: RSA keys with `use` `sig` (or none), `alg`
 * `RS256` (or none), a `kid`, and a modulus of at least 2048 bits. Other keys are skipped; a
 * document that is not a key set, or holds no usable key, throws (the caller treats that as the
 * provider being unavailable, never as a bad token).
 *
 * `previous` lets an unchanged key keep its `KeyObject`, which the repeat-token cache compares.
 */
export function importJwks(
  document: unknown,
  previous?: ReadonlyMap<string, ImportedKey>,
): Map<string, ImportedKey> {
  const list = (document as { keys?: unknown } | null)?.keys;
  if (typeof document !== 'object' || document === null || !Array.isArray(list)) {
    throw new Error('JWKS document has no "keys" array');
  }
  const keys = new Map<string, ImportedKey>();
  for (const jwk of list as unknown[]) {
    if (typeof jwk !== 'object' || jwk === null) continue;
    const { kty, use, alg, kid, n, e } = jwk as Record<string, unknown>;
    if (kty !== 'RSA' || (use !== undefined && use !== 'sig')) continue;
    if (alg !== undefined && alg !== 'RS256') continue;
    if (typeof kid !== 'string' || kid.length === 0 || typeof n !== 'string' || typeof e !== 'string') continue;
    if (keys.has(kid)) continue; // a duplicated kid: the first one wins, as in jose
    const fingerprint = `${n}.${e}`;
    const old = previous?.get(kid);
    if (old?.fingerprint === fingerprint) {
      keys.set(kid, old);
      continue;
    }
    try {
      const key = createPublicKey({ key: { kty: 'RSA', n, e }, format: 'jwk' });
      if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_MODULUS_BITS) continue;
      keys.set(kid, { key, fingerprint });
    } catch {
      // not a valid RSA public key: skip it, like any other unusable entry
    }
  }
  if (keys.size === 0) throw new Error('JWKS holds no usable RS256 key');
  return keys;
}
