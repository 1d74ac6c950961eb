/** Bytes of each of `r` and `s` in a P-256 signature. */
const P256_SCALAR_BYTES = 32;

/**
 * One DER INTEGER at `at` of `der`, as its unsigned big-endian value without leading zero
 * bytes; `undefined` unless it is a minimal, positive encoding of at most `size` bytes.
 */
function readInteger(der: Uint8Array, at: number, size: number): { value: Uint8Array; next: number } | undefined {
  if (der[at] !== 0x02) return undefined;
  const length = der[at + 1];
  if (length === undefined || length === 0 || length >= 0x80 || at + 2 + length > der.length) return undefined;
  let start = at + 2;
  const end = start + length;
  if ((der[start]! & 0x80) !== 0) return undefined; // negative
  if (der[start] === 0 && length > 1) {
    if ((der[start + 1]! & 0x80) === 0) return undefined; // a leading zero that was not needed
    start++;
  }
  if (end - start > size) return undefined;
  return { value: der.subarray(start, end), next: end };
}

/**
 * An ECDSA P-256 signature in DER (`SEQUENCE { INTEGER r, INTEGER s }`, what GitHub and OpenSSL
 * send) as the raw `r || s` of 64 bytes that Web Crypto verifies (IEEE P1363). `undefined` for
 * anything but one strict DER encoding: extra bytes, long-form lengths, negative or non-minimal
 * integers, values too large. Both platform modules verify through it, so Node and Web Crypto
 * accept exactly the same signatures.
 *
 * @example
 * ```ts
 * ecdsaP256DerToRaw(der); // Uint8Array(64) or undefined
 * ```
 */
export function ecdsaP256DerToRaw(der: Uint8Array): Uint8Array | undefined {
  // The sequence holds at most 2 * (2 + 33) = 70 bytes: its length is always the short form.
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2) return undefined;
  const r = readInteger(der, 2, P256_SCALAR_BYTES);
  if (r === undefined) return undefined;
  const s = readInteger(der, r.next, P256_SCALAR_BYTES);
  if (s === undefined || s.next !== der.length) return undefined;
  const raw = new Uint8Array(2 * P256_SCALAR_BYTES);
  raw.set(r.value, P256_SCALAR_BYTES - r.value.length);
  raw.set(s.value, 2 * P256_SCALAR_BYTES - s.value.length);
  return raw;
}
