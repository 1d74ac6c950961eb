import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { JwsAlgorithm } from '../id-token/jws-algorithms.js';
import { verifyJwsTestVectors, type JwsTestVectorFile } from './jws-test-vectors.js';
import { base64UrlDecode } from '../platform/runtime-crypto.js'; // this spelling: vitest.web-crypto.config.ts swaps it

/** Which build this config runs: Node's returns Buffers. */
const NODE_BUILD = Buffer.isBuffer(base64UrlDecode('AA'));

// Wycheproof (C2SP/wycheproof, Apache-2.0) signature vectors through this build's key import and
// JWS verification: the Node build here, the Web Crypto build under vitest.web-crypto.config.ts,
// and the web build on Bun, Deno and workerd in runtime-tests/. The vendored files are in
// packages/auth/test/wycheproof/ with their licence; each names the part of the original it holds.

const WYCHEPROOF_FILES: ReadonlyArray<readonly [file: string, alg: JwsAlgorithm]> = [
  ['ed25519_test.subset.json', 'EdDSA'],
  ['ecdsa_secp256r1_sha256_p1363_test.subset.json', 'ES256'],
  ['ecdsa_secp256r1_sha256_test.subset.json', 'ES256'],
  ['ecdsa_secp384r1_sha384_p1363_test.subset.json', 'ES384'],
  ['ecdsa_secp384r1_sha384_test.subset.json', 'ES384'],
  ['rsa_signature_2048_sha256_test.subset.json', 'RS256'],
  ['rsa_signature_2048_sha384_test.subset.json', 'RS384'],
  ['rsa_signature_2048_sha512_test.subset.json', 'RS512'],
  ['rsa_signature_3072_sha256_test.subset.json', 'RS256'],
  ['rsa_signature_4096_sha384_test.subset.json', 'RS384'],
  ['rsa_signature_4096_sha512_test.subset.json', 'RS512'],
  ['rsa_pss_2048_sha256_mgf1_32_test.subset.json', 'PS256'],
  ['rsa_pss_3072_sha256_mgf1_32_test.subset.json', 'PS256'],
  ['rsa_pss_4096_sha384_mgf1_48_test.subset.json', 'PS384'],
  ['rsa_pss_4096_sha512_mgf1_64_test.subset.json', 'PS512'],
];

const load = (file: string): JwsTestVectorFile =>
  JSON.parse(readFileSync(new URL(`../../test/wycheproof/${file}`, import.meta.url), 'utf8')) as JwsTestVectorFile;

const isAscii = (hex: string): boolean => Buffer.from(hex, 'hex').every((b) => b < 0x80);

describe.each(WYCHEPROOF_FILES)('Wycheproof %s (%s)', (file, alg) => {
  const data = load(file);
  const ascii = data.testGroups.reduce((sum, g) => sum + g.tests.filter((t) => isAscii(t.msg)).length, 0);

  it('every vector with an ASCII message (any JWS signing input) gets its verdict', async () => {
    expect(await verifyJwsTestVectors(data, alg)).toEqual({ run: ascii, wrong: [] });
  });

  it(`${NODE_BUILD ? 'Node' : 'Web Crypto'} build: the vectors with other messages too`, async () => {
    const total = data.testGroups.reduce((sum, g) => sum + g.tests.length, 0);
    const all = await verifyJwsTestVectors(data, alg, { asciiOnly: false });
    // Web Crypto encodes a string as UTF-8: a non-ASCII message is other bytes there, and a valid
    // vector fails for that reason alone. Node's build reads the signing input as latin1.
    const nonAscii = new Set(data.testGroups.flatMap((g) => g.tests.filter((t) => !isAscii(t.msg)).map((t) => t.tcId)));
    expect(all.run).toBe(total);
    expect(NODE_BUILD ? all.wrong : all.wrong.filter((tcId) => !nonAscii.has(tcId))).toEqual([]);
  });
});
