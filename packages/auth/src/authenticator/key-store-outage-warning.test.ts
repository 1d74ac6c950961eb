import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateApiKey } from '../api-key/generate-api-key.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { delegatingKeyStore } from '../testing/delegating-key-store.js';
import { createAuthenticator } from './create-authenticator.js';

/** A store whose lookups fail while `down` is set, as a database does during an outage. */
async function storeWithOutage() {
  const inner = new MemoryKeyStore();
  const key = generateApiKey();
  await inner.create({
    id: key.id,
    accountId: 'acct_1',
    prefix: key.prefix,
    name: null,
    createdAt: new Date(0),
    provenance: null,
    expiresAt: null,
  });
  const outage = { down: false };
  const keyStore = delegatingKeyStore(inner, {
    findActive: async (id) => {
      if (outage.down) throw new UnavailableError('key_store', { cause: new Error('connect ECONNREFUSED 127.0.0.1:5432') });
      return inner.findActive(id);
    },
  });
  return { keyStore, outage, bearer: `Bearer ${key.secret}`, secret: key.secret };
}

describe('a key store outage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is said once at warn with its cause, and its end once, never the key', async () => {
    const { keyStore, outage, bearer, secret } = await storeWithOutage();
    const warnings: string[] = [];
    const authenticator = createAuthenticator({ keyStore, onWarning: (message) => warnings.push(message) });

    await authenticator.authenticate(bearer);
    expect(warnings).toEqual([]);

    outage.down = true;
    for (let i = 0; i < 3; i++) await expect(authenticator.authenticate(bearer)).rejects.toBeInstanceOf(UnavailableError);
    expect(warnings).toEqual(['drops-auth: key store unusable, API keys answer 503: connect ECONNREFUSED 127.0.0.1:5432']);

    outage.down = false;
    for (let i = 0; i < 3; i++) await authenticator.authenticate(bearer);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toBe('drops-auth: key store usable again');
    expect(warnings.join('\n')).not.toContain(secret);
  });

  it('goes to console.warn when the app passes no onWarning', async () => {
    const { keyStore, outage, bearer } = await storeWithOutage();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const authenticator = createAuthenticator({ keyStore });
    outage.down = true;
    await expect(authenticator.authenticate(bearer)).rejects.toBeInstanceOf(UnavailableError);
    await expect(authenticator.authenticate(bearer)).rejects.toBeInstanceOf(UnavailableError);
    outage.down = false;
    await authenticator.authenticate(bearer);
    expect(warn.mock.calls).toEqual([
      ['drops-auth: key store unusable, API keys answer 503: connect ECONNREFUSED 127.0.0.1:5432'],
      ['drops-auth: key store usable again'],
    ]);
  });

  it('refuses an onWarning that is not a function', () => {
    expect(() => createAuthenticator({ keyStore: new MemoryKeyStore(), onWarning: 'console' as never })).toThrow(TypeError);
  });
});
