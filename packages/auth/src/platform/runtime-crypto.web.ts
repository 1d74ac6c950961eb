// The crypto the core needs, on Web Crypto alone (workerd without `nodejs_compat`, browsers,
// Deno, Bun): the twin of `runtime-crypto.ts`, with the same exports. The package's web build
// swaps it in (see tsup.config.ts).
import { sha256 } from '@noble/hashes/sha2.js';
import type { JwsAlgorithm, PublicJwkMembers } from '../id-token/jws-algorithms.js';

import type { PublicKey } from './public-key.js';

export type { PublicKey } from './public-key.js';

const RS256 = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
const P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const ES256 = { name: 'ECDSA', hash: 'SHA-256' } as const;
const encoder = new TextEncoder();
/** Fatal (invalid UTF-8 throws, never U+FFFD) and keeping a BOM as U+FEFF, as `runtime-crypto.ts` does. */
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** `size` bytes from the CSPRNG. */
export function randomBytes(size: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(size));
}

/**
 * Lowercase hex SHA-256 of the UTF-8 encoding of `text`.
 *
 * Synchronous, like Node's: `crypto.subtle.digest` only comes as a promise, which would make
 * the key id (and so `keyIdOf`, `generateApiKey` and the API key check) asynchronous on these
 * runtimes alone. An audited JS SHA-256 of a 46-byte secret costs about a microsecond.
 */
export function sha256Hex(text: string): string {
  const digest = sha256(encoder.encode(text));
  let hex = '';
  for (const byte of digest) hex += HEX[byte]!;
  return hex;
}

/** Unpadded base64url of `bytes`. */
export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** ES2026's `Uint8Array.fromBase64`, native in Bun, Deno, workerd and current browsers; looked up once. */
const fromBase64 = (
  Uint8Array as unknown as {
    fromBase64?: (text: string, options: { readonly alphabet: 'base64url' }) => Uint8Array<ArrayBuffer>;
  }
).fromBase64?.bind(Uint8Array);
const BASE64URL = { alphabet: 'base64url' } as const;

/**
 * The bytes of a base64url string (the caller has checked its alphabet). `Uint8Array.fromBase64`
 * where the runtime has it: for an ID token's signature it takes less than half the time of
 * `atob` with its alphabet swap and copy loop (about 1 µs less per token on workerd).
 */
export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> {
  if (fromBase64 !== undefined) return fromBase64(withoutDanglingChar(text), BASE64URL);
  return bytesOfBinary(binaryOf(text));
}

/**
 * The UTF-8 text held in a base64url string (the caller has checked its alphabet), decoded
 * fatally (invalid UTF-8 throws) with a leading byte-order mark kept as U+FEFF. Through
 * `atob`'s binary string, which is already the text when every byte is ASCII (as a JWT's JSON
 * almost always is): no byte array and no `TextDecoder` on the ID token path. A byte array costs
 * more than its size on workerd, where each one is a separately allocated buffer.
 */
