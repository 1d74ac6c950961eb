import { randomBytes } from 'node:crypto';
import { snapshotOf, UNIFORM_401 } from '@drops/auth/testing';
import { expect } from 'vitest';
import type { RunningApp } from './start-app.js';

const bearer = (credential: string): Record<string, string> => ({ authorization: `Bearer ${credential}` });

async function expectJsonError(res: Response, status: number): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await res.json()).toEqual({ error: expect.any(String) });
}

/**
 * The key flow a new user tries first, over HTTP: no credential is the uniform 401; an ID token
 * mints a key that works; an API key on `POST /keys` is the uniform 401 and the server stays up;
 * bad input is a 400, an unknown id a 404; revoking answers 204, and the key is a 401 from then on.
 *
 * @example
 * ```ts
 * await checkKeyFlow(await startApp(process.execPath, project.entry, project.dir));
 * ```
 */
export async function checkKeyFlow(app: RunningApp): Promise<void> {
  const { url, idToken } = app;
  expect(await snapshotOf(await fetch(`${url}/whoami`))).toEqual(UNIFORM_401);

  const minted = await fetch(`${url}/keys`, {
    method: 'POST',
    headers: { ...bearer(idToken), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ci-main' }),
  });
  expect(minted.status).toBe(201);
  const { apiKey, id } = (await minted.json()) as { apiKey: string; id: string };
  expect(apiKey).toMatch(/^hp_[\w-]{43}$/);

  const whoami = await fetch(`${url}/whoami`, { headers: bearer(apiKey) });
  expect(await whoami.json()).toEqual({ accountId: 'acct-consumer' });

  const mintWithKey = await fetch(`${url}/keys`, { method: 'POST', headers: bearer(apiKey) });
  expect(await snapshotOf(mintWithKey)).toEqual(UNIFORM_401);
  expect((await fetch(`${url}/healthz`)).status).toBe(200);

  await expectJsonError(
    await fetch(`${url}/keys`, {
      method: 'POST',
      headers: { ...bearer(idToken), 'content-type': 'application/json' },
      body: '{"name":',
    }),
    400,
  );
  await expectJsonError(await fetch(`${url}/keys/abc`, { method: 'DELETE', headers: bearer(apiKey) }), 400);
  const unknownId = randomBytes(32).toString('hex');
  await expectJsonError(await fetch(`${url}/keys/${unknownId}`, { method: 'DELETE', headers: bearer(apiKey) }), 404);

  const revoked = await fetch(`${url}/keys/${id}`, { method: 'DELETE', headers: bearer(apiKey) });
  expect(revoked.status).toBe(204);
  expect(await snapshotOf(await fetch(`${url}/whoami`, { headers: bearer(apiKey) }))).toEqual(UNIFORM_401);

  // Every path above in a framework that drops rejected promises would have killed the process.
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  expect(app.isRunning()).toBe(true);
  expect(app.output()).not.toMatch(/unhandled/i);
}
