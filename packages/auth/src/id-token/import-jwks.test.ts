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
    expect(keys.get('sig')?.key.asymmetricKeyType).toBe('rsa');
    expect(keys.get('sig')?.key.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it('reuses the KeyObject of an unchanged key', async () => {
    const rsa = { ...(await exportJWK((await generateKeyPair('RS256')).publicKey)), kid: 'k' };
    const first = await importJwks({ keys: [rsa] });
    const second = await importJwks({ keys: [rsa] }, first);
    expect(second.get('k')?.key).toBe(first.get('k')?.key);
  });

  it.each([[null], [{}], [{ keys: 'x' }], [{ keys: [] }], [[1, 2]]])('rejects %j', async (doc) => {
    await expect(importJwks(doc)).rejects.toThrow();
  });
});
