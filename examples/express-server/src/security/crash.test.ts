import { describe, expect, it } from 'vitest';
import { processAlive, startChildServer } from '../testing/child-server.js';
import { useKillableServerBackend } from '../testing/killable-server-backend.js';
import { bearer, BACKENDS, type Backend } from '../testing/test-server.js';

interface Minted {
  readonly apiKey: string;
  readonly id: string;
}

// The server is killed with SIGKILL in the middle of minting and revoking: what it answered must
// hold after a restart. A 201 is a key that works; a 204 is a key that stays revoked.
describe.each(BACKENDS)('SIGKILL while minting and revoking (%s)', (backend: Backend) => {
  const data = useKillableServerBackend(backend, 'drops-crash-');

  it('keeps every key whose mint answered 201, and keeps revoked every key whose revoke answered 204', async () => {
    const first = await startChildServer(data.env);
    const call = (path: string, init: RequestInit): Promise<Response> => fetch(`${first.url}${path}`, init);

    const minted: Minted[] = [];
    const revoked = new Set<string>(); // answered 204
    const revokeTried = new Set<string>(); // sent, answered or not
    let answered = 0;
    let killed = false;
    const accounts = ['crash-a', 'crash-b', 'crash-c', 'crash-d'];

    const worker = async (w: number): Promise<void> => {
      for (let i = 0; !killed; i++) {
        const sub = accounts[(w + i) % accounts.length]!;
        const token = data.idp.mintIdToken({ sub });
        try {
          const victim = minted.find((k, n) => n % 3 === w % 3 && !revokeTried.has(k.id));
          if (i % 3 === 2 && victim !== undefined) {
            revokeTried.add(victim.id);
            // A key revokes itself: no account lookup needed for the test to know whose it is.
            const res = await call(`/keys/${victim.id}`, { method: 'DELETE', headers: bearer(victim.apiKey) });
            if (res.status === 204) revoked.add(victim.id);
            else await res.arrayBuffer();
          } else {
            const res = await call('/keys', { method: 'POST', headers: bearer(token), body: JSON.stringify({ name: `w${w}-${i}` }) });
            if (res.status === 201) minted.push((await res.json()) as Minted);
            else await res.arrayBuffer();
          }
          answered++;
        } catch {
          // The connection died with the server: no answer, no promise made.
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    // Kill once enough has happened; counted, not timed.
    while (answered < 150) await new Promise((r) => setTimeout(r, 5));
    await first.kill();
    killed = true;
    await Promise.all(workers);
    // The process that listened (startChildServer checks its pid) is the one that died.
    expect(await first.exited).toBe('SIGKILL');
    expect(processAlive(first.pid)).toBe(false);
    await expect(fetch(`${first.url}/healthz`)).rejects.toThrow();
    expect(minted.length).toBeGreaterThan(50);
    expect(revoked.size).toBeGreaterThan(10);

    const second = await startChildServer(data.env);
    const whoami = (apiKey: string): Promise<Response> => fetch(`${second.url}/whoami`, { headers: bearer(apiKey) });
    const lost: string[] = [];
    const resurrected: string[] = [];
    for (const key of minted) {
      const res = await whoami(key.apiKey);
      await res.arrayBuffer();
      if (revoked.has(key.id)) {
        if (res.status !== 401) resurrected.push(`${key.id}: ${res.status}`);
      } else if (!revokeTried.has(key.id)) {
        if (res.status !== 200) lost.push(`${key.id}: ${res.status}`);
      } else {
        expect([200, 401]).toContain(res.status); // revoke sent, never answered: either is honest
      }
    }
    expect(lost).toEqual([]);
    expect(resurrected).toEqual([]);
    await second.stop();
    expect(await second.exited).toBe(0);
  }, 120_000);
});
