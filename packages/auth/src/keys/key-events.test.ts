import { describe, expect, it } from 'vitest';
import type { Principal } from '../authenticator/principal.js';
import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import type { KeyStore } from '../key-store/key-store.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from './create-key-manager.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const alice: Principal = { accountId: 'acct_alice', credential: 'id_token', claims: { sub: 'alice', iss: 'i', aud: 'a', iat: 1, exp: 2 } };
const bob: Principal = { accountId: 'acct_bob', credential: 'id_token', claims: { sub: 'bob', iss: 'i', aud: 'a', iat: 1, exp: 2 } };

function setup(keyStore: KeyStore = new MemoryKeyStore()) {
  const time = { now: NOW };
  return { keys: createKeyManager({ keyStore, clock: () => time.now, mintRateLimit: false }), keyStore, time };
}

async function failure(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: { status: number; message: string }) => error,
  );
}

describe('KeyManager key events', () => {
  it('writes mint and revoke events with who acted and what the request showed, as JSON newest first', async () => {
    const { keys, time } = setup();
    const minted = await keys.mint(alice, { name: 'ci' }, { ip: '203.0.113.1', userAgent: 'Mozilla/5.0' });
    time.now += 1_000;
    const viaKey: Principal = { accountId: 'acct_alice', credential: 'api_key', keyId: minted.id };
    await keys.revoke(viaKey, minted.id, { ip: '203.0.113.2' });
    const second = await keys.mint(alice);
    await keys.revoke(alice, second.id);
    expect(await keys.events(alice)).toEqual({
      events: [
        {
          type: 'revoked',
          keyId: second.id,
          prefix: second.prefix,
          name: null,
          at: new Date(NOW + 1_000).toISOString(),
          source: 'api',
          actor: 'alice',
          ip: null,
          userAgent: null,
        },
        {
          type: 'minted',
          keyId: second.id,
          prefix: second.prefix,
          name: null,
          at: new Date(NOW + 1_000).toISOString(),
          source: 'api',
          actor: 'alice',
          ip: null,
          userAgent: null,
        },
        {
          type: 'revoked',
          keyId: minted.id,
          prefix: minted.prefix,
          name: 'ci',
          at: new Date(NOW + 1_000).toISOString(),
          source: 'api',
          actor: minted.id,
          ip: '203.0.113.2',
          userAgent: null,
        },
        {
          type: 'minted',
          keyId: minted.id,
          prefix: minted.prefix,
          name: 'ci',
          at: new Date(NOW).toISOString(),
          source: 'api',
          actor: 'alice',
          ip: '203.0.113.1',
          userAgent: 'Mozilla/5.0',
        },
      ],
      next: null,
    });
    expect(await keys.events(bob)).toEqual({ events: [], next: null });
  });

  it('pages with limit and cursor, from a query string or numbers', async () => {
    const { keys } = setup();
    for (let i = 0; i < 5; i++) await keys.mint(alice, { name: `k${i}` });
    const first = await keys.events(alice, { limit: '2' });
    expect(first.events.map((e) => e.name)).toEqual(['k4', 'k3']);
    expect(first.next).toEqual(expect.any(String));
    const second = await keys.events(alice, { limit: 2, cursor: first.next });
    expect(second.events.map((e) => e.name)).toEqual(['k2', 'k1']);
    const last = await keys.events(alice, { limit: 2, cursor: second.next });
    expect([last.events.map((e) => e.name), last.next]).toEqual([['k0'], null]);
    // Empty cursor and limit: the first page with the default limit.
    expect((await keys.events(alice, { cursor: '', limit: '' })).events).toHaveLength(5);
  });

  it('defaults to 50 events a page', async () => {
    const { keys } = setup();
    for (let i = 0; i < 60; i++) await keys.mint(alice);
    const page = await keys.events(alice);
    expect(page.events).toHaveLength(50);
    expect((await keys.events(alice, { cursor: page.next })).events).toHaveLength(10);
  });

  it.each([
    ['limit 0', { limit: 0 }],
    ['limit 101', { limit: 101 }],
    ['limit "101"', { limit: '101' }],
    ['limit 1.5', { limit: 1.5 }],
    ['limit "-1"', { limit: '-1' }],
    ['limit "ten"', { limit: 'ten' }],
    ['limit "1e2"', { limit: '1e2' }],
    ['a non-string cursor', { cursor: 12 }],
    ['an overlong cursor', { cursor: '1'.repeat(65) }],
    ['a malformed cursor', { cursor: 'abc' }],
    ['a cursor that is not a decimal', { cursor: '0x1f' }],
    ['a page that is not an object', 'limit=5'],
  ])('refuses %s with a 400', async (_label, page) => {
    const { keys } = setup();
    await keys.mint(alice);
    const error = await failure(keys.events(alice, page as never));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.status).toBe(400);
  });

  it('answers 503 when the store cannot list events', async () => {
    const memory = new MemoryKeyStore();
    const down: KeyStore = Object.assign(Object.create(memory) as KeyStore, {
      listEvents: () => Promise.reject(new Error('connection refused')),
    });
    const error = await failure(setup(down).keys.events(alice));
    expect(error).toBeInstanceOf(UnavailableError);
  });
});