export function base64UrlDecodeText(text: string): string {
  const binary = binaryOf(text);
  return NON_ASCII.test(binary) ? decoder.decode(bytesOfBinary(binary)) : binary;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every byte outside ASCII.
const NON_ASCII = /[^\x00-\x7f]/;

/** Node's decoder ignores a dangling last character; fromBase64 and atob refuse it. Drop it to decode alike. */
function withoutDanglingChar(text: string): string {
  return text.length % 4 === 1 ? text.slice(0, -1) : text;
}

/** `atob` of base64url: one char per byte. */
function binaryOf(text: string): string {
  return atob(withoutDanglingChar(text).replace(/-/g, '+').replace(/_/g, '/'));
}

function bytesOfBinary(binary: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Web Crypto's import and verify parameters for each JWS algorithm (PSS salt = digest length, RFC 7518 3.5). */
const WEB_JWS: Readonly<Record<JwsAlgorithm, { readonly importAs: object; readonly verifyAs: object }>> = {
  RS256: { importAs: RS256, verifyAs: RS256 },
  RS384: { importAs: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-384' }, verifyAs: RS256 },
  RS512: { importAs: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512' }, verifyAs: RS256 },
  PS256: { importAs: { name: 'RSA-PSS', hash: 'SHA-256' }, verifyAs: { name: 'RSA-PSS', saltLength: 32 } },
  PS384: { importAs: { name: 'RSA-PSS', hash: 'SHA-384' }, verifyAs: { name: 'RSA-PSS', saltLength: 48 } },
  PS512: { importAs: { name: 'RSA-PSS', hash: 'SHA-512' }, verifyAs: { name: 'RSA-PSS', saltLength: 64 } },
  ES256: { importAs: P256, verifyAs: ES256 },
  ES384: { importAs: { name: 'ECDSA', namedCurve: 'P-384' }, verifyAs: { name: 'ECDSA', hash: 'SHA-384' } },
  EdDSA: { importAs: { name: 'Ed25519' }, verifyAs: { name: 'Ed25519' } },
};

/**
 * Imports the public key of a JWK (its public members only) for `alg`; rejects when they are not
 * one, e.g. an EC point off its curve. A `CryptoKey` is bound to one algorithm: one per `alg`.
 */
export function importPublicJwk(jwk: PublicJwkMembers, alg: JwsAlgorithm): Promise<PublicKey> {
  return crypto.subtle.importKey('jwk', { ...jwk, ext: true }, WEB_JWS[alg].importAs as Algorithm, false, ['verify']);
}

/** ES2026's `Uint8Array.prototype.setFromBase64`, where `fromBase64` is; looked up once. */
const setFromBase64 = (
  Uint8Array.prototype as unknown as {
    setFromBase64?: (this: Uint8Array, text: string, options: { readonly alphabet: 'base64url' }) => { read: number; written: number };
  }
).setFromBase64;

/**
 * Room for one verification's inputs: the signing input (ASCII, one byte a character) and the
 * signature's bytes, side by side, instead of two byte arrays per token (on workerd each one is
 * a buffer allocated on its own). A token is at most 16 KiB of characters (`MAX_TOKEN_LENGTH`).
 */
const SCRATCH_BYTES = 16 * 1024;
let scratch: Uint8Array<ArrayBuffer> | undefined;
/**
 * Whether a verification holds the scratch buffer until its promise settles. Web Crypto copies
 * `verify`'s inputs before it returns, but the buffer is not handed to a second verification
 * while one is pending all the same: a runtime that read its inputs late must never check one
 * token's signature over another's bytes.
 */
let scratchHeld = false;

/**
 * Checks a JWS signature under `alg` over `signingInput` (the token's `<header>.<payload>`,
 * ASCII) given as base64url, with `crypto.subtle.verify`. `offload` is Node's choice and means
 * nothing here: Web Crypto decides where the work runs.
 *
 * Never rejects: a signature the runtime cannot even process is simply not valid.
 */
export function verifyJws(
  alg: JwsAlgorithm,
  key: PublicKey,
  signingInput: string,
  signature: string,
  _offload: boolean,
): boolean | Promise<boolean> {
  const algorithm = WEB_JWS[alg].verifyAs as Algorithm;
  try {
    return (
      verifyInScratch(algorithm, key as CryptoKey, signingInput, signature) ??
      crypto.subtle.verify(algorithm, key as CryptoKey, base64UrlDecode(signature), encoder.encode(signingInput)).catch(() => false)
    );
  } catch {
    return false;
  }
}

/**
 * `crypto.subtle.verify` of a signature over its signing input, both written into the scratch
 * buffer, or `undefined` when the buffer is held by a pending verification, the runtime has no
 * `setFromBase64`, or the two do not fit in it side by side.
 */
function verifyInScratch(algorithm: Algorithm, key: CryptoKey, signingInput: string, signature: string): Promise<boolean> | undefined {
  if (scratchHeld || setFromBase64 === undefined) return undefined;
  scratch ??= new Uint8Array(SCRATCH_BYTES);
  const input = encoder.encodeInto(signingInput, scratch);
  if (input.read !== signingInput.length) return undefined;
  const room = scratch.subarray(input.written);
  const text = withoutDanglingChar(signature);
  const decoded = setFromBase64.call(room, text, BASE64URL);
  // Short of the whole text: the signature's bytes did not all fit after the input.
  if (decoded.read !== text.length) return undefined;
  const verified = crypto.subtle.verify(algorithm, key, room.subarray(0, decoded.written), scratch.subarray(0, input.written));
  scratchHeld = true;
  return verified.then(releaseScratch, releaseScratchInvalid);
}

function releaseScratch(valid: boolean): boolean {
  scratchHeld = false;
  return valid;
}

function releaseScratchInvalid(): boolean {
  scratchHeld = false;
  return false;
}

/**
 * Imports an ECDSA P-256 public key from its DER SubjectPublicKeyInfo; rejects when the bytes are
 * not one, or hold a key of another type or curve.
 */
export function importEcdsaP256PublicKey(spki: Uint8Array): Promise<PublicKey> {
  return crypto.subtle.importKey('spki', spki.slice(), P256, false, ['verify']);
}

/**
 * Checks an ECDSA P-256 SHA-256 signature over `data`, given as the raw `r || s` (64 bytes, see
 * `ecdsaP256DerToRaw`: Web Crypto takes no DER), with `crypto.subtle.verify`.
 *
 * Never rejects: a signature the runtime cannot even process is simply not valid.
 */
export function verifyEcdsaP256Sha256(key: PublicKey, data: Uint8Array, signature: Uint8Array): boolean | Promise<boolean> {
  try {
    return crypto.subtle.verify(ES256, key as CryptoKey, signature.slice(), data.slice()).catch(() => false);
  } catch {
    return false;
  }
}
