import type { JwksKeySkipReason } from '../diagnostics/diagnostics-messages.js';
import { base64UrlDecode } from '../platform/runtime-crypto.js';
import { hasRocaFingerprint } from './roca-fingerprint.js';

/** RSA keys shorter than this are never trusted. */
const MIN_MODULUS_BITS = 2048;

/** A big-endian unsigned integer without its leading zero bytes. */
function withoutLeadingZeros(bytes: Uint8Array): Uint8Array {
  let first = 0;
  while (first < bytes.length && bytes[first] === 0) first++;
  return bytes.subarray(first);
}

/** The bit length of a big-endian modulus, read from its bytes the same way on every runtime. */
function bitLength(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  return (bytes.length - 1) * 8 + (32 - Math.clz32(bytes[0]!));
}

/** Whether a big-endian exponent is exactly 65537 (0x010001). */
function isF4(bytes: Uint8Array): boolean {
  return bytes.length === 3 && bytes[0] === 1 && bytes[1] === 0 && bytes[2] === 1;
}

/**
 * Why an RSA key (its base64url `n` and `e`, alphabet already checked) must never be trusted, or
 * `undefined`: a modulus under 2048 bits, an exponent other than 65537 (e=1 makes every "signature"
 * its own message representative, so anyone can forge; even or tiny exponents are no RSA key a
 * provider generates), or a modulus with the ROCA fingerprint (its private key can be computed).
 */
export function untrustedRsaKeyReason(n: string, e: string): JwksKeySkipReason | undefined {
  const modulus = withoutLeadingZeros(base64UrlDecode(n));
  if (bitLength(modulus) < MIN_MODULUS_BITS) return 'weak_rsa_modulus';
  if (!isF4(withoutLeadingZeros(base64UrlDecode(e)))) return 'weak_rsa_exponent';
  if (hasRocaFingerprint(modulus)) return 'roca_modulus';
  return undefined;
}

/**
 * Why a JWK must never verify a signature, from the fields every key type shares, or `undefined`:
 * `use` present and not `sig`, or `key_ops` present without `verify` (RFC 7517 4.2, 4.3: a key
 * declared for encryption only is not a signing key, whatever else it could do).
 */
export function untrustedUsageReason(jwk: Readonly<Record<string, unknown>>): JwksKeySkipReason | undefined {
  if (jwk.use !== undefined && jwk.use !== 'sig') return 'not_for_signatures';
  const ops = jwk.key_ops;
  if (ops !== undefined && !(Array.isArray(ops) && ops.includes('verify'))) return 'not_for_verification';
  return undefined;
}
