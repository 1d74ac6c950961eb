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

/** `Uint8Array.fromBase64` for this test where Node lacks it (before Node 25): its answers on base64url input. */
const fromBase64OnBuffer: FromBase64 = (text) => {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new SyntaxError('not base64url');
  return new Uint8Array(Buffer.from(text, 'base64url'));
};

/** The web module loaded afresh with `Uint8Array.fromBase64` set to `fromBase64` (or absent): it looks once, at load. */
async function webCryptoWith(fromBase64: FromBase64 | undefined): Promise<typeof webCrypto> {
  const own = Object.getOwnPropertyDescriptor(Uint8Array, 'fromBase64');
  if (fromBase64 === undefined) Reflect.deleteProperty(Uint8Array, 'fromBase64');
  else Object.defineProperty(Uint8Array, 'fromBase64', { value: fromBase64, configurable: true, writable: true });
  try {
    vi.resetModules();
    return await import('./runtime-crypto.web.js');
  } finally {
    if (own === undefined) Reflect.deleteProperty(Uint8Array, 'fromBase64');
    else Object.defineProperty(Uint8Array, 'fromBase64', own);
  }
}

const nativeFromBase64 = (Uint8Array as unknown as { fromBase64?: FromBase64 }).fromBase64;

conformance('node:crypto', nodeCrypto satisfies RuntimeCrypto<nodeCrypto.PublicKey>);
conformance('Web Crypto', webCrypto satisfies RuntimeCrypto<webCrypto.PublicKey>);
conformance('Web Crypto with Uint8Array.fromBase64', await webCryptoWith(nativeFromBase64 ?? fromBase64OnBuffer));
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
