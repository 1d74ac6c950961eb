import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { JwsAlgorithm, PublicJwkMembers } from '../id-token/jws-algorithms.js';
import * as nodeCrypto from './runtime-crypto.js';
import * as webCrypto from './runtime-crypto.web.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
const signingInput = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1In0';
const signature = sign('RSA-SHA256', Buffer.from(signingInput), privateKey).toString('base64url');

/** What both modules export: typing each against it keeps the twins' signatures in step. */
interface RuntimeCrypto<K> {
  randomBytes(size: number): Uint8Array;
  sha256Hex(text: string): string;
  base64UrlEncode(bytes: Uint8Array): string;
  base64UrlDecode(text: string): Uint8Array;
  base64UrlDecodeText(text: string): string;
  importPublicJwk(jwk: PublicJwkMembers, alg: JwsAlgorithm): Promise<K>;
  verifyJws(alg: JwsAlgorithm, key: K, signingInput: string, signature: string, offload: boolean): boolean | Promise<boolean>;
  importEcdsaP256PublicKey(spki: Uint8Array): Promise<K>;
  verifyEcdsaP256Sha256(key: K, data: Uint8Array, signature: Uint8Array): boolean | Promise<boolean>;
}

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ecSpki = ec.publicKey.export({ type: 'spki', format: 'der' });
const ecData = Buffer.from('[{"token":"hp_x","type":"t"}]');
const ecSignature = sign('sha256', ecData, { key: ec.privateKey, dsaEncoding: 'ieee-p1363' });

type FromBase64 = (text: string, options: { alphabet: 'base64url' }) => Uint8Array;
type SetFromBase64 = (this: Uint8Array, text: string, options: { alphabet: 'base64url' }) => { read: number; written: number };
/** ES2026's base64 methods, on `Uint8Array` and its prototype: a runtime has both or neither. */
interface Base64Methods {
  readonly fromBase64: FromBase64;
  readonly setFromBase64: SetFromBase64;
}

/** `Uint8Array.fromBase64` for this test where Node lacks it (before Node 25): its answers on base64url input. */
const fromBase64OnBuffer: FromBase64 = (text) => {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new SyntaxError('not base64url');
  return new Uint8Array(Buffer.from(text, 'base64url'));
};

/**
 * `Uint8Array.prototype.setFromBase64` likewise: decodes into the array, and where the bytes do
 * not all fit, as many whole 4-character chunks as do, saying how much it read and wrote.
 */
const setFromBase64OnBuffer: SetFromBase64 = function (this: Uint8Array, text, options) {
  const bytes = fromBase64OnBuffer(text, options);
  if (bytes.length <= this.length) {
    this.set(bytes);
    return { read: text.length, written: bytes.length };
  }
  const chunks = Math.floor(this.length / 3);
  this.set(bytes.subarray(0, chunks * 3));
  return { read: chunks * 4, written: chunks * 3 };
};

/** The web module loaded afresh with the base64 methods set to `base64` (or absent): it looks once, at load. */
async function webCryptoWith(base64: Base64Methods | undefined): Promise<typeof webCrypto> {
  const places = [
    { target: Uint8Array as object, name: 'fromBase64' as const },
    { target: Uint8Array.prototype as object, name: 'setFromBase64' as const },
  ].map((place) => ({ ...place, own: Object.getOwnPropertyDescriptor(place.target, place.name) }));
  for (const { target, name } of places) {
    if (base64 === undefined) Reflect.deleteProperty(target, name);
    else Object.defineProperty(target, name, { value: base64[name], configurable: true, writable: true });
  }
  try {
    vi.resetModules();
    return await import('./runtime-crypto.web.js');
  } finally {
    for (const { target, name, own } of places) {
      if (own === undefined) Reflect.deleteProperty(target, name);
      else Object.defineProperty(target, name, own);
    }
  }
}

const native = {
  fromBase64: (Uint8Array as unknown as { fromBase64?: FromBase64 }).fromBase64,
  setFromBase64: (Uint8Array.prototype as unknown as { setFromBase64?: SetFromBase64 }).setFromBase64,
};
const base64Methods: Base64Methods =
  native.fromBase64 !== undefined && native.setFromBase64 !== undefined
    ? { fromBase64: native.fromBase64, setFromBase64: native.setFromBase64 }
    : { fromBase64: fromBase64OnBuffer, setFromBase64: setFromBase64OnBuffer };
const webCryptoWithBase64 = await webCryptoWith(base64Methods);

conformance('node:crypto', nodeCrypto satisfies RuntimeCrypto<nodeCrypto.PublicKey>);
conformance('Web Crypto', webCrypto satisfies RuntimeCrypto<webCrypto.PublicKey>);
conformance('Web Crypto with Uint8Array.fromBase64 and setFromBase64', webCryptoWithBase64);
conformance('Web Crypto with atob only', await webCryptoWith(undefined));

