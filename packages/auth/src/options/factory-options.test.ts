import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import { firebase } from '../id-token/presets.js';
import { createKeyManager } from '../keys/create-key-manager.js';
import { LastUsedBatcher } from '../key-store/last-used-batcher.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';

const keyStore = new MemoryKeyStore();
const provider = { issuer: 'https://issuer.example', audience: 'aud', jwksUrl: 'https://issuer.example/jwks' };
const flush = async (): Promise<void> => {};
/** A store of the hot path's part alone (`KeyLookup`). */
const lookupOnly = { findActive: () => null, now: () => 0, recordUse: () => {}, recordExpired: () => {} };

describe('factory options', () => {
  it.each<[string, () => unknown, string]>([
    [
      'createAuthenticator, a keyStore that is not one',
      () => createAuthenticator({ keyStore: { findActive: 1 } as never }),
      'createAuthenticator: options.keyStore: expected a store with KeyLookup: missing KeyLookup.findActive, KeyLookup.now, KeyLookup.recordUse, KeyLookup.recordExpired',
    ],
    [
      'createKeyManager, a store of the hot path only',
      () => createKeyManager({ keyStore: lookupOnly } as never),
      'createKeyManager: options.keyStore: expected a store with KeyWrites, KeyEventLog, PendingRevocationQueue: missing KeyWrites.create, KeyWrites.createWithinLimit, KeyWrites.listByAccount, KeyWrites.revoke, KeyWrites.roll, KeyWrites.revokeAll, KeyWrites.revokeMany, KeyEventLog.listEvents, PendingRevocationQueue.recordRevocationRequest, PendingRevocationQueue.pendingRevocationRequests, PendingRevocationQueue.completeRevocationRequest',
    ],
    [
      'createAuthenticator, no options at all',
      () => createAuthenticator(undefined as never),
      'createAuthenticator: options: expected an object',
    ],
    [
      'createAuthenticator, a resolveAccount that is not a function',
      () => createAuthenticator({ keyStore, resolveAccount: 'sub' as never }),
      'createAuthenticator: options.resolveAccount: expected a function',
    ],
    [
      'createAuthenticator, no keyStore',
      () => createAuthenticator({} as never),
      'createAuthenticator: options.keyStore: expected a store with KeyLookup: missing KeyLookup.findActive, KeyLookup.now, KeyLookup.recordUse, KeyLookup.recordExpired',
    ],
    [
      'createIdTokenVerifier, a plain-HTTP key set',
      () => createIdTokenVerifier({ ...provider, jwksUrl: 'http://issuer.example/jwks' }),
      'createIdTokenVerifier: options.jwksUrl: must be an https: URL (http: only for 127.0.0.0/8, localhost or [::1])',
    ],
    [
      'createIdTokenVerifier, a tolerance over five minutes',
      () => createIdTokenVerifier({ ...provider, clockToleranceSeconds: 301 }),
      'createIdTokenVerifier: options.clockToleranceSeconds: must be at most 300',
    ],
    [
      'createIdTokenVerifier, an empty audience list',
      () => createIdTokenVerifier({ ...provider, audience: [] }),
      'createIdTokenVerifier: options.audience: must hold at least 1 item',
    ],
    [
      'new MemoryKeyStore, a negative interval',
      () => new MemoryKeyStore({ minUseIntervalMs: -1 }),
      'new MemoryKeyStore: options.minUseIntervalMs: must be at least 0',
    ],
    [
      'new LastUsedBatcher, a fractional interval',
      () => new LastUsedBatcher({ flush, flushIntervalMs: 1.5 }),
      'new LastUsedBatcher: options.flushIntervalMs: expected an integer',
    ],
  ])('%s: a TypeError that names the factory and the option', (_label, make, message) => {
    expect(make).toThrow(new TypeError(message));
  });

  it.each<[string, () => unknown]>([
    ['createAuthenticator', () => createAuthenticator({ keyStore, keystore: keyStore } as never)],
    ['createKeyManager', () => createKeyManager({ keyStore, maxKeys: 3 } as never)],
    ['createIdTokenVerifier', () => createIdTokenVerifier({ ...provider, clockTolerance: 5 } as never)],
    ['new MemoryKeyStore', () => new MemoryKeyStore({ minUseInterval: 0 } as never)],
    ['new LastUsedBatcher', () => new LastUsedBatcher({ flush, interval: 1 } as never)],
    ['firebase', () => firebase({ projectId: 'my-project', project: 'x' } as never)],
  ])('%s refuses an option it does not know', (factory, make) => {
    expect(make).toThrow(TypeError);
    expect(make).toThrow(new RegExp(`^${factory.replace('(', '\\(')}.*unknown option "\\w+"`));
  });

  it('never embeds zod’s raw JSON in a message', () => {
    try {
      createIdTokenVerifier({ issuer: '', audience: 3, jwksUrl: 'ftp://x' } as never);
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toMatch(/[[{]\s*"/);
      expect((error as Error).message).toMatch(/^createIdTokenVerifier: options\.issuer: must not be empty; /);
    }
  });
});
