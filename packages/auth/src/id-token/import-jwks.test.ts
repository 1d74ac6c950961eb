import { generateKeyPairSync } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { importJwks } from './import-jwks.js';

describe('importJwks', () => {
  it('keeps RSA signing keys and skips everything else', async () => {
    const rsa = await exportJWK((await generateKeyPair('RS256')).publicKey);
    const ec = await exportJWK((await generateKeyPair('ES256')).publicKey);
    const small = { kty: 'RSA', kid: 'short', n: Buffer.alloc(128, 0xff).toString('base64url'), e: 'AQAB' };
    const keys = await importJwks({
      keys: [
        { ...rsa, kid: 'sig' },
        { ...rsa, kid: 'no-use', use: undefined },
        { ...rsa, kid: 'enc', use: 'enc' },
        { ...rsa, kid: 'ps', alg: 'PS256' },
        { ...rsa },
        { ...ec, kid: 'ec' },
        small,
        { kty: 'RSA', kid: 'junk', n: 'AA', e: 'AQAB' },
        null,
        'text',
      ],
    });
    expect([...keys.keys()].sort()).toEqual(['no-use', 'sig']);
    // A KeyObject on Node, a CryptoKey with the Web Crypto module (the auth-web-crypto project).
    const key = keys.get('sig')?.byAlgorithm.RS256 as { asymmetricKeyType?: string; algorithm?: { name: string } } | undefined;
    expect(key?.asymmetricKeyType ?? key?.algorithm?.name).toMatch(/^(rsa|RSASSA-PKCS1-v1_5)$/);
  });

  it('counts modulus bits exactly: 2048 kept (even with a leading zero byte), 2047 skipped', async () => {
    const jwkOf = (bits: number): { n: string; e: string } =>
      generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ format: 'jwk' }) as { n: string; e: string };
    const k2048 = jwkOf(2048);
    const padded = Buffer.concat([Buffer.alloc(1), Buffer.from(k2048.n, 'base64url')]).toString('base64url');
    const keys = await importJwks({
      keys: [
        { kty: 'RSA', kid: '2048', ...k2048 },
        { kty: 'RSA', kid: '2048-padded', n: padded, e: k2048.e },
        { kty: 'RSA', kid: '2047', ...jwkOf(2047) },
      ],
    });
    expect([...keys.keys()].sort()).toEqual(['2048', '2048-padded']);
  });

  it('reuses the imported key of an unchanged key', async () => {
    const rsa = { ...(await exportJWK((await generateKeyPair('RS256')).publicKey)), kid: 'k' };
    const first = await importJwks({ keys: [rsa] });
    const second = await importJwks({ keys: [rsa] }, first);
    expect(second.get('k')?.byAlgorithm.RS256).toBe(first.get('k')?.byAlgorithm.RS256);
  });

  it.each([[null], [{}], [{ keys: 'x' }], [{ keys: [] }], [[1, 2]]])('rejects %j', async (doc) => {
    await expect(importJwks(doc)).rejects.toThrow();
  });
});
