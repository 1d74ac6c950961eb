// The key flow a new user tries first, over HTTP, asserted with node:assert: shared by the consumer
// test (vitest, each app in its own process) and the packed smoke suite (node:test, on every Node
// version scripts/node-binary.mjs names). `@drops/auth/testing` resolves to whichever copy is
// installed beside this file: the workspace's, or the packed tarball's in a scratch project.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sendRawRequest, snapshotOf, UNIFORM_401, wireSnapshotOf } from '@drops/auth/testing';

/** @param {string} credential */
const bearer = (credential) => ({ authorization: `Bearer ${credential}` });

/**
 * @param {Response} res
 * @param {number} status
 * @param {string} what
 */
async function expectJsonError(res, status, what) {
  assert.equal(res.status, status, what);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, what);
  const body = await res.json();
  assert.deepEqual(Object.keys(body), ['error'], what);
  assert.equal(typeof body.error, 'string', what);
}

/**
 * Drives an app that serves `/keys`, `GET /whoami` (answering `{ accountId }` after
 * `requireAuth()`) and `GET /healthz`: no credential is the uniform 401; an ID token mints a key
 * that works; an API key on `POST /keys` is the uniform 401 and the app stays up; a malformed body
 * is a 400, a bad id a 400, an unknown id a 404; revoking answers 204, and the key is a 401 from
 * then on.
 *
 * @param {{ url: string, idToken: string, accountId: string, uniform401?: import('@drops/auth/testing').AnswerSnapshot }} app
 *   the app's base URL, an ID token its identity provider minted for `accountId`, and the 401 it
 *   answers (default `UNIFORM_401`; Next.js drops `Content-Length` from every route handler answer)
 * @returns {Promise<void>}
 * @example
 * ```js
 * await checkKeyFlow({ url: 'http://127.0.0.1:8787', idToken: idp.mintIdToken({ sub: 'acct-1' }), accountId: 'acct-1' });
 * ```
 */
export async function checkKeyFlow({ url, idToken, accountId, uniform401 = UNIFORM_401 }) {
  assert.deepEqual(await snapshotOf(await fetch(`${url}/whoami`)), uniform401, 'no credential');

  const minted = await fetch(`${url}/keys`, {
    method: 'POST',
    headers: { ...bearer(idToken), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ci-main' }),
  });
  assert.equal(minted.status, 201, 'mint with an ID token');
  const { apiKey, id } = await minted.json();
  assert.match(apiKey, /^hp_[\w-]{43}$/);

  const whoami = await fetch(`${url}/whoami`, { headers: bearer(apiKey) });
  assert.deepEqual(await whoami.json(), { accountId }, 'the minted key');

  const mintWithKey = await fetch(`${url}/keys`, { method: 'POST', headers: bearer(apiKey) });
  assert.deepEqual(await snapshotOf(mintWithKey), uniform401, 'an API key on POST /keys');
  assert.equal((await fetch(`${url}/healthz`)).status, 200);

  await expectJsonError(
    await fetch(`${url}/keys`, {
      method: 'POST',
      headers: { ...bearer(idToken), 'content-type': 'application/json' },
      body: '{"name":',
    }),
    400,
    'a malformed body',
  );
  await expectJsonError(await fetch(`${url}/keys/abc`, { method: 'DELETE', headers: bearer(apiKey) }), 400, 'a bad id');
  const unknownId = randomBytes(32).toString('hex');
  await expectJsonError(await fetch(`${url}/keys/${unknownId}`, { method: 'DELETE', headers: bearer(apiKey) }), 404, 'an unknown id');

  const revoked = await fetch(`${url}/keys/${id}`, { method: 'DELETE', headers: bearer(apiKey) });
  assert.equal(revoked.status, 204, 'revoke');
  assert.deepEqual(await snapshotOf(await fetch(`${url}/whoami`, { headers: bearer(apiKey) })), uniform401, 'the revoked key');

  // Every path above in a framework that drops rejected promises would have killed the process.
  assert.equal((await fetch(`${url}/healthz`)).status, 200);
}

/**
 * `POST /deploy` behind `optionalAuth()`, answering `201 { owner }`: no credential is anonymous
 * (owner `null`); a credential that does not authenticate is the uniform 401, never anonymous.
 *
 * @param {string} url the app's base URL
 * @returns {Promise<void>}
 */
export async function checkOptionalAuth(url) {
  const anonymous = await fetch(`${url}/deploy`, { method: 'POST' });
  assert.deepEqual([anonymous.status, await anonymous.json()], [201, { owner: null }]);
  const unknownKey = await fetch(`${url}/deploy`, { method: 'POST', headers: bearer(`hp_${'A'.repeat(43)}`) });
  assert.deepEqual(await snapshotOf(unknownKey), UNIFORM_401);
}

/**
 * Two `Authorization` headers, a valid ID token first (Node keeps only the first in `req.headers`),
 * are the uniform 401 on the wire on `GET /whoami`, `GET /keys` and `POST /keys`: the no-credential
 * answer, byte for byte. What Node's HTTP parser and the framework hand the adapter differs by
 * version of each, so this runs wherever the key flow does.
 *
 * @param {{ url: string, idToken: string }} app the app's base URL and an ID token its identity provider minted
 * @returns {Promise<void>}
 */
export async function checkDuplicatedAuthorization({ url, idToken }) {
  const reference = wireSnapshotOf(await sendRawRequest(url, 'GET', '/whoami'));
  /** @type {ReadonlyArray<readonly [string, string]>} */
  const duplicated = [
    ['Authorization', `Bearer ${idToken}`],
    ['Authorization', 'Bearer junk'],
  ];
  for (const [method, path, body] of /** @type {const} */ ([
    ['GET', '/whoami'],
    ['GET', '/keys'],
    ['POST', '/keys', '{"name": '],
  ])) {
    assert.equal(wireSnapshotOf(await sendRawRequest(url, method, path, duplicated, body)), reference, `${method} ${path}`);
  }
}
