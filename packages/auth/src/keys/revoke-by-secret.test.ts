import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../api-key/generate-api-key.js';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import type { Principal } from '../authenticator/principal.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import type { KeyStore } from '../key-store/key-store.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from './create-key-manager.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const principal = (sub: string): Principal => ({
  accountId: `acct_${sub}`,
  credential: 'id_token',
  claims: { sub, iss: 'i', aud: 'a', iat: 1, exp: 2 },
});
const alice = principal('alice');
const bob = principal('bob');

function setup(keyStore: KeyStore = new MemoryKeyStore()) {
  return { keys: createKeyManager({ keyStore, clock: () => NOW, mintRateLimit: false }), keyStore };
}

describe('KeyManager.revokeBySecret', () => {
  it('revokes keys of any account by value, one result per entry in order, ignoring what is not a key', async () => {
    const { keys, keyStore } = setup();
    const a = await keys.mint(alice);
    const b = await keys.mint(bob);
    const gone = await keys.mint(alice);
    await keys.revoke(alice, gone.id);
    const stranger = generateApiKey();
    const results = await keys.revokeBySecret(
      [a.apiKey, 42, 'hp_short', b.apiKey, stranger.secret, gone.apiKey, a.apiKey, null, { secret: a.apiKey }, `${b.apiKey} `],
      { source: 'revoke_by_value', request: { ip: '198.51.100.7', userAgent: 'curl/8' } },
    );
    expect(results).toEqual([
      { keyId: a.id, status: 'revoked' },
      { keyId: null, status: 'not_a_key' },
      { keyId: null, status: 'not_a_key' },
      { keyId: b.id, status: 'revoked' },
      { keyId: stranger.id, status: 'unknown' },
      { keyId: gone.id, status: 'already_revoked' },
      { keyId: a.id, status: 'revoked' },
      { keyId: null, status: 'not_a_key' },
      { keyId: null, status: 'not_a_key' },
      { keyId: null, status: 'not_a_key' },
    ]);
    const authenticator = createAuthenticator({ keyStore });
    for (const secret of [a.apiKey, b.apiKey]) {
      await expect(authenticator.authenticate(`Bearer ${secret}`)).rejects.toBeInstanceOf(UnauthenticatedError);
    }
    const [event] = (await keys.events(bob)).events;
    expect(event).toEqual({
      type: 'revoked',
      keyId: b.id,
      prefix: b.prefix,
      name: null,
      at: new Date(NOW).toISOString(),
      source: 'revoke_by_value',
      actor: null,
      ip: '198.51.100.7',
      userAgent: 'curl/8',
    });
    // Idempotent.
    expect((await keys.revokeBySecret([a.apiKey], { source: 'revoke_by_value' }))[0]?.status).toBe('already_revoked');
  });

  it('attributes secret scanning to github, with the url where the secret was found', async () => {
    const { keys } = setup();
    const a = await keys.mint(alice);
    await keys.revokeBySecret([a.apiKey], { source: 'github_secret_scanning', url: 'https://github.com/o/r/blob/main/.env' });
    expect((await keys.events(alice)).events[0]).toMatchObject({
      type: 'revoked',
      source: 'github_secret_scanning',
      actor: 'github',
      url: 'https://github.com/o/r/blob/main/.env',
    });
  });

  it('makes no store call when nothing is key-shaped, and refuses a non-list with a 400', async () => {
    let calls = 0;
    const memory = new MemoryKeyStore();
    const counting: KeyStore = Object.assign(Object.create(memory) as KeyStore, {
      revokeMany: (...[ids, options]: Parameters<KeyStore['revokeMany']>) => {
        calls++;
        return memory.revokeMany(ids, options);
      },
    });
    const { keys } = setup(counting);
    expect(await keys.revokeBySecret(['nope', 1], { source: 'revoke_by_value' })).toEqual([
      { keyId: null, status: 'not_a_key' },
      { keyId: null, status: 'not_a_key' },
    ]);
    expect(await keys.revokeBySecret([], { source: 'revoke_by_value' })).toEqual([]);
    expect(calls).toBe(0);
    await expect(keys.revokeBySecret('hp_x' as never, { source: 'revoke_by_value' })).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(keys.revokeBySecret([], { source: 'api' } as never)).rejects.toThrow(TypeError);
  });

  it('answers 503 when the store fails, never a result', async () => {
    const memory = new MemoryKeyStore();
    const down: KeyStore = Object.assign(Object.create(memory) as KeyStore, {
      revokeMany: () => Promise.reject(new Error('connection reset')),
    });
    await expect(setup(down).keys.revokeBySecret([generateApiKey().secret], { source: 'revoke_by_value' })).rejects.toBeInstanceOf(
      UnavailableError,
    );
  });
});
