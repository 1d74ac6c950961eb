import { randomUUID } from 'node:crypto';
import { createAuthenticator, generateApiKey, UnauthenticatedError, UnavailableError } from '@drops/auth';
import { startTcpProxy, type TcpProxy } from '@drops/auth/testing';
import { describeKeyLookupConformance, sampleKeyRecord } from '@drops/auth/testing/conformance';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteKeysUnder } from './delete-keys-under.js';
import { RedisKeyLookup } from './redis-key-lookup.js';

/** The Redis this machine type runs; nothing here flushes it: every key is under this run's prefix. */
const REDIS = { host: '127.0.0.1', port: 6379 };
const URL = `redis://${REDIS.host}:${REDIS.port}`;
const prefix = `drops-test:${randomUUID()}:`;
/** Short, so that a stalled Redis fails a test in well under its time limit. */
const commandTimeoutMs = 300;

/** Closes `closing`, and deletes everything this run wrote. */
async function cleanUp(closing: { close(): Promise<unknown> }[]): Promise<void> {
  await Promise.allSettled(closing.map((c) => c.close()));
  await deleteKeysUnder(URL, prefix);
}

const open = (url = URL): Promise<RedisKeyLookup> => RedisKeyLookup.open({ url, prefix, commandTimeoutMs });

describeKeyLookupConformance(
  { describe, it, beforeEach, afterEach },
  'RedisKeyLookup',
  async () => {
    const opened: { close(): Promise<unknown> }[] = [];
    const track = async <T extends { close(): Promise<unknown> }>(made: Promise<T>): Promise<T> => {
      const value = await made;
      opened.push(value);
      return value;
    };
    return {
      store: await track(open()),
      peer: await track(open()),
      reopen: () => track(open()),
      // A Redis that went away: a store connected through a proxy, which then drops every connection.
      unreachable: async () => {
        const proxy = await track(startTcpProxy(REDIS));
        const store = await track(open(`redis://127.0.0.1:${proxy.port}`));
        proxy.cut();
        return store;
      },
      cleanup: () => cleanUp(opened),
    };
  },
  { shared: true, persistent: true, remote: true },
);

describe('RedisKeyLookup behind createAuthenticator', () => {
  let proxy: TcpProxy;
  let store: RedisKeyLookup;

  beforeEach(async () => {
    proxy = await startTcpProxy(REDIS);
    store = await open(`redis://127.0.0.1:${proxy.port}`);
  });
  afterEach(() => cleanUp([store, proxy]));
  afterAll(() => cleanUp([]));

  /** Mints a key straight into the store, as a key manager over a store with every part would. */
  async function mint(expiresAt: Date | null = null): Promise<string> {
    const key = sampleKeyRecord({ accountId: 'acct_redis', expiresAt });
    await store.create(key);
    return key.secret;
  }

  it('authenticates a live key, and answers a revoked, an expired and an unknown key with the same 401', async () => {
    const authenticator = createAuthenticator({ keyStore: store });
    const live = await mint();
    expect(await authenticator.authenticate(`Bearer ${live}`)).toMatchObject({ accountId: 'acct_redis', credential: 'api_key' });
    const revoked = sampleKeyRecord({ accountId: 'acct_redis' });
    await store.create(revoked);
    expect(await store.revoke('acct_redis', revoked.id, { at: new Date() })).toBe(true);
    const refused = [revoked.secret, await mint(new Date(Date.now() - 1_000)), generateApiKey().secret];
    const errors = await Promise.all(refused.map((secret) => authenticator.authenticate(`Bearer ${secret}`).catch((e: unknown) => e)));
    for (const error of errors) expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(new Set(errors.map((e) => (e as UnauthenticatedError).bodyText)).size).toBe(1);
  });

  it('answers 503, never 401, when Redis goes away or stops answering, and authenticates again once it is back', async () => {
    const authenticator = createAuthenticator({ keyStore: store });
    const live = await mint();
    for (const outage of ['cut', 'stall'] as const) {
      proxy[outage]();
      for (const secret of [live, generateApiKey().secret]) {
        const error = await authenticator.authenticate(`Bearer ${secret}`).catch((e: unknown) => e);
        expect(error, `${outage}: ${secret === live ? 'a live key' : 'an unknown key'}`).toBeInstanceOf(UnavailableError);
        expect((error as UnavailableError).status).toBe(503);
      }
      proxy.restore();
      await expect.poll(() => authenticator.authenticate(`Bearer ${live}`).catch(() => null), { timeout: 10_000 }).not.toBeNull();
    }
  });
});
