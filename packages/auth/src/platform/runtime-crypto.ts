// The crypto the core needs, on Node: `node:crypto` and `Buffer`, synchronous where Node allows.
// The Web Crypto twin, `runtime-crypto.web.ts`, has the same exports; the package's web build
// (for workerd, browsers, Deno and Bun) swaps it in for this file (see tsup.config.ts), so no
// other file of the core imports `node:crypto` or uses `Buffer`.
import { isUtf8 } from 'node:buffer';
import type { JwsAlgorithm, PublicJwkMembers } from '../id-token/jws-algorithms.js';
import { constants, createPublicKey, hash, randomBytes as nodeRandomBytes, verify, type KeyObject } from 'node:crypto';
import type { PublicKey } from './public-key.js';

export type { PublicKey } from './public-key.js';

/** `size` bytes from the CSPRNG. */
export function randomBytes(size: number): Uint8Array {
  return nodeRandomBytes(size);
}

/** Lowercase hex SHA-256 of the UTF-8 encoding of `text`. */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** Unpadded base64url of `bytes`. */
export function base64UrlEncode(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/** The bytes of a base64url string (the caller has checked its alphabet). */
export function base64UrlDecode(text: string): Uint8Array {
  return Buffer.from(text, 'base64url');
}

/**
 * Room for what one token's checks write (at most 16 KiB of characters, `MAX_TOKEN_LENGTH`: its
 * ASCII signing input and the bytes of its signature, or the bytes of one part): a part or a
 * signature that does not fit gets a buffer of its own.
 */
const SCRATCH_BYTES = 16 * 1024;
/**
 * Where a token's text and its synchronous signature check are decoded, instead of two or three
 * fresh buffers per token (on Node small ones come from a shared pool, whose every new slab is
 * work for the garbage collector). Only ever read before the function that wrote it returns.
 */
let scratch: Buffer | undefined;

/** The scratch buffer, made on first use. */
function scratchBuffer(): Buffer {
  scratch ??= Buffer.allocUnsafeSlow(SCRATCH_BYTES);
  return scratch;
}

/**
 * The UTF-8 text held in a base64url string (the caller has checked its alphabet). Decoded
 * fatally: bytes that are not UTF-8 throw rather than turn into U+FFFD (so two byte strings never
 * decode to one text), and a leading byte-order mark is kept as U+FEFF, as in the web build.
 * `isUtf8` is Node's SIMD validator: far cheaper than the RSA check that follows it.
 */
export function base64UrlDecodeText(text: string): string {
  if (text.length > SCRATCH_BYTES) {
    const bytes = Buffer.from(text, 'base64url');
    if (!isUtf8(bytes)) throw new TypeError('not UTF-8');
    return bytes.toString('utf8');
  }
  const buffer = scratchBuffer();
  const length = buffer.write(text, 0, 'base64url');
  if (!isUtf8(buffer.subarray(0, length))) throw new TypeError('not UTF-8');
  return buffer.toString('utf8', 0, length);
}

/**
 * Imports the public key of a JWK (its public members only) for `alg`; rejects when they are not
 * one, e.g. an EC point off its curve. On Node one `KeyObject` serves every algorithm of its type.
 */
export async function importPublicJwk(jwk: PublicJwkMembers, _alg: JwsAlgorithm): Promise<PublicKey> {
  return createPublicKey({ key: { ...jwk }, format: 'jwk' });
}

/** `node:crypto`'s digest and key options for each JWS algorithm (PSS salt = digest length, RFC 7518 3.5). */
const NODE_JWS: Readonly<Record<JwsAlgorithm, { readonly digest: string | null; readonly options: object | undefined }>> = {
  RS256: { digest: 'RSA-SHA256', options: undefined },
  RS384: { digest: 'RSA-SHA384', options: undefined },
  RS512: { digest: 'RSA-SHA512', options: undefined },
  PS256: { digest: 'sha256', options: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } },
  PS384: { digest: 'sha384', options: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 48 } },
  PS512: { digest: 'sha512', options: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 } },
  ES256: { digest: 'sha256', options: { dsaEncoding: 'ieee-p1363' } },
  ES384: { digest: 'sha384', options: { dsaEncoding: 'ieee-p1363' } },
  EdDSA: { digest: null, options: undefined },
};

/**
 * Checks a JWS signature under `alg` over `signingInput` (the token's `<header>.<payload>`,
 * ASCII) given as base64url. ECDSA signatures are the raw `r || s` of JWS, never DER.
 *
 * `offload` picks the strategy. A lone verification runs synchronously: an RSA-2048 public-key
 * operation takes tens of microseconds, less than the round trip to a worker thread. When other
 * verifications are in flight, the callback form runs it on libuv's thread pool, so several
 * cores share the work while the event loop stays free.
 *
 * Never throws: a signature the library cannot even process is simply not valid.
 */
export function verifyJws(
  alg: JwsAlgorithm,
  key: PublicKey,
  signingInput: string,
  signature: string,
  offload: boolean,
): boolean | Promise<boolean> {
  const { digest, options } = NODE_JWS[alg];
  const nodeKey = key as KeyObject;
  const keyWithOptions = (options === undefined ? nodeKey : { key: nodeKey, ...options }) as KeyObject;
  if (!offload) {
    try {
      // The signing input (ASCII: one byte a character) and the signature's bytes (fewer than its
      // characters) side by side in the scratch buffer, read by `verify` before it returns.
      if (signingInput.length + signature.length > SCRATCH_BYTES) {
        return verify(digest, Buffer.from(signingInput, 'latin1'), keyWithOptions, Buffer.from(signature, 'base64url'));
      }
      const buffer = scratchBuffer();
      const inputLength = buffer.write(signingInput, 0, 'latin1');
      const signatureLength = buffer.write(signature, inputLength, 'base64url');
      return verify(digest, buffer.subarray(0, inputLength), keyWithOptions, buffer.subarray(inputLength, inputLength + signatureLength));
    } catch {
      return false;
    }
  }
  // On the thread pool: buffers of its own (Node copies them anyway), never the scratch buffer.
  const input = Buffer.from(signingInput, 'latin1');
  const signatureBytes = Buffer.from(signature, 'base64url');
  return new Promise((resolve) => {
    try {
      verify(digest, input, keyWithOptions, signatureBytes, (error, valid) => resolve(!error && valid));
    } catch {
      resolve(false);
    }
  });
}

/**
 * Imports an ECDSA P-256 public key from its DER SubjectPublicKeyInfo; rejects when the bytes are
 * not one, or hold a key of another type or curve.
 */
export async function importEcdsaP256PublicKey(spki: Uint8Array): Promise<PublicKey> {
  const key = createPublicKey({ key: Buffer.from(spki.buffer, spki.byteOffset, spki.byteLength), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('not an ECDSA P-256 public key');
  }
  return key;
}

/**
 * Checks an ECDSA P-256 SHA-256 signature over `data`, given as the raw `r || s` (64 bytes, see
 * `ecdsaP256DerToRaw`). Synchronous: one verification takes well under a millisecond and runs
 * once per signed request. Never throws: a signature the library cannot process is not valid.
 */
export function verifyEcdsaP256Sha256(key: PublicKey, data: Uint8Array, signature: Uint8Array): boolean | Promise<boolean> {
  try {
    return verify('sha256', data, { key: key as KeyObject, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}
