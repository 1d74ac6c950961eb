import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { JwsAlgorithm, PublicJwkMembers } from '../id-token/jws-algorithms.js';
import * as nodeCrypto from './runtime-crypto.js';
import * as webCrypto from './runtime-crypto.web.js';

// Wycheproof (C2SP/wycheproof, Apache-2.0) signature vectors through both builds' `importPublicJwk`
// and `verifyJws`, the functions every ID token goes through. The vendored files are in
// packages/auth/test/wycheproof/ with their licence; each says which part of the original it is.
// A JWS signing input is ASCII by construction, so the web build (which encodes it as UTF-8) is
// given the vectors whose message is ASCII; the Node build (latin1, byte for byte) all of them.

interface WycheproofFile {
  readonly testGroups: ReadonlyArray<{
    /** Ed25519 files call the key's JWK `publicKeyJwk`, RSA files `keyJwk`. */
    readonly publicKeyJwk?: Record<string, string>;
    readonly keyJwk?: Record<string, string>;
    /** ECDSA files: the point as hex (`wx`, `wy`, big-endian, possibly with a leading zero byte). */
    readonly publicKey?: { readonly curve?: string; readonly wx?: string; readonly wy?: string };
    readonly tests: ReadonlyArray<{ readonly tcId: number; readonly msg: string; readonly sig: string; readonly result: 'valid' | 'invalid' | 'acceptable' }>;
  }>;
}

const FILES: ReadonlyArray<readonly [file: string, alg: JwsAlgorithm]> = [
  ['ed25519_test.subset.json', 'EdDSA'],
  ['ecdsa_secp256r1_sha256_p1363_test.subset.json', 'ES256'],
  ['rsa_signature_2048_sha256_test.subset.json', 'RS256'],
];

const CURVES: Readonly<Record<string, readonly [crv: string, bytes: number]>> = { secp256r1: ['P-256', 32], secp384r1: ['P-384', 48] };

/** A hex coordinate as the fixed-size base64url a JWK holds. */
function coordinate(hex: string, bytes: number): string {
  const value = Buffer.from(hex.padStart(2 * bytes, '0'), 'hex');
  return value.subarray(value.length - bytes).toString('base64url');
}

function jwkOf(group: WycheproofFile['testGroups'][number]): PublicJwkMembers {
  const jwk = group.publicKeyJwk ?? group.keyJwk;
  if (jwk !== undefined) {
    const { kty, crv, x, y, n, e } = jwk;
    return { kty, crv, x, y, n, e } as unknown as PublicJwkMembers;
  }
  const { curve, wx, wy } = group.publicKey!;
  const [crv, bytes] = CURVES[curve!]!;
  return { kty: 'EC', crv, x: coordinate(wx!, bytes), y: coordinate(wy!, bytes) };
}

const load = (file: string): WycheproofFile =>
  JSON.parse(readFileSync(new URL(`../../test/wycheproof/${file}`, import.meta.url), 'utf8')) as WycheproofFile;

const latin1 = (hex: string): string => Buffer.from(hex, 'hex').toString('latin1');
const isAscii = (hex: string): boolean => Buffer.from(hex, 'hex').every((b) => b < 0x80);

async function verdicts(
  platform: { importPublicJwk(jwk: PublicJwkMembers, alg: JwsAlgorithm): Promise<unknown>; verifyJws(alg: JwsAlgorithm, key: never, input: string, sig: string, offload: boolean): boolean | Promise<boolean> },
  data: WycheproofFile,
  alg: JwsAlgorithm,
  asciiOnly: boolean,
): Promise<{ run: number; wrong: number[] }> {
  let run = 0;
  const wrong: number[] = [];
  for (const group of data.testGroups) {
    const key = await platform.importPublicJwk(jwkOf(group), alg);
    for (const test of group.tests) {
      if (asciiOnly && !isAscii(test.msg)) continue;
      run++;
      const signature = Buffer.from(test.sig, 'hex').toString('base64url');
      const valid = await platform.verifyJws(alg, key as never, latin1(test.msg), signature, false);
      // `acceptable` vectors may go either way; `invalid` must never verify, `valid` must.
      if (test.result === 'valid' ? !valid : test.result === 'invalid' && valid) wrong.push(test.tcId);
    }
  }
  return { run, wrong };
}

describe.each(FILES)('Wycheproof %s (%s)', (file, alg) => {
  const data = load(file);
  const total = data.testGroups.reduce((sum, g) => sum + g.tests.length, 0);

  it(`Node build: every one of the ${total} vectors gets its verdict`, async () => {
    expect(await verdicts(nodeCrypto, data, alg, false)).toEqual({ run: total, wrong: [] });
  });

  it('Web Crypto build: every vector with an ASCII message gets its verdict', async () => {
    const ascii = data.testGroups.reduce((sum, g) => sum + g.tests.filter((t) => isAscii(t.msg)).length, 0);
    expect(await verdicts(webCrypto, data, alg, true)).toEqual({ run: ascii, wrong: [] });
  });
});
