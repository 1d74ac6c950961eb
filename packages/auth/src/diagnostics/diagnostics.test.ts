import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { generateApiKey } from '../api-key/generate-api-key.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import type { KeyStore } from '../key-store/key-store.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from '../keys/create-key-manager.js';
import { LocalIdentityProvider } from '../testing/local-identity-provider.js';
import { channelOf, loadDiagnosticsChannel } from './diagnostics-channel.js';
import { DIAGNOSTICS_CHANNELS } from './diagnostics-messages.js';

/** Subscribes to every drops-auth channel; `stop()` unsubscribes. */
function record(): { messages: Array<{ channel: string; message: Record<string, unknown> }>; of(channel: string): Array<Record<string, unknown>>; stop(): void } {
  const messages: Array<{ channel: string; message: Record<string, unknown> }> = [];
  const listeners = Object.values(DIAGNOSTICS_CHANNELS).map((channel) => {
    const listener = (message: unknown): void => void messages.push({ channel, message: message as Record<string, unknown> });
    subscribe(channel, listener);
    return [channel, listener] as const;
  });
  return {
    messages,
    of: (channel) => messages.filter((m) => m.channel === channel).map((m) => m.message),
    stop: () => {
      for (const [channel, listener] of listeners) unsubscribe(channel, listener);
    },
  };
}

let idp: LocalIdentityProvider;
beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
});
afterAll(() => idp.close());

let recording: ReturnType<typeof record> | undefined;
afterEach(() => recording?.stop());

const anyDuration = expect.any(Number) as unknown as number;
const bearer = (credential: string): string => `Bearer ${credential}`;

async function setup(keyStore: KeyStore = new MemoryKeyStore()) {
  const authenticator = createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) });
  const keys = createKeyManager({ keyStore });
  const key = generateApiKey();
  await keyStore.create({ id: key.id, accountId: 'acct_1', prefix: key.prefix, name: null, createdAt: new Date(0), provenance: null }).catch(() => {});
  return { authenticator, keys, key };
}

describe('drops-auth:authenticate', () => {
  it('reports every outcome with its credential type, reason and duration', async () => {
    const { authenticator, key } = await setup();
    const token = idp.mintIdToken({ sub: 'alice' });
    recording = record();
    await authenticator.authenticate(bearer(key.secret));
    await authenticator.authenticate({ authorization: bearer(token) });
    await authenticator.authenticate(bearer(`hp_${'A'.repeat(43)}`)).catch(() => {});
    await authenticator.authenticate(undefined).catch(() => {});
    await authenticator.authenticate('Basic dXNlcjpwYXNz').catch(() => {});
    await authenticator.authenticate(bearer(key.secret), { accept: ['id_token'] }).catch(() => {});
    await authenticator.authenticate(bearer(idp.mintIdToken({ sub: 'a' }, { expiresInSeconds: -60 }))).catch(() => {});
    await authenticator.authenticateOptional(undefined);

    const messages = recording.of(DIAGNOSTICS_CHANNELS.authenticate);
    expect(messages).toEqual([
      { credential: 'api_key', outcome: 'authenticated', reason: null, durationMs: anyDuration },
      { credential: 'id_token', outcome: 'authenticated', reason: null, durationMs: anyDuration },
      { credential: 'api_key', outcome: 'refused', reason: 'unknown_key', durationMs: anyDuration },
      { credential: null, outcome: 'refused', reason: 'missing', durationMs: anyDuration },
      { credential: null, outcome: 'refused', reason: 'malformed', durationMs: anyDuration },
      { credential: 'api_key', outcome: 'refused', reason: 'wrong_credential_type', durationMs: anyDuration },
      { credential: 'id_token', outcome: 'refused', reason: 'expired_token', durationMs: anyDuration },
      { credential: null, outcome: 'anonymous', reason: null, durationMs: anyDuration },
    ]);
    for (const m of messages) expect(m['durationMs']).toBeGreaterThanOrEqual(0);
    // Never a secret or a token, whatever happened.
    const text = JSON.stringify(recording.messages);
    expect(text).not.toContain(key.secret);
    expect(text).not.toContain(token.split('.')[2]!);
  });

  it('reports a store that cannot answer as unavailable, and the failed key store call', async () => {
    const down: KeyStore = {
      create: () => Promise.reject(new Error('db down')),
      findActive: () => Promise.reject(new Error('db down')),
      listByAccount: () => Promise.reject(new Error('db down')),
      revoke: () => Promise.reject(new Error('db down')),
      recordUse: () => {},
    };
    const { authenticator, key } = await setup(down);
    recording = record();
    await expect(authenticator.authenticate(bearer(key.secret))).rejects.toBeInstanceOf(UnavailableError);
    expect(recording.of(DIAGNOSTICS_CHANNELS.authenticate)).toEqual([
      { credential: 'api_key', outcome: 'unavailable', reason: 'key_store', durationMs: anyDuration },
    ]);
    const [call] = recording.of(DIAGNOSTICS_CHANNELS.keyStore);
    expect(call).toMatchObject({ operation: 'findActive', durationMs: anyDuration });
    expect((call!['error'] as Error).message).toBe('db down');
  });
});

