import { afterAll, describe, expect, it } from 'vitest';
import { groupMembers, killChildServers, listening, processAlive, spawnMain, startChildServer } from './child-server.js';
import { dataDirForTest } from './pglite-template.js';

/** Whether a new request to `url` fails to connect. */
async function refused(url: string): Promise<boolean> {
  try {
    await (await fetch(`${url}/healthz`)).arrayBuffer();
    return false;
  } catch {
    return true;
  }
}

// The crash tests mean to kill the server. These hold the helper they use to it.
describe('child servers', () => {
  afterAll(killChildServers, 30_000);

  it('signals the process that listens: SIGKILL ends it, and its port stops answering', async () => {
    const server = await startChildServer({ DATA_DIR: await dataDirForTest() });
    expect(processAlive(server.pid)).toBe(true);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await server.kill();
    expect(await server.exited).toBe('SIGKILL');
    expect(processAlive(server.pid)).toBe(false);
    expect(groupMembers(server.pid)).toEqual([]);
    expect(await refused(server.url)).toBe(true);
  }, 60_000);

  // What the crash tests used to do, kept as the reason for `node --import tsx` and process groups.
  it('with a tsx wrapper, another pid listens and outlives a SIGKILL to the wrapper; killing the group ends it', async () => {
    const wrapped = spawnMain({ PORT: '0', LOG_FORMAT: 'json', DATA_DIR: await dataDirForTest() }, { wrapper: true });
    const { url, pid } = await listening(wrapped);
    expect(pid).not.toBe(wrapped.pid);
    process.kill(wrapped.pid, 'SIGKILL');
    expect(await wrapped.exited).toBe('SIGKILL');
    expect(processAlive(pid)).toBe(true);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    await killChildServers();
    expect(processAlive(pid)).toBe(false);
    expect(await refused(url)).toBe(true);
  }, 60_000);
});
