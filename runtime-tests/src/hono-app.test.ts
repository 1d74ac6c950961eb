import { fileURLToPath } from 'node:url';
import { LocalIdentityProvider, snapshotOf, UNIFORM_401 } from '@drops/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime, type Runtime, type RunningRuntime } from './start-runtime.js';

const ENTRY: Record<Runtime, string> = { bun: 'bun.ts', deno: 'deno.ts', workerd: 'worker.ts' };

// examples/hono-app, one source, served by each runtime's own entry (Node's is tested in the
// example itself): the README's flow over HTTP.
describe.each<Runtime>(['bun', 'deno', 'workerd'])('examples/hono-app on %s', (runtime) => {
  let idp: LocalIdentityProvider;
  let server: RunningRuntime;
  const call = (method: string, path: string, credential?: string, body?: string): Promise<Response> =>
    fetch(`${server.url}${path}`, {
      method,
      headers: credential === undefined ? {} : { authorization: `Bearer ${credential}` },
      ...(body === undefined ? {} : { body }),
    });

  beforeAll(async () => {
    idp = await LocalIdentityProvider.start({ audience: 'hono-app' });
    server = await startRuntime(runtime, {
      entry: fileURLToPath(new URL(`../../examples/hono-app/src/${ENTRY[runtime]}`, import.meta.url)),
      env: { AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience, AUTH_JWKS_URL: idp.jwksUrl },
    });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await idp?.close();
  });

  it('mints a key with an ID token, deploys and lists with it, and refuses it where a token is needed', async () => {
    expect((await call('GET', '/healthz')).status, server.output()).toBe(200);
    const token = idp.mintIdToken({ sub: 'acct_hono' });
    const minted = await call('POST', '/keys', token, JSON.stringify({ name: runtime }));
    expect(minted.status, server.output()).toBe(201);
    const { apiKey } = (await minted.json()) as { apiKey: string };

    expect((await call('POST', '/deploy', apiKey, '<h1>hi</h1>')).status).toBe(201);
    const drops = (await (await call('GET', '/drops', apiKey)).json()) as { drops: { owner: string }[] };
    expect(drops.drops.map((d) => d.owner)).toEqual(['acct_hono']);
    expect((await call('GET', '/account', token)).status).toBe(200);

    expect(await snapshotOf(await call('GET', '/account', apiKey))).toEqual(UNIFORM_401);
    expect(await snapshotOf(await call('POST', '/deploy', 'hp_bad'))).toEqual(UNIFORM_401);
  });
});
