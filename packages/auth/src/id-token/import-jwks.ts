import { base64UrlDecode, importRsaPublicKey, type PublicKey } from '../platform/runtime-crypto.js';

/** A key set imported into public keys (`KeyObject`s on Node, `CryptoKey`s elsewhere), by `kid`. */
export interface ImportedKey {
  readonly key: PublicKey;
  /** `n.e` of the JWK, so an unchanged key keeps its imported key across refreshes. */
  readonly fingerprint: string;
}

/** RSA keys shorter than this are ignored. */
const MIN_MODULUS_BITS = 2048;

/** The bit length of a base64url big-endian modulus, read from its bytes the same way on every runtime. */
function modulusBits(n: string): number {
  const bytes = base64UrlDecode(n);
  let first = 0;
  while (first < bytes.length && bytes[first] === 0) first++;
  if (first === bytes.length) return 0;
  return (bytes.length - first - 1) * 8 + (32 - Math.clz32(bytes[first]!));
}

/**
 * Imports the RS256-capable keys of a JWKS document: RSA keys with `use` `sig` (or none), `alg`
 * `RS256` (or none), a `kid`, and a modulus of at least 2048 bits. Other keys are skipped; a
 * document that is not a key set, or holds no usable key, rejects (the caller treats that as the
 * provider being unavailable, never as a bad token). Asynchronous because Web Crypto imports
 * keys asynchronously; it runs once per key set fetch, never per token.
 *
 * `previous` lets an unchanged key keep its imported key, which the repeat-token cache compares.
 */
export async function importJwks(
  document: unknown,
  previous?: ReadonlyMap<string, ImportedKey>,
): Promise<Map<string, ImportedKey>> {
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
    if (!BASE64URL.test(n) || !BASE64URL.test(e) || modulusBits(n) < MIN_MODULUS_BITS) continue;
    const fingerprint = `${n}.${e}`;
    const old = previous?.get(kid);
    if (old?.fingerprint === fingerprint) {
      keys.set(kid, old);
      continue;
    }
    try {
      keys.set(kid, { key: await importRsaPublicKey(n, e), fingerprint });
    } catch {
      // not a valid RSA public key: skip it, like any other unusable entry
    }
  }
  if (keys.size === 0) throw new Error('JWKS holds no usable RS256 key');
  return keys;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