describe('drops-auth:key-store and drops-auth:revocation', () => {
  it('report each store call of the authenticator and the key manager, and each revocation', async () => {
    const { authenticator, keys, key } = await setup();
    recording = record();
    const alice = await authenticator.authenticate(bearer(idp.mintIdToken({ sub: 'alice' })));
    await authenticator.authenticate(bearer(key.secret));
    const minted = await keys.mint(alice, { name: 'ci' });
    await keys.list(alice);
    await keys.revoke(alice, minted.id);
    await expect(keys.revoke(alice, minted.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(keys.revoke(alice, 'not-an-id')).rejects.toBeInstanceOf(InvalidRequestError);

    expect(recording.of(DIAGNOSTICS_CHANNELS.keyStore)).toEqual(
      ['findActive', 'create', 'listByAccount', 'revoke', 'revoke'].map((operation) => ({ operation, durationMs: anyDuration, error: null })),
    );
    // The malformed id is a 400 before any store call: no revocation to report.
    expect(recording.of(DIAGNOSTICS_CHANNELS.revocation)).toEqual([
      { keyId: minted.id, outcome: 'revoked', durationMs: anyDuration, instancesAcknowledged: null },
      { keyId: minted.id, outcome: 'not_found', durationMs: anyDuration, instancesAcknowledged: null },
    ]);
    expect(JSON.stringify(recording.messages)).not.toContain(minted.apiKey);
  });

  it('reports a revocation the store could not make as failed, and its error', async () => {
    const { authenticator } = await setup();
    const failing = new MemoryKeyStore();
    failing.revoke = () => Promise.reject(new Error('db down'));
    const keys = createKeyManager({ keyStore: failing });
    const alice = await authenticator.authenticate(bearer(idp.mintIdToken({ sub: 'alice' })));
    recording = record();
    await expect(keys.revoke(alice, 'a'.repeat(64))).rejects.toBeInstanceOf(UnavailableError);
    expect(recording.of(DIAGNOSTICS_CHANNELS.revocation)).toEqual([
      { keyId: 'a'.repeat(64), outcome: 'failed', durationMs: anyDuration, instancesAcknowledged: null },
    ]);
    expect(recording.of(DIAGNOSTICS_CHANNELS.keyStore)).toEqual([
      { operation: 'revoke', durationMs: anyDuration, error: expect.any(Error) as unknown },
    ]);
  });
});

describe('drops-auth:jwks-fetch', () => {
  it('reports each fetch of the key set: its outcome, key count and duration', async () => {
    const own = await LocalIdentityProvider.start();
    try {
      recording = record();
      const verifier = createIdTokenVerifier({ ...own.verifierOptions });
      await verifier.warmUp();
      own.simulateOutage('error500');
      const failing = createIdTokenVerifier({ ...own.verifierOptions });
      await expect(failing.warmUp()).rejects.toBeInstanceOf(UnavailableError);
      expect(recording.of(DIAGNOSTICS_CHANNELS.jwksFetch)).toEqual([
        { url: own.jwksUrl, outcome: 'fetched', keyCount: own.jwks.keys.length, durationMs: anyDuration, error: null },
        { url: own.jwksUrl, outcome: 'failed', keyCount: null, durationMs: anyDuration, error: expect.any(Error) as unknown },
      ]);
      expect(own.jwks.keys.length).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
  });
});

describe('where there is no node:diagnostics_channel', () => {
  it('finds nothing to publish on, and its channels stay silent', () => {
    expect(loadDiagnosticsChannel(null)).toBeUndefined(); // no `process` at all: a browser, workerd
    expect(loadDiagnosticsChannel({})).toBeUndefined();
    expect(loadDiagnosticsChannel({ getBuiltinModule: () => undefined })).toBeUndefined();
    expect(
      loadDiagnosticsChannel({
        getBuiltinModule: () => {
          throw new Error('no such module');
        },
      }),
    ).toBeUndefined();
    const silent = channelOf<unknown>(DIAGNOSTICS_CHANNELS.authenticate, undefined);
    expect(silent.hasSubscribers).toBe(false);
    expect(() => silent.publish({})).not.toThrow();
  });

  it('uses the runtime built-in where there is one: the channel a subscriber gets by name', () => {
    const module = loadDiagnosticsChannel();
    expect(module).toBeDefined();
    const seen: unknown[] = [];
    const listener = (m: unknown): void => void seen.push(m);
    subscribe('drops-auth:test-lookup', listener);
    try {
      const channel = channelOf<{ n: number }>('drops-auth:test-lookup', module);
      expect(channel.hasSubscribers).toBe(true);
      channel.publish({ n: 1 });
      expect(seen).toEqual([{ n: 1 }]);
    } finally {
      unsubscribe('drops-auth:test-lookup', listener);
    }
  });
});
