import { describe, expect, it } from 'vitest';
import type { Principal } from '../authenticator/principal.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from '../keys/create-key-manager.js';
import { MemoryWebhookStore } from './memory-webhook-store.js';
import { createWebhookSettings } from './webhook-settings.js';
import type { WebhookEndpoint, WebhookStore } from './webhook-store.js';

const owner: Principal = { accountId: 'acct_1', credential: 'id_token', claims: { sub: 'u', iss: 'i', aud: 'a', iat: 1, exp: 2 } };
const byKey: Principal = { accountId: 'acct_1', credential: 'api_key', keyId: 'a'.repeat(64) };
const manager = (store: WebhookStore) => createKeyManager({ keyStore: new MemoryKeyStore(), webhooks: createWebhookSettings({ store }) });

describe('keys.webhook', () => {
  it('is for ID tokens only, and stores nothing for a bad body', async () => {
    const store = new MemoryWebhookStore();
    const keys = manager(store);
    for (const call of [keys.webhook.get(byKey), keys.webhook.set(byKey, { url: 'https://example.com/' }), keys.webhook.remove(byKey)]) {
      await expect(call).rejects.toBeInstanceOf(UnauthenticatedError);
    }
    await expect(keys.webhook.set(owner, { url: 'https://example.com/', extra: 1 })).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(keys.webhook.set(owner, null)).rejects.toBeInstanceOf(InvalidRequestError);
    expect(await store.endpointOf('acct_1')).toBeNull();
  });

  it('shows the endpoint and its deliveries as the store reports them, never the secret; { url: null } without one', async () => {
    const store = new MemoryWebhookStore();
    const keys = manager(store);
    expect(await keys.webhook.get(owner)).toEqual({ url: null });
    const { secret } = await keys.webhook.set(owner, { url: 'https://example.com/hooks' });
    const shown = await keys.webhook.get(owner);
    expect(shown).toEqual({ url: 'https://example.com/hooks', deliveries: { pending: 0, failed: 0, lastFailure: null } });
    expect(JSON.stringify(shown)).not.toContain(secret);
    const failing: WebhookEndpoint = {
      url: 'https://example.com/hooks',
      deliveries: { pending: 2, failed: 1, lastFailure: { at: '2026-01-02T03:04:05.678Z', reason: 'answered 500' } },
    };
    const reported = manager({
      // A store that hands back more than the contract (its secret here) shows only the contract's fields.
      endpointOf: async () => ({ ...failing, secret: 'whsec_leak', deliveries: { ...failing.deliveries, ids: [1] } }),
      set: async () => {},
      remove: async () => true,
    });
    expect(await reported.webhook.get(owner)).toEqual(failing);
  });

  it('answers 503 (never 401 or success) when the store fails, and 404 without the option', async () => {
    const down = (): Promise<never> => Promise.reject(new Error('database down'));
    const keys = manager({ endpointOf: down, set: down, remove: down });
    for (const call of [keys.webhook.get(owner), keys.webhook.set(owner, { url: 'https://example.com/' }), keys.webhook.remove(owner)]) {
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnavailableError);
      expect((error as UnavailableError).status).toBe(503);
    }
    await expect(createKeyManager({ keyStore: new MemoryKeyStore() }).webhook.get(owner)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses bad options at construction: no store, an unknown option, or a webhooks option createWebhookSettings did not make', () => {
    expect(() => createWebhookSettings({ store: {} as WebhookStore })).toThrow(
      'createWebhookSettings: options.store: expected a WebhookStore',
    );
    expect(() => createWebhookSettings({ store: new MemoryWebhookStore(), allowLoopback: true } as never)).toThrow(TypeError);
    const options = { store: new MemoryWebhookStore() };
    expect(() => createKeyManager({ keyStore: new MemoryKeyStore(), webhooks: options as never })).toThrow(
      'createKeyManager: options.webhooks: expected createWebhookSettings({ store })',
    );
  });

  it('signs with a secret from its own random source', async () => {
    const settings = createWebhookSettings({ store: new MemoryWebhookStore(), random: (n) => new Uint8Array(n).fill(0xff) });
    const { secret } = await settings.set(owner, { url: 'https://example.com/hook' });
    expect(secret).toBe(`whsec_${Buffer.alloc(32, 0xff).toString('base64')}`);
  });
});
