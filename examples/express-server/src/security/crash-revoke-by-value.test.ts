import { openPGliteKeyStore, openPostgresKeyStore, type PostgresKeyStore } from '@drops/auth-postgres';
import { describe, expect, it } from 'vitest';
import { startChildServer } from '../testing/child-server.js';
import { useKillableServerBackend } from '../testing/killable-server-backend.js';
import { bearer, BACKENDS, type Backend } from '../testing/test-server.js';

// POST /credentials/revoke answers once the request is recorded, and revokes after. A server that
// dies between the two leaves the record: the next server to start carries it out.
describe.each(BACKENDS)('a revocation by value recorded by a server killed before carrying it out (%s)', (backend: Backend) => {
  const data = useKillableServerBackend(backend, 'drops-pending-');

  /** The store the killed server wrote to, opened as the dead process left it. */
  const openStore = (): Promise<PostgresKeyStore> =>
    data.dataDir !== undefined ? openPGliteKeyStore({ dataDir: data.dataDir }) : openPostgresKeyStore({ connectionString: data.db!.url });

  it("is carried out by the next server: the key ends revoked, with the request's event", async () => {
    const first = await startChildServer(data.env);
    const res = await fetch(`${first.url}/keys`, {
      method: 'POST',
      headers: bearer(data.idp.mintIdToken({ sub: 'pending-victim' })),
      body: '{}',
    });
    expect(res.status).toBe(201);
    const key = (await res.json()) as { apiKey: string; id: string };
    await first.kill();
    expect(await first.exited).toBe('SIGKILL');

    // What the killed server had written when it answered 202 and died before revoking: the record.
    const store = await openStore();
    await store.recordRevocationRequest({
      keyIds: [key.id],
      at: new Date(),
      event: { source: 'revoke_by_value', actor: null, ip: '198.51.100.77', userAgent: 'leak-reporter/1', url: null },
    });
    expect(await store.findActive(key.id)).not.toBeNull();
    await store.close();

    const second = await startChildServer(data.env);
    const whoami = async (): Promise<number> => {
      const r = await fetch(`${second.url}/whoami`, { headers: bearer(key.apiKey) });
      await r.arrayBuffer();
      return r.status;
    };
    let status = await whoami();
    for (let i = 0; i < 400 && status === 200; i++) {
      await new Promise((r) => setTimeout(r, 25));
      status = await whoami();
    }
    expect(status).toBe(401);
    const events = await fetch(`${second.url}/keys/events`, { headers: bearer(data.idp.mintIdToken({ sub: 'pending-victim' })) });
    const [revoked] = ((await events.json()) as { events: Array<{ type: string; keyId: string; source: string; ip: string }> }).events;
    expect([revoked?.type, revoked?.keyId, revoked?.source, revoked?.ip]).toEqual(['revoked', key.id, 'revoke_by_value', '198.51.100.77']);
    await second.stop();
    expect(await second.exited).toBe(0);
  }, 120_000);
});