function conformance<K>(name: string, platform: RuntimeCrypto<K>): void {
  describe(`runtime crypto on ${name}`, () => {
    it('hashes the UTF-8 of any string as node:crypto does (property)', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary' }), (text) => {
          expect(platform.sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
        }),
      );
    });

    it('encodes and decodes base64url as Buffer does (property)', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
          const text = Buffer.from(bytes).toString('base64url');
          expect(platform.base64UrlEncode(bytes)).toBe(text);
          expect(Buffer.from(platform.base64UrlDecode(text))).toEqual(Buffer.from(bytes));
        }),
      );
      expect(platform.base64UrlDecodeText(Buffer.from('{"é":1}').toString('base64url'))).toBe('{"é":1}');
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
          const utf8 = Buffer.from(text, 'utf8');
          expect(platform.base64UrlDecodeText(utf8.toString('base64url'))).toBe(utf8.toString('utf8'));
        }),
      );
      expect(Buffer.from(platform.base64UrlDecode('QUJDA'))).toEqual(Buffer.from('QUJDA', 'base64url'));
    });

    it('returns 32 fresh random bytes', () => {
      const a = platform.randomBytes(32);
      expect(a).toHaveLength(32);
      expect(Buffer.from(a)).not.toEqual(Buffer.from(platform.randomBytes(32)));
    });

    it('verifies an RS256 signature and refuses a tampered or garbled one', async () => {
      const key = await platform.importPublicJwk({ kty: 'RSA', n: jwk.n, e: jwk.e }, 'RS256');
      expect(await platform.verifyJws('RS256', key, signingInput, signature, false)).toBe(true);
      expect(await platform.verifyJws('RS256', key, signingInput, signature, true)).toBe(true);
      expect(await platform.verifyJws('RS256', key, `${signingInput}x`, signature, false)).toBe(false);
      expect(await platform.verifyJws('RS256', key, signingInput, 'AAAA', false)).toBe(false);
      expect(await platform.verifyJws('RS256', key, signingInput, 'A', true)).toBe(false);
    });

    it('verifies a signature over a signing input of up to the longest token and past it', async () => {
      const key = await platform.importPublicJwk({ kty: 'RSA', n: jwk.n, e: jwk.e }, 'RS256');
      // Filling all but a few bytes of 16 KiB, then past 16 KiB: the signature or the input alone no longer fits the scratch room.
      for (const length of [16 * 1024 - 40, 16 * 1024 + 40]) {
        const input = `${'e'.repeat(length - 2)}.e`;
        const bigSignature = sign('RSA-SHA256', Buffer.from(input), privateKey).toString('base64url');
        expect(await platform.verifyJws('RS256', key, input, bigSignature, false)).toBe(true);
        expect(await platform.verifyJws('RS256', key, input, signature, false)).toBe(false);
      }
    });

    it('verifies an ECDSA P-256 SHA-256 signature (r || s) and refuses a tampered or garbled one', async () => {
      const key = await platform.importEcdsaP256PublicKey(ecSpki);
      expect(await platform.verifyEcdsaP256Sha256(key, ecData, ecSignature)).toBe(true);
      const changed = Buffer.from(ecData);
      changed[3]! ^= 1;
      expect(await platform.verifyEcdsaP256Sha256(key, changed, ecSignature)).toBe(false);
      expect(await platform.verifyEcdsaP256Sha256(key, ecData, new Uint8Array(64))).toBe(false);
      expect(await platform.verifyEcdsaP256Sha256(key, ecData, ecSignature.subarray(0, 63))).toBe(false);
    });

    it('imports only ECDSA P-256 public keys', async () => {
      const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ type: 'spki', format: 'der' });
      const rsa = publicKey.export({ type: 'spki', format: 'der' });
      await expect(platform.importEcdsaP256PublicKey(p384)).rejects.toThrow();
      await expect(platform.importEcdsaP256PublicKey(rsa)).rejects.toThrow();
      await expect(platform.importEcdsaP256PublicKey(new Uint8Array([48, 3, 1, 2, 3]))).rejects.toThrow();
    });
  });
}

describe('runtime crypto on Web Crypto, one verification pending while another starts', () => {
  it('gives each its own bytes, even where the runtime reads its inputs only later', async () => {
    const key = await webCryptoWithBase64.importPublicJwk({ kty: 'RSA', n: jwk.n, e: jwk.e }, 'RS256');
    // `{"sub":"x"}` where the signature is over `{"sub":"u"}`: the same length, so the genuine
    // token's bytes would land exactly where the forged token's were.
    const forged = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0';
    expect(forged).toHaveLength(signingInput.length);
    const verify = crypto.subtle.verify.bind(crypto.subtle);
    const late = vi.spyOn(crypto.subtle, 'verify').mockImplementation(async (...args: Parameters<SubtleCrypto['verify']>) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return verify(...args);
    });
    try {
      const verdicts = await Promise.all([
        webCryptoWithBase64.verifyJws('RS256', key, forged, signature, false),
        webCryptoWithBase64.verifyJws('RS256', key, signingInput, signature, false),
      ]);
      expect(verdicts).toEqual([false, true]);
      expect(await webCryptoWithBase64.verifyJws('RS256', key, forged, signature, false)).toBe(false);
      expect(await webCryptoWithBase64.verifyJws('RS256', key, signingInput, signature, false)).toBe(true);
      expect(late).toHaveBeenCalledTimes(4);
    } finally {
      late.mockRestore();
    }
  });
});
