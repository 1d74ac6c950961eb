import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { generateApiKey } from '../api-key/generate-api-key.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import type { KeyStore } from '../key-store/key-store.js';
import type { RevocationReceipt } from '../key-store/key-writes.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from '../keys/create-key-manager.js';
import type { MintedKeyJson } from '../keys/key-json.js';
import { revokeGitHubMatches } from '../secret-scanning/github-secret-scanning-feedback.js';
import { delegatingKeyStore } from '../testing/delegating-key-store.js';
import { LocalIdentityProvider } from '../testing/local-identity-provider.js';
import { channelOf, loadDiagnosticsChannel } from './diagnostics-channel.js';
import { DIAGNOSTICS_CHANNELS } from './diagnostics-messages.js';

/** Subscribes to every drops-auth channel; `stop()` unsubscribes. */
function record(): {
  messages: Array<{ channel: string; message: Record<string, unknown> }>;
  of(channel: string): Array<Record<string, unknown>>;
  stop(): void;
} {
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
  await keyStore
    .create({ id: key.id, accountId: 'acct_1', prefix: key.prefix, name: null, createdAt: new Date(0), provenance: null, expiresAt: null })
    .catch(() => {});
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
    await authenticator.authenticate(bearer(`hp_${'A'.repeat(42)}B`)).catch(() => {});
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
    const fail = (): Promise<never> => Promise.reject(new Error('db down'));
    const down = delegatingKeyStore(new MemoryKeyStore(), {
      create: fail,
      createWithinLimit: fail,
      findActive: fail,
      listByAccount: fail,
      revoke: fail,
      revokeMany: fail,
      listEvents: fail,
    });
    const { authenticator, key } = await setup(down);
    recording = record();
    await expect(authenticator.authenticate(bearer(key.secret))).rejects.toBeInstanceOf(UnavailableError);
    expect(recording.of(DIAGNOSTICS_CHANNELS.authenticate)).toEqual([
      { credential: 'api_key', outcome: 'unavailable', reason: 'key_store', durationMs: anyDuration },
    ]);
    const [call] = recording.of(DIAGNOSTICS_CHANNELS.keyStore);
    expect(call).toMatchObject({ operation: 'findActive', durationMs: anyDuration, fromMemory: false });
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
      ['findActive', 'create', 'listByAccount', 'revoke', 'revoke'].map((operation) => ({
        operation,
        durationMs: anyDuration,
        error: null,
        // MemoryKeyStore answers findActive at once, from memory; its other calls are async.
        fromMemory: operation === 'findActive',
      })),
    );
    // The malformed id is a 400 before any store call: no revocation to report.
    expect(recording.of(DIAGNOSTICS_CHANNELS.revocation)).toEqual([
      { keyId: minted.id, outcome: 'revoked', durationMs: anyDuration, instancesAcknowledged: null, leasesExpired: null },
      { keyId: minted.id, outcome: 'not_found', durationMs: anyDuration, instancesAcknowledged: null, leasesExpired: null },
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
      { keyId: 'a'.repeat(64), outcome: 'failed', durationMs: anyDuration, instancesAcknowledged: null, leasesExpired: null },
    ]);
    expect(recording.of(DIAGNOSTICS_CHANNELS.keyStore)).toEqual([
      { operation: 'revoke', durationMs: anyDuration, error: expect.any(Error) as unknown, fromMemory: false },
    ]);
  });
});

