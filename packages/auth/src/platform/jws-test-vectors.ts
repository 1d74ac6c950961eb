import type { JwsAlgorithm, PublicJwkMembers } from '../id-token/jws-algorithms.js';
import { base64UrlEncode, importPublicJwk, verifyJws } from '../platform/runtime-crypto.js'; // this spelling: the web build swaps '/platform/runtime-crypto.js'
import { ecdsaDerToRaw } from './ecdsa-der-signature.js';

/** A signature test vector file in Wycheproof's JSON shape (the fields read here). */
export interface JwsTestVectorFile {
  readonly testGroups: ReadonlyArray<{
    /** `EcdsaVerify` groups hold DER signatures (`EcdsaP1363Verify` ones the raw `r || s` of JWS). */
    readonly type?: string;
    /** Ed25519 and RSA-PSS files name the key's JWK `publicKeyJwk`, RSA files `keyJwk`. */
    readonly publicKeyJwk?: Readonly<Record<string, string>>;
    readonly keyJwk?: Readonly<Record<string, string>>;
    /** ECDSA files give the point as hex (`wx`, `wy`, big-endian, possibly with a leading zero byte). */
    readonly publicKey?: { readonly curve?: string; readonly wx?: string; readonly wy?: string };
    readonly tests: ReadonlyArray<{
      readonly tcId: number;
      readonly msg: string;
      readonly sig: string;
      readonly result: 'valid' | 'invalid' | 'acceptable';
    }>;
  }>;
}

/** What a run found: how many vectors ran, and the `tcId`s whose verdict was wrong. */
export interface JwsTestVectorVerdicts {
  readonly run: number;
  readonly wrong: readonly number[];
}

const CURVES: Readonly<Record<string, readonly [crv: string, bytes: number]>> = { secp256r1: ['P-256', 32], secp384r1: ['P-384', 48] };

function bytesOfHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** A hex coordinate as the fixed-size base64url a JWK holds. */
function coordinate(hex: string, size: number): string {
  const bytes = bytesOfHex(hex.length % 2 === 0 ? hex : `0${hex}`);
  const fixed = new Uint8Array(size);
  fixed.set(bytes.subarray(Math.max(0, bytes.length - size)), Math.max(0, size - bytes.length));
  return base64UrlEncode(fixed);
}

function jwkOf(group: JwsTestVectorFile['testGroups'][number]): PublicJwkMembers {
  const jwk = group.publicKeyJwk ?? group.keyJwk;
  if (jwk !== undefined) {
    const { kty, crv, x, y, n, e } = jwk;
    return { kty, crv, x, y, n, e } as unknown as PublicJwkMembers;
  }
  const { curve, wx, wy } = group.publicKey ?? {};
  const [crv, size] = CURVES[curve ?? ''] ?? ['unknown', 0];
  return { kty: 'EC', crv, x: coordinate(wx ?? '', size), y: coordinate(wy ?? '', size) };
}

const isAscii = (hex: string): boolean => bytesOfHex(hex).every((byte) => byte < 0x80);

/**
 * The signature as JWS carries it: a DER one (an `EcdsaVerify` group) as its raw `r || s`, or
 * `undefined` when it is not one strict DER encoding (such a signature verifies nothing).
 */
function jwsSignatureOf(group: JwsTestVectorFile['testGroups'][number], sig: string): Uint8Array | undefined {
  const bytes = bytesOfHex(sig);
  if (group.type !== 'EcdsaVerify') return bytes;
  return ecdsaDerToRaw(bytes, (CURVES[group.publicKey?.curve ?? ''] ?? ['unknown', 0])[1]);
}

/**
 * Runs signature test vectors (Wycheproof's JSON) through this build's `importPublicJwk` and
 * `verifyJws`, the functions every ID token goes through: a `valid` vector must verify, an
 * `invalid` one must not (`acceptable` may go either way). ECDSA signatures in DER (Wycheproof's
 * `EcdsaVerify` files) go in as the raw `r || s` JWS carries, and one that is not strict DER
 * verifies nothing, as a JWS signature of the wrong length would not. A JWS signing input is ASCII by
 * construction, and the web build encodes it as UTF-8, so `asciiOnly` (the default) runs the
 * vectors whose message is ASCII; the Node build reads it byte for byte (latin1) and can run all.
 * For the repository's own tests on every runtime (internal).
 */
export async function verifyJwsTestVectors(
  file: JwsTestVectorFile,
  alg: JwsAlgorithm,
  options: { readonly asciiOnly?: boolean } = {},
): Promise<JwsTestVectorVerdicts> {
  const asciiOnly = options.asciiOnly ?? true;
  let run = 0;
  const wrong: number[] = [];
  for (const group of file.testGroups) {
    const key = await importPublicJwk(jwkOf(group), alg);
    for (const test of group.tests) {
      if (asciiOnly && !isAscii(test.msg)) continue;
      run++;
      const message = String.fromCharCode(...bytesOfHex(test.msg));
      const signature = jwsSignatureOf(group, test.sig);
      const valid = signature !== undefined && (await verifyJws(alg, key, message, base64UrlEncode(signature), false));
      if (test.result === 'valid' ? !valid : test.result === 'invalid' && valid) wrong.push(test.tcId);
    }
  }
  return { run, wrong };
}
