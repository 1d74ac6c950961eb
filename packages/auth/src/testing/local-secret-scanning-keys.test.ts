import { createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalSecretScanningKeys } from './local-secret-scanning-keys.js';

let github: LocalSecretScanningKeys;
beforeAll(async () => {
  github = await LocalSecretScanningKeys.start();
});
afterAll(() => github.close());

describe('LocalSecretScanningKeys', () => {
  it("serves its keys in the shape of GitHub's list, the newest one current", async () => {
    const first = github.currentKey;
    const second = github.newKey();
    const hidden = github.newKey({ publish: false });
    const served = (await (await fetch(github.keysUrl)).json()) as unknown;
    expect(served).toEqual({
      public_keys: [
        { key_identifier: first.keyIdentifier, key: first.publicKeyPem, is_current: false },
        { key_identifier: second.keyIdentifier, key: second.publicKeyPem, is_current: true },
      ],
    });
    expect(JSON.stringify(served)).not.toContain(hidden.keyIdentifier);
    expect(first.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(github.fetchCount).toBe(1);
    github.removeKey(first.keyIdentifier);
    expect(github.document.public_keys.map((k) => k.key_identifier)).toEqual([second.keyIdentifier]);
  });

  it('signs the body bytes as GitHub does: base64 DER ECDSA P-256 SHA-256', () => {
    const body = '[{"token":"é"}]';
    const headers = github.signedHeaders(body);
    expect(headers['Github-Public-Key-Identifier']).toBe(github.currentKey.keyIdentifier);
    const signature = Buffer.from(headers['Github-Public-Key-Signature'], 'base64');
    const key = createPublicKey(github.currentKey.publicKeyPem);
    expect(verify('sha256', Buffer.from(body, 'utf8'), { key, dsaEncoding: 'der' }, signature)).toBe(true);
    expect(verify('sha256', Buffer.from(`${body} `), { key, dsaEncoding: 'der' }, signature)).toBe(false);
  });

  it('refuses an unknown option', async () => {
    await expect(LocalSecretScanningKeys.start({ url: 'x' } as never)).rejects.toThrow(TypeError);
  });
});
