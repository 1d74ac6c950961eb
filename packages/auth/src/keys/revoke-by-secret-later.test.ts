import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../api-key/generate-api-key.js';
import type { Principal } from '../authenticator/principal.js';
import { DIAGNOSTICS_CHANNELS } from '../diagnostics/diagnostics-messages.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import type { KeyStore } from '../key-store/key-store.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { delegatingKeyStore } from '../testing/delegating-key-store.js';
import { createKeyManager } from './create-key-manager.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const alice: Principal = { accountId: 'acct_alice', credential: 'id_token', claims: { sub: 'alice', iss: 'i', aud: 'a', iat: 1, exp: 2 } };
const request = { ip: '198.51.100.7', userAgent: 'curl/8' };

function setup(keyStore: KeyStore = new MemoryKeyStore()) {
  return { keys: createKeyManager({ keyStore, clock: () => NOW, mintRateLimit: false }), keyStore };
}

describe('KeyManager.revokeBySecretLater and revokePending', () => {
  it('records the key ids and resolves before revoking; revokePending then revokes, with the request on the event', async () => {
    const { keys, keyStore } = setup();
    const live = await keys.mint(alice);
    const stranger = generateApiKey();
    await keys.revokeBySecretLater([live.apiKey, 'not a key', stranger.secret], { source: 'revoke_by_value', request });
    expect(keyStore.findActive(live.id)).not.toBeNull();
    expect((await keyStore.pendingRevocationRequests({ limit: 10 })).map((r) => r.keyIds)).toEqual([[live.id, stranger.id]]);

    await keys.revokePending();
    expect(keyStore.findActive(live.id)).toBeNull();
    expect(await keyStore.pendingRevocationRequests({ limit: 10 })).toEqual([]);
    const { events } = await keys.events(alice);
    expect(events[0]).toMatchObject({
      type: 'revoked',
      keyId: live.id,
      source: 'revoke_by_value',
      actor: null,
      ip: '198.51.100.7',
      userAgent: 'curl/8',
      at: new Date(NOW).toISOString(),
    });
  });

  it('publishes one drops-auth:revocation message per key it revokes in the background', async () => {
    const { keys } = setup();
    const live = await keys.mint(alice);
    const messages: unknown[] = [];
    const listener = (message: unknown): void => void messages.push(message);
    subscribe(DIAGNOSTICS_CHANNELS.revocation, listener);
    try {
      await keys.revokeBySecretLater([live.apiKey, generateApiKey().secret], { source: 'revoke_by_value', request });
      await keys.revokePending();
    } finally {
      unsubscribe(DIAGNOSTICS_CHANNELS.revocation, listener);
    }
    expect(messages).toEqual([expect.objectContaining({ keyId: live.id, outcome: 'revoked' })]);
  });

  it('records nothing when no entry is key-shaped, and refuses what is not a list with a 400', async () => {
    const { keys, keyStore } = setup();
    await keys.revokeBySecretLater(['hp_short', 42], { source: 'revoke_by_value', request });
    expect(await keyStore.pendingRevocationRequests({ limit: 10 })).toEqual([]);
    await expect(keys.revokeBySecretLater('hp_x' as never, { source: 'revoke_by_value', request })).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
  });

  it('answers 503 when the store cannot record, and keeps a request whose revocation failed for the next pass', async () => {
    const memory = new MemoryKeyStore();
    let failRevoke = true;
    const flaky: KeyStore = delegatingKeyStore(memory, {
      revokeMany: (...args: Parameters<MemoryKeyStore['revokeMany']>) =>
        failRevoke ? Promise.reject(new Error('db down')) : memory.revokeMany(...args),
    });
    const { keys } = setup(flaky);
    const live = await keys.mint(alice);
    await keys.revokeBySecretLater([live.apiKey], { source: 'revoke_by_value', request });
    await expect(keys.revokePending()).rejects.toBeInstanceOf(UnavailableError);
    expect(memory.findActive(live.id)).not.toBeNull();
    expect((await memory.pendingRevocationRequests({ limit: 10 })).map((r) => r.keyIds)).toEqual([[live.id]]);
    failRevoke = false;
    await keys.revokePending();
    expect(memory.findActive(live.id)).toBeNull();
    expect(await memory.pendingRevocationRequests({ limit: 10 })).toEqual([]);

    const down: KeyStore = delegatingKeyStore(memory, { recordRevocationRequest: () => Promise.reject(new Error('db down')) });
    const other = setup(down).keys;
    await expect(other.revokeBySecretLater([generateApiKey().secret], { source: 'revoke_by_value', request })).rejects.toBeInstanceOf(
      UnavailableError,
    );
  });
});
