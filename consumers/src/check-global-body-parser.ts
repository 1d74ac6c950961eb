import { sendRawRequest, snapshotOf, UNIFORM_401, wireSnapshotOf } from '@drops/auth/testing';
import { expect } from 'vitest';

/** An app under test: where it listens, and an ID token its identity provider minted. */
interface App {
  readonly url: string;
  readonly idToken: string;
}

/** Bodies the app's own parsers (1 KiB limit) refuse before drops' routes run, with what a valid credential then gets. */
const REFUSED_BODIES = [
  { what: 'malformed JSON', contentType: 'application/json', body: '{"name":', status: 400 },
  { what: 'oversized JSON', contentType: 'application/json', body: JSON.stringify({ name: 'x'.repeat(4096) }), status: 413 },
  { what: 'oversized urlencoded', contentType: 'application/x-www-form-urlencoded', body: `name=${'x'.repeat(4096)}`, status: 413 },
] as const;

/**
 * Drives `POST /keys` of an app whose global `express.json()` / `express.urlencoded()` run before
 * drops' routes: a body they refuse, with no credential or a bad one (unknown key, an API key
 * where only an ID token is taken), is the uniform 401, the same bytes as `GET /whoami` without a
 * credential; with a valid ID token a JSON 400 or 413. Never an HTML page, never a 5xx.
 *
 * @example
 * ```ts
 * await checkGlobalBodyParser({ url: app.url, idToken: app.idToken });
 * ```
 */
export async function checkGlobalBodyParser(app: App): Promise<void> {
  const reference = await sendRawRequest(app.url, 'GET', '/whoami');
  expect(await snapshotOf(reference)).toEqual(UNIFORM_401);
  const minted = await fetch(`${app.url}/keys`, { method: 'POST', headers: { authorization: `Bearer ${app.idToken}` } });
  expect(minted.status).toBe(201);
  const { apiKey } = (await minted.json()) as { apiKey: string };

  const badCredentials: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, string]>]> = [
    ['no credential', []],
    ['an unknown API key', [['Authorization', `Bearer hp_${'A'.repeat(43)}`]]],
    ['an API key (ID token only)', [['Authorization', `Bearer ${apiKey}`]]],
  ];
  for (const { what, contentType, body, status } of REFUSED_BODIES) {
    for (const [credential, headers] of badCredentials) {
      const res = await sendRawRequest(app.url, 'POST', '/keys', [...headers, ['Content-Type', contentType]], body);
      expect(wireSnapshotOf(res), `${what} with ${credential}`).toBe(wireSnapshotOf(reference));
    }
    const res = await fetch(`${app.url}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.idToken}`, 'content-type': contentType },
      body,
    });
    expect(res.status, `${what} with an ID token`).toBe(status);
    expect(res.headers.get('content-type'), `${what} with an ID token`).toMatch(/^application\/json/);
    expect(Object.keys((await res.json()) as object), `${what} with an ID token`).toEqual(['error']);
  }
}
