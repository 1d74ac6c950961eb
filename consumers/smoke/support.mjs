// What the smoke tests share: drops auth over a local identity provider, servers on loopback, the
// tests of a framework adapter, and a check that a key store works end to end.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createAuthenticator, createIdTokenVerifier, createKeyManager, MemoryKeyStore, UnauthenticatedError } from '@drops/auth';
import { LocalIdentityProvider, sampleKeyRecord } from '@drops/auth/testing';
import { checkDuplicatedAuthorization, checkKeyFlow, checkOptionalAuth } from './key-flow.mjs';

/**
 * An authenticator and key manager over a `MemoryKeyStore`, verifying ID tokens from a local
 * identity provider (its JWKS on 127.0.0.1). Close `idp` when done.
 *
 * @example
 * ```js
 * const { idp, authenticator, keys } = await localAuth();
 * ```
 */
export async function localAuth() {
  const idp = await LocalIdentityProvider.start();
  const keyStore = new MemoryKeyStore();
  return {
    idp,
    keyStore,
    authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
    keys: createKeyManager({ keyStore }),
  };
}

/**
 * The base URL of a server once it listens on loopback.
 *
 * @param {import('node:http').Server} server from `app.listen(0, '127.0.0.1')`
 * @returns {Promise<string>}
 */
export async function urlOf(server) {
  if (!server.listening) await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error(`not a TCP server: ${address}`);
  return `http://127.0.0.1:${address.port}`;
}

/**
 * Closes a server, its keep-alive connections included.
 *
 * @param {import('node:http').Server | undefined} server
 * @returns {Promise<void>}
 */
export function closeServer(server) {
  if (server === undefined) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * A store works end to end: a key put in it authenticates, and once revoked is the uniform 401.
 *
 * @param {import('@drops/auth').KeyStore} keyStore
 * @returns {Promise<void>}
 */
export async function expectStoreAuthenticates(keyStore) {
  const authenticator = createAuthenticator({ keyStore });
  const { secret, ...key } = sampleKeyRecord({ accountId: 'acct-store' });
  await keyStore.create(key);
  assert.deepEqual(await authenticator.authenticate(`Bearer ${secret}`), { accountId: 'acct-store', credential: 'api_key', keyId: key.id });
  await keyStore.revoke('acct-store', key.id, { at: new Date() });
  await assert.rejects(authenticator.authenticate(`Bearer ${secret}`), UnauthenticatedError);
}

/**
 * The version of a package the scratch project installed (read from its package.json: not every
 * package exports `./package.json`).
 *
 * @param {string} name e.g. `@koa/router`
 * @returns {string}
 */
export function installedVersion(name) {
  return JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
}

/**
 * The tests of one framework adapter: `serve` builds the app from drops auth (over a local identity
 * provider) and listens on loopback; the app must serve `/keys`, `GET /whoami` (`{ accountId }`,
 * after `requireAuth()`), `GET /healthz`, and `POST /deploy` (`201 { owner }`, after
 * `optionalAuth()`).
 *
 * @param {string} title e.g. `Express 5.1.0`
 * @param {(auth: Awaited<ReturnType<typeof localAuth>>) => import('node:http').Server} serve
 * @example
 * ```js
 * describeAdapter(`Express ${installedVersion('express')}`, ({ authenticator, keys }) => app.listen(0, '127.0.0.1'));
 * ```
 */
export function describeAdapter(title, serve) {
  describe(title, () => {
    /** @type {Awaited<ReturnType<typeof localAuth>>} */
    let auth;
    /** @type {import('node:http').Server | undefined} */
    let server;
    let url = '';

    before(async () => {
      auth = await localAuth();
      server = serve(auth);
      url = await urlOf(server);
    });

    after(async () => {
      await closeServer(server);
      await auth?.idp.close();
    });

    it('serves the key flow: mint with an ID token, use, refuse, revoke', async () => {
      await checkKeyFlow({ url, idToken: auth.idp.mintIdToken({ sub: 'acct-smoke' }), accountId: 'acct-smoke' });
    });

    it('optionalAuth: no credential is anonymous, a bad one the uniform 401', async () => {
      await checkOptionalAuth(url);
    });

    it('answers two Authorization headers, a valid ID token first, with the uniform 401 bytes', async () => {
      await checkDuplicatedAuthorization({ url, idToken: auth.idp.mintIdToken({ sub: 'acct-smoke' }) });
    });
  });
}
