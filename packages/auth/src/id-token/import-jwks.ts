import type { JwksKeySkipReason } from '../diagnostics/diagnostics-messages.js';
import { importRsaPublicKey, type PublicKey } from '../platform/runtime-crypto.js';
import { untrustedRsaKeyReason, untrustedUsageReason } from './untrusted-key-reason.js';

/** A key set imported into public keys (`KeyObject`s on Node, `CryptoKey`s elsewhere), by `kid`. */
export interface ImportedKey {
  readonly key: PublicKey;
  /** `n.e` of the JWK, so an unchanged key keeps its imported key across refreshes. */
  readonly fingerprint: string;
}

/** Told of each key left out of a key set, and why (see `JwksKeySkipReason`). */
export type OnKeySkipped = (kid: string, reason: JwksKeySkipReason) => void;

/**
 * Imports the RS256-capable keys of a JWKS document: RSA keys with `use` `sig` (or none),
 * `key_ops` holding `verify` (or none), `alg` `RS256` (or none), a `kid`, a modulus of at least
 * 2048 bits without the ROCA fingerprint, and the exponent 65537. Other keys are skipped (each one
 * told to `onSkipped`) and never stop the good keys beside them from working; a document that is
 * not a key set, or holds no usable key, rejects (the caller treats that as the provider being
 * unavailable, never as a bad token). Asynchronous because Web Crypto imports keys
 * asynchronously; it runs once per key set fetch, never per token.
 *
 * `previous` lets an unchanged key keep its imported key, which the repeat-token cache compares.
 */
export async function importJwks(
  document: unknown,
  previous?: ReadonlyMap<string, ImportedKey>,
  onSkipped: OnKeySkipped = () => {},
): Promise<Map<string, ImportedKey>> {
  const list = (document as { keys?: unknown } | null)?.keys;
  if (typeof document !== 'object' || document === null || !Array.isArray(list)) {
    throw new Error('JWKS document has no "keys" array');
  }
  const keys = new Map<string, ImportedKey>();
  for (const jwk of list as unknown[]) {
    if (typeof jwk !== 'object' || jwk === null) continue;
    const fields = jwk as Record<string, unknown>;
    const { kty, alg, kid, n, e } = fields;
    if (typeof kid !== 'string' || kid.length === 0) continue;
    if (keys.has(kid)) continue; // a duplicated kid: the first one wins, as in jose
    const usage = untrustedUsageReason(fields);
    if (usage !== undefined) {
      onSkipped(kid, usage);
      continue;
    }
    if (kty !== 'RSA' || (alg !== undefined && alg !== 'RS256')) {
      onSkipped(kid, 'unsupported');
      continue;
    }
    if (typeof n !== 'string' || typeof e !== 'string' || !BASE64URL.test(n) || !BASE64URL.test(e)) {
      onSkipped(kid, 'invalid_key');
      continue;
    }
    const fingerprint = `${n}.${e}`;
    const old = previous?.get(kid);
    if (old?.fingerprint === fingerprint) {
      keys.set(kid, old);
      continue;
    }
    const weakness = untrustedRsaKeyReason(n, e);
    if (weakness !== undefined) {
      onSkipped(kid, weakness);
      continue;
    }
    try {
      keys.set(kid, { key: await importRsaPublicKey(n, e), fingerprint });
    } catch {
      onSkipped(kid, 'invalid_key'); // not a valid RSA public key
    }
  }
  if (keys.size === 0) throw new Error('JWKS holds no usable RS256 key');
  return keys;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
