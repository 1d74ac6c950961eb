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
 * An ECDSA signature in DER (`SEQUENCE { INTEGER r, INTEGER s }`) as the raw `r || s` of
 * `2 * scalarBytes` bytes that Web Crypto and JWS take (IEEE P1363): 32 for P-256, 48 for P-384.
 * `undefined` for anything but one strict DER encoding: extra bytes, long-form lengths, negative
 * or non-minimal integers, values too large.
 *
 * @example
 * ```ts
 * ecdsaDerToRaw(der, 48); // Uint8Array(96) or undefined
 * ```
 */
export function ecdsaDerToRaw(der: Uint8Array, scalarBytes: number): Uint8Array | undefined {
  // The sequence holds at most 2 * (2 + scalarBytes + 1) bytes, under 128 up to P-384: its length
  // is always the short form.
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2) return undefined;
  const r = readInteger(der, 2, scalarBytes);
  if (r === undefined) return undefined;
  const s = readInteger(der, r.next, scalarBytes);
  if (s === undefined || s.next !== der.length) return undefined;
  const raw = new Uint8Array(2 * scalarBytes);
  raw.set(r.value, scalarBytes - r.value.length);
  raw.set(s.value, 2 * scalarBytes - s.value.length);
  return raw;
}

/**
 * An ECDSA P-256 signature in DER (what GitHub and OpenSSL send) as the raw `r || s` of 64 bytes
 * that Web Crypto verifies: {@link ecdsaDerToRaw} with 32-byte scalars. Both platform modules
 * verify through it, so Node and Web Crypto accept exactly the same signatures.
 *
 * @example
 * ```ts
 * ecdsaP256DerToRaw(der); // Uint8Array(64) or undefined
 * ```
 */
export function ecdsaP256DerToRaw(der: Uint8Array): Uint8Array | undefined {
  return ecdsaDerToRaw(der, P256_SCALAR_BYTES);
}
