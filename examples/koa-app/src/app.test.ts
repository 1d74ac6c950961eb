import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UNAUTHENTICATED_MESSAGE, createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore } from '@drops/auth';
import { LocalIdentityProvider } from '@drops/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';

const UNIFORM_401 = JSON.stringify({ error: UNAUTHENTICATED_MESSAGE });

let idp: LocalIdentityProvider;
let server: Server;
let base: string;
const logLines: string[] = [];

const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });

async function expect401(res: Response): Promise<void> {
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe('Bearer realm="drops"');
  expect(await res.text()).toBe(UNIFORM_401);
}

async function mintKey(sub: string): Promise<{ apiKey: string; id: string }> {
  const res = await fetch(`${base}/keys`, {
    method: 'POST',
    headers: { ...bearer(idp.mintIdToken({ sub })), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ci' }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { apiKey: string; id: string };
}

beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
  const keyStore = new MemoryKeyStore();
  const app = createApp({
    authenticator: createAuthenticator({
      keyStore,
      idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }),
    }),
    keys: createKeyManager({ keyStore }),
    log: (line) => logLines.push(line),
  });
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await idp?.close();
});

describe('the existing app still works', () => {
  it('serves its public routes without a credential', async () => {
    expect((await fetch(`${base}/`)).status).toBe(200);
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ ok: true });
  });

  it('keeps its request logger, which never logs a credential', async () => {
    const { apiKey } = await mintKey('acct-log');
    await fetch(`${base}/drops`, { headers: bearer(apiKey) });
    expect(logLines.some((line) => /^POST \/keys 201 [\d.]+ms$/.test(line))).toBe(true);
    expect(logLines.some((line) => /^GET \/drops 200 [\d.]+ms$/.test(line))).toBe(true);
    expect(logLines.join('\n')).not.toContain(apiKey);
  });
});

describe('GET /drops: an API key or an ID token', () => {
  it('lists the caller’s drops with an API key, and with an ID token', async () => {
    const { apiKey } = await mintKey('acct-drops');
    const deployed = await fetch(`${base}/deploy`, {
      method: 'POST',
      headers: { ...bearer(apiKey), 'content-type': 'application/json' },
      body: JSON.stringify({ html: '<h1>hi</h1>' }),
    });
    expect(deployed.status).toBe(201);
    const { slug } = (await deployed.json()) as { slug: string };
    for (const credential of [apiKey, idp.mintIdToken({ sub: 'acct-drops' })]) {
      const res = await fetch(`${base}/drops`, { headers: bearer(credential) });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { drops: Array<{ slug: string; owner: string }> };
      expect(body.drops).toEqual([expect.objectContaining({ slug, owner: 'acct-drops' })]);
    }
  });

  it('answers the uniform 401 without a valid credential', async () => {
    await expect401(await fetch(`${base}/drops`));
    await expect401(await fetch(`${base}/drops`, { headers: bearer(`hp_${'x'.repeat(43)}`) }));
  });
});

describe('GET /account: an ID token only', () => {
  it('accepts an ID token', async () => {
    const res = await fetch(`${base}/account`, {
      headers: bearer(idp.mintIdToken({ sub: 'acct-a', email: 'a@example.com' })),
    });
    expect(await res.json()).toEqual({ accountId: 'acct-a', email: 'a@example.com' });
  });

  it('refuses an API key with the uniform 401', async () => {
    const { apiKey } = await mintKey('acct-a');
    await expect401(await fetch(`${base}/account`, { headers: bearer(apiKey) }));
  });
});

describe('POST /deploy: no credential is fine, a bad one is refused', () => {
  it('deploys anonymously: no owner, expires in 7 days, never listed', async () => {
    const res = await fetch(`${base}/deploy`, { method: 'POST' });
    expect(res.status).toBe(201);
    const drop = (await res.json()) as { owner: null; createdAt: string; expiresAt: string };
    expect(drop.owner).toBeNull();
    expect(Date.parse(drop.expiresAt) - Date.parse(drop.createdAt)).toBe(7 * 24 * 3600 * 1000);
    const listed = await fetch(`${base}/drops`, { headers: bearer(idp.mintIdToken({ sub: 'acct-anon' })) });
    expect(await listed.json()).toEqual({ drops: [] });
  });

  it('deploys as the caller with a credential', async () => {
    const res = await fetch(`${base}/deploy`, { method: 'POST', headers: bearer(idp.mintIdToken({ sub: 'acct-d' })) });
    expect(((await res.json()) as { owner: string }).owner).toBe('acct-d');
  });

  it('refuses a bad credential, never falling back to anonymous', async () => {
    await expect401(await fetch(`${base}/deploy`, { method: 'POST', headers: bearer('hp_bad') }));
    const { apiKey, id } = await mintKey('acct-r');
    const revoke = await fetch(`${base}/keys/${id}`, { method: 'DELETE', headers: bearer(apiKey) });
    expect(revoke.status).toBe(204);
    await expect401(await fetch(`${base}/deploy`, { method: 'POST', headers: bearer(apiKey) }));
  });
});

describe('the /keys routes', () => {
  it('mint with an ID token, list, and refuse minting with a key', async () => {
    const { apiKey, id } = await mintKey('acct-k');
    const list = await fetch(`${base}/keys`, { headers: bearer(apiKey) });
    expect(((await list.json()) as { keys: Array<{ id: string }> }).keys.map((k) => k.id)).toEqual([id]);
    await expect401(await fetch(`${base}/keys`, { method: 'POST', headers: bearer(apiKey) }));
  });

  it('answer malformed JSON with a 400 JSON error', async () => {
    const res = await fetch(`${base}/keys`, {
      method: 'POST',
      headers: { ...bearer(idp.mintIdToken()), 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: expect.any(String) });
  });
});
