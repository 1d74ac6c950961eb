import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeKeyStoreConformance } from '../testing/key-store-conformance.js';
import { MemoryKeyStore } from './memory-key-store.js';

describeKeyStoreConformance(
  { describe, it, beforeEach, afterEach },
  'MemoryKeyStore',
  async () => ({ store: new MemoryKeyStore({ minUseIntervalMs: 0 }) }),
  { sessionCutoffs: true },
);

describe('MemoryKeyStore', () => {
  it('hands out copies of lastUsedAt: changing one changes nothing stored', async () => {
    const store = new MemoryKeyStore({ minUseIntervalMs: 0 });
    const at = new Date(1_700_000_000_000);
    for (const id of ['a'.repeat(64), 'b'.repeat(64)]) {
      await store.create({
        id,
        accountId: 'acct_1',
        prefix: 'hp_xxxxxxx',
        name: null,
        createdAt: new Date(0),
        provenance: null,
        expiresAt: null,
      });
      store.recordUse(id, at); // one Date for both, as the authenticator does within a millisecond
    }
    const [first] = await store.listByAccount('acct_1');
    first!.lastUsedAt!.setTime(0);
    for (const key of await store.listByAccount('acct_1')) expect(key.lastUsedAt).toEqual(new Date(1_700_000_000_000));
  });

  it('keeps copies of the dates it is given, and hands out copies: changing one changes nothing stored', async () => {
    const store = new MemoryKeyStore();
    const createdAt = new Date(1_000);
    const expiresAt = new Date(9_000_000_000_000);
    const id = 'd'.repeat(64);
    await store.create({ id, accountId: 'acct_dates', prefix: 'hp_xxxxxxx', name: null, createdAt, provenance: null, expiresAt });
    createdAt.setTime(0);
    expiresAt.setTime(0);
    const [listed] = await store.listByAccount('acct_dates');
    listed!.createdAt.setTime(2);
    listed!.expiresAt!.setTime(2);
    store.findActive(id)!.expiresAt!.setTime(3);
    expect(await store.listByAccount('acct_dates')).toEqual([
      { id, prefix: 'hp_xxxxxxx', name: null, createdAt: new Date(1_000), lastUsedAt: null, expiresAt: new Date(9_000_000_000_000) },
    ]);
  });
});

describe('MemoryKeyStore key events', () => {
  it('asks for the request details only for a use it keeps: once per key a minute', async () => {
    const store = new MemoryKeyStore();
    const id = 'c'.repeat(64);
    await store.create({
      id,
      accountId: 'acct_thunk',
      prefix: 'hp_xxxxxxx',
      name: null,
      createdAt: new Date(0),
      provenance: null,
      expiresAt: null,
    });
    let calls = 0;
    const info = (): { ip: string; userAgent: string } => {
      calls++;
      return { ip: '192.0.2.1', userAgent: 'ua' };
    };
    const t0 = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 100; i++) store.recordUse(id, new Date(t0 + i * 100), info);
    expect(calls).toBe(1);
    store.recordUse(id, new Date(t0 + 60_000), info);
    store.recordUse('d'.repeat(64), new Date(t0), info); // unknown key: nothing to keep
    expect(calls).toBe(1); // a later use is no first use: its details are never needed
    const { events } = await store.listEvents('acct_thunk', { limit: 10 });
    expect(events.map((e) => [e.type, e.ip])).toEqual([
      ['first_used', '192.0.2.1'],
      ['minted', null],
    ]);
  });

  it('cuts request details to a bounded length', async () => {
    const store = new MemoryKeyStore();
    const id = 'e'.repeat(64);
    await store.create({
      id,
      accountId: 'acct_long',
      prefix: 'hp_xxxxxxx',
      name: null,
      createdAt: new Date(0),
      provenance: null,
      expiresAt: null,
    });
    store.recordUse(id, new Date(), () => ({ ip: '1'.repeat(1_000), userAgent: 'u'.repeat(100_000) }));
    const [first] = (await store.listEvents('acct_long', { limit: 1 })).events;
    expect([first?.ip?.length, first?.userAgent?.length]).toEqual([64, 256]);
  });

  it('hands out copies of events: changing one changes nothing stored', async () => {
    const store = new MemoryKeyStore();
    await store.create({
      id: 'f'.repeat(64),
      accountId: 'acct_copy',
      prefix: 'hp_xxxxxxx',
      name: null,
      createdAt: new Date(5),
      provenance: null,
      expiresAt: null,
    });
    const [first] = (await store.listEvents('acct_copy', { limit: 1 })).events;
    first!.at.setTime(0);
    expect((await store.listEvents('acct_copy', { limit: 1 })).events[0]?.at).toEqual(new Date(5));
  });
});