describe("drops-auth:revocation: every key revoked, by id or by value, with the store's receipt", () => {
  /** A memory store that hands `receipt` to every `report` it is given, and keeps what it was given. */
  function reportingStore(receipt: unknown): { store: KeyStore; reports: unknown[] } {
    const memory = new MemoryKeyStore();
    const reports: unknown[] = [];
    const overrides: Pick<KeyStore, 'revoke' | 'revokeMany'> = {
      async revoke(accountId, id, options) {
        reports.push(options.report);
        const revoked = await memory.revoke(accountId, id, options);
        options.report?.(receipt as RevocationReceipt);
        return revoked;
      },
      async revokeMany(ids, options) {
        reports.push(options.report);
        const results = await memory.revokeMany(ids, options);
        options.report?.(receipt as RevocationReceipt);
        return results;
      },
    };
    return { store: delegatingKeyStore(memory, overrides), reports };
  }

  async function aliceWithKeys(keyStore: KeyStore, count: number) {
    const { authenticator } = await setup(keyStore);
    const keys = createKeyManager({ keyStore, mintRateLimit: false });
    const alice = await authenticator.authenticate(bearer(idp.mintIdToken({ sub: 'alice' })));
    const minted = [];
    for (let i = 0; i < count; i++) minted.push(await keys.mint(alice));
    return { keys, alice, minted };
  }

  it('publishes one message per key revoked by value, naming its id, and none for entries that revoked nothing', async () => {
    const { keys, alice, minted } = await aliceWithKeys(new MemoryKeyStore(), 3);
    const [a, b, gone] = minted as [MintedKeyJson, MintedKeyJson, MintedKeyJson];
    await keys.revoke(alice, gone.id);
    const stranger = generateApiKey();
    recording = record();
    await keys.revokeBySecret([a.apiKey, 'not a key', stranger.secret, a.apiKey, gone.apiKey, b.apiKey], { source: 'revoke_by_value' });
    expect(recording.of(DIAGNOSTICS_CHANNELS.revocation)).toEqual([
      { keyId: a.id, outcome: 'revoked', durationMs: anyDuration, instancesAcknowledged: null, leasesExpired: null },
      { keyId: b.id, outcome: 'revoked', durationMs: anyDuration, instancesAcknowledged: null, leasesExpired: null },
    ]);
    // Again: every key is revoked already, nothing is revoked, nothing is published.
    await keys.revokeBySecret([a.apiKey, b.apiKey], { source: 'revoke_by_value' });
    expect(recording.of(DIAGNOSTICS_CHANNELS.revocation)).toHaveLength(2);
    const text = JSON.stringify(recording.messages);
    for (const secret of [a.apiKey, b.apiKey, gone.apiKey, stranger.secret]) expect(text).not.toContain(secret);
    // The hash of an entry that was never a key is not named either.
    expect(text).not.toContain(stranger.id);
  });

  it('publishes the keys GitHub secret scanning revoked, one call per URL', async () => {
    const { keys, minted } = await aliceWithKeys(new MemoryKeyStore(), 2);
    const [a, b] = minted as [MintedKeyJson, MintedKeyJson];
    recording = record();
    const match = (token: string, url: string) => ({ token, type: 'drops_api_key', url, source: 'content' });
    await revokeGitHubMatches(
      keys,
      [
        match(a.apiKey, 'https://github.com/o/r/blob/x/.env'),
        match(generateApiKey().secret, 'https://github.com/o/r/blob/x/.env'),
        match(b.apiKey, 'https://github.com/o/s/blob/y/ci.yml'),
      ],
      { ip: null, userAgent: null },
    );
    expect(recording.of(DIAGNOSTICS_CHANNELS.revocation)).toEqual([
      { keyId: a.id, outcome: 'revoked', durationMs: anyDuration, instancesAcknowledged: null, leasesExpired: null },
      { keyId: b.id, outcome: 'revoked', durationMs: anyDuration, instancesAcknowledged: null, leasesExpired: null },
    ]);
  });

  it("carries the store's receipt, from revoke and from revokeMany (one for the batch)", async () => {
    const { store } = reportingStore({ instancesAcknowledged: 3, leasesExpired: 1 });
    const { keys, alice, minted } = await aliceWithKeys(store, 3);
    const [a, b, c] = minted as [MintedKeyJson, MintedKeyJson, MintedKeyJson];
    recording = record();
    await keys.revoke(alice, a.id);
    await expect(keys.revoke(alice, a.id)).rejects.toBeInstanceOf(NotFoundError);
    await keys.revokeBySecret([b.apiKey, c.apiKey], { source: 'revoke_by_value' });
    const receipt = { instancesAcknowledged: 3, leasesExpired: 1 };
    expect(recording.of(DIAGNOSTICS_CHANNELS.revocation)).toEqual([
      { keyId: a.id, outcome: 'revoked', durationMs: anyDuration, ...receipt },
      { keyId: a.id, outcome: 'not_found', durationMs: anyDuration, ...receipt },
      { keyId: b.id, outcome: 'revoked', durationMs: anyDuration, ...receipt },
      { keyId: c.id, outcome: 'revoked', durationMs: anyDuration, ...receipt },
    ]);
  });

  it('publishes null for a receipt that is not counts, rather than what the store sent', async () => {
    const { store } = reportingStore({ instancesAcknowledged: -1, leasesExpired: 'many' });
    const { keys, alice, minted } = await aliceWithKeys(store, 1);
    recording = record();
    await keys.revoke(alice, minted[0]!.id);
    expect(recording.of(DIAGNOSTICS_CHANNELS.revocation)).toEqual([
      { keyId: minted[0]!.id, outcome: 'revoked', durationMs: anyDuration, instancesAcknowledged: null, leasesExpired: null },
    ]);
  });

  it('publishes nothing for a revocation by value the store failed: the failure is on drops-auth:key-store', async () => {
    const { minted } = await aliceWithKeys(new MemoryKeyStore(), 1);
    const down = new MemoryKeyStore();
    down.revokeMany = () => Promise.reject(new Error('db down'));
    recording = record();
    await expect(
      createKeyManager({ keyStore: down }).revokeBySecret([minted[0]!.apiKey], { source: 'revoke_by_value' }),
    ).rejects.toBeInstanceOf(UnavailableError);
    expect(recording.of(DIAGNOSTICS_CHANNELS.revocation)).toEqual([]);
    expect(recording.of(DIAGNOSTICS_CHANNELS.keyStore)).toEqual([
      { operation: 'revokeMany', durationMs: anyDuration, error: expect.any(Error) as unknown, fromMemory: false },
    ]);
  });

  it('with no subscriber, hands the store no report to call: no cost', async () => {
    const { store, reports } = reportingStore({ instancesAcknowledged: 1, leasesExpired: 0 });
    const { keys, alice, minted } = await aliceWithKeys(store, 2);
    await keys.revoke(alice, minted[0]!.id);
    await keys.revokeBySecret([minted[1]!.apiKey], { source: 'revoke_by_value' });
    expect(reports).toEqual([undefined, undefined]);
    recording = record();
    await keys.revokeBySecret([minted[1]!.apiKey], { source: 'revoke_by_value' });
    expect(reports[2]).toBeTypeOf('function');
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
