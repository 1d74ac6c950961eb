import assert from 'node:assert/strict';
import { createAuthenticator, type Authenticator } from '../authenticator/create-authenticator.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import type { KeyStore } from '../key-store/key-store.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager, type KeyManager, type KeyManagerOptions } from '../keys/create-key-manager.js';
import type { KeyRoutesOptions } from '../key-routes/key-routes-options.js';
import { MemoryWebhookStore } from '../webhooks/memory-webhook-store.js';
import { createWebhookSettings } from '../webhooks/webhook-settings.js';
import type { WebhookStore } from '../webhooks/webhook-store.js';
import { delegatingKeyStore } from './delegating-key-store.js';
import type { LeakedKeysServer, LeakedKeysTestApi } from './leaked-keys-conformance.js';
import { LocalIdentityProvider } from './local-identity-provider.js';
import { sendRawRequest, wireSnapshotOf, type RawResponse } from './raw-http.js';
import { uniform401WireSweep } from './uniform-401-wire-sweep.js';
import { snapshotOf, UNIFORM_401 } from './uniform-401.js';

/** The runner functions {@link describeKeyRoutes} registers with (the same as `describeLeakedKeysRoutes`'). */
export type KeyRoutesTestApi = LeakedKeysTestApi;

/** What the suite asks an adapter to serve: built by the suite, fresh for every test. */
export interface KeyRoutesApp {
  readonly authenticator: Authenticator;
  readonly keys: KeyManager;
  /** For the key routes (`keysHandler` / `keysRouter`): a `bodyLimit` of 1024 bytes. */
  readonly keyRoutes: KeyRoutesOptions;
}

/** A running server of a {@link KeyRoutesApp}. */
export type KeyRoutesServer = LeakedKeysServer;

/** How the adapter under test serves a {@link KeyRoutesApp}. */
export interface KeyRoutesHarness {
  /**
   * Serves, on loopback, the app's key routes at `/keys` (every route of `KEY_ROUTES`,
   * `@drops/auth/adapter`) with `app.authenticator`, `app.keys` and `app.keyRoutes`.
   */
  readonly serve: (app: KeyRoutesApp) => Promise<KeyRoutesServer>;
  /** The key store of each test's app. Default a fresh `MemoryKeyStore`. */
  readonly keyStore?: () => KeyStore | Promise<KeyStore>;
}

/** The `bodyLimit` the suite serves with. */
const BODY_LIMIT = 1024;
const JSON_TYPE: ReadonlyArray<readonly [string, string]> = [['Content-Type', 'application/json']];

interface Minted {
  readonly apiKey: string;
  readonly id: string;
  readonly name: string | null;
}

/** A 4xx `{error}` answer other than the uniform 401, naming no secret. */
function assertJsonError(res: RawResponse, status: number, what: string): void {
  assert.equal(res.status, status, `${what}: expected ${status}, got ${res.status} ${res.body.toString('utf8')}`);
  assert.match(res.headers['content-type'] ?? '', /^application\/json/, `${what}: expected a JSON answer`);
  const body = JSON.parse(res.body.toString('utf8')) as { error?: unknown };
  assert.equal(typeof body.error, 'string', `${what}: expected {"error": string}`);
}

/**
 * The HTTP suite of the `/keys` routes every adapter serves (`keysHandler` of `@drops/auth`,
 * `keysRouter` of `@drops/auth-express` and `@drops/auth-koa`), over real sockets: the uniform
 * 401 on the wire, byte for byte and header order included, for every cause on every key route (a
 * duplicated `Authorization` header and an API key on `POST /keys` included, whatever the body);
 * mint, list and revoke; roll (201 shape, `replaces`, the old key working, a second roll 409, bad
 * grace 400, an API key 401) and revoke all; the 404 and 405 rules (and that neither shows before authentication);
 * the body limit; malformed and compressed bodies; 409 over the key limit; 503 when the key store
 * is down. It starts a `LocalIdentityProvider`; assertions use `node:assert`.
 *
 * @example
 * ```ts
 * import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';
 * import { describeKeyRoutes } from '@drops/auth/testing/conformance';
 *
 * describeKeyRoutes({ describe, it, beforeEach, afterEach, beforeAll, afterAll }, 'express', {
 *   serve: async ({ authenticator, keys, keyRoutes }) => {
 *     const app = express();
 *     app.use('/keys', dropsAuth({ authenticator, keys }).keysRouter(keyRoutes));
 *     return listen(app);
 *   },
 * });
 * ```
 */
export function describeKeyRoutes(test: KeyRoutesTestApi, name: string, harness: KeyRoutesHarness): void {
  for (const fn of ['describe', 'it', 'beforeEach', 'afterEach', 'beforeAll', 'afterAll'] as const) {
    if (typeof test?.[fn] !== 'function') {
      throw new TypeError(`describeKeyRoutes: test.${fn}: expected your test runner's ${fn} function`);
    }
  }
  const { describe, it, beforeEach, afterEach, beforeAll, afterAll } = test;

  describe(`/keys routes: ${name}`, () => {
    let idp: LocalIdentityProvider;
    const servers: KeyRoutesServer[] = [];
    let url: string;

    beforeAll(async () => {
      idp = await LocalIdentityProvider.start({ audience: 'key-routes' });
    });
    afterAll(async () => {
      await idp?.close();
    });

    /** A fresh app on a fresh server. */
    async function start(keyManager: Partial<KeyManagerOptions> = {}, store?: KeyStore): Promise<string> {
      const keyStore = store ?? (await harness.keyStore?.()) ?? new MemoryKeyStore();
      const server = await harness.serve({
        authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
        keys: createKeyManager({ ...keyManager, keyStore }),
        keyRoutes: { bodyLimit: BODY_LIMIT },
      });
      servers.push(server);
      return server.url;
    }

    beforeEach(async () => {
      url = await start();
    });
    afterEach(async () => {
      await Promise.all(servers.splice(0).map((s) => s.close()));
    });

    const bearer = (credential: string): Array<readonly [string, string]> => [['Authorization', `Bearer ${credential}`]];
    const token = (sub = 'acct_keys'): Array<readonly [string, string]> => bearer(idp.mintIdToken({ sub }));
    const send = (
      method: string,
      path: string,
      headers: ReadonlyArray<readonly [string, string]> = [],
      body?: string,
      base = url,
    ): Promise<RawResponse> => sendRawRequest(base, method, path, headers, body);
    const json = <T>(res: RawResponse): T => JSON.parse(res.body.toString('utf8')) as T;

    async function mint(sub = 'acct_keys', name?: string, base = url): Promise<Minted> {
      const body = name === undefined ? undefined : JSON.stringify({ name });
      const res = await send('POST', '/keys', [...token(sub), ...JSON_TYPE], body, base);
      assert.equal(res.status, 201, `POST /keys answered ${res.status} ${res.body.toString('utf8')}`);
      return json<Minted>(res);
    }

    describe('the uniform 401', () => {
      it('is the same bytes on the wire, header order included, for every cause on every key route (a duplicated Authorization header too)', async () => {
        const sweep = await uniform401WireSweep({ url, idp, accountRoutes: [['GET', '/keys']] });
        for (const [what, wire] of sweep.answers) assert.equal(wire, sweep.expected, what);
        assert.deepStrictEqual(await snapshotOf(sweep.reference), UNIFORM_401);
      });

      it('answers an API key on POST /keys, whatever the body (none, valid, malformed, oversized, compressed)', async () => {
        const { apiKey } = await mint();
        const expected = wireSnapshotOf(await send('GET', '/keys'));
        const bodies: Array<readonly [string | undefined, ReadonlyArray<readonly [string, string]>]> = [
          [undefined, []],
          ['{"name":"x"}', JSON_TYPE],
          ['{"name": ', JSON_TYPE],
          [JSON.stringify({ name: 'x'.repeat(4 * BODY_LIMIT) }), JSON_TYPE],
          ['{}', [...JSON_TYPE, ['Content-Encoding', 'gzip']]],
          ['name=x', [['Content-Type', 'application/x-www-form-urlencoded']]],
        ];
        for (const [body, headers] of bodies) {
          assert.equal(wireSnapshotOf(await send('POST', '/keys', [...bearer(apiKey), ...headers], body)), expected, String(body));
        }
      });

      it('comes before the 404 and 405 rules, and before the body is read', async () => {
        const expected = wireSnapshotOf(await send('GET', '/keys'));
        for (const [method, path, body] of [
          ['PUT', '/keys'],
          ['PATCH', '/keys/abc'],
          ['GET', `/keys/${'a'.repeat(64)}`],
          ['GET', '/keys/a/b'],
          ['DELETE', '/keys/abc'],
          ['POST', '/keys/events'],
          ['POST', '/keys', JSON.stringify({ name: 'x'.repeat(4 * BODY_LIMIT) })],
          ['POST', '/keys', '{"name": '],
          ['POST', `/keys/${'a'.repeat(64)}/roll`, '{"graceSeconds": '],
          ['GET', `/keys/${'a'.repeat(64)}/roll`],
          ['DELETE', '/keys'],
        ] as const) {
          assert.equal(wireSnapshotOf(await send(method, path, JSON_TYPE, body)), expected, `${method} ${path}`);
        }
      });
    });

    describe('POST /keys', () => {
      it('mints with an ID token: 201, the secret once, no-store', async () => {
        const res = await send('POST', '/keys', [...token('acct_mint'), ...JSON_TYPE], '{"name":"ci-main"}');
        assert.equal(res.status, 201);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        const body = json<Record<string, unknown>>(res);
        assert.deepStrictEqual(Object.keys(body).sort(), ['apiKey', 'createdAt', 'expiresAt', 'id', 'name', 'prefix']);
        assert.match(String(body['apiKey']), /^hp_[A-Za-z0-9_-]{43}$/);
        assert.equal(body['prefix'], String(body['apiKey']).slice(0, 10));
        assert.equal(body['name'], 'ci-main');
        assert.equal((await mint('acct_mint')).name, null);
      });

      it('warns with Drops-Key-Expiration on answers to a key expiring within 7 days, never to others or ID tokens', async () => {
        const soon = new Date(Date.now() + 3 * 86_400_000);
        const later = new Date(Date.now() + 30 * 86_400_000);
        const mintExpiring = async (expiresAt: Date): Promise<Minted> => {
          const res = await send(
            'POST',
            '/keys',
            [...token('acct_warned'), ...JSON_TYPE],
            JSON.stringify({ expiresAt: expiresAt.toISOString() }),
          );
          assert.equal(res.status, 201);
          return json<Minted>(res);
        };
        const expiringSoon = await mintExpiring(soon);
        const expiringLater = await mintExpiring(later);
        const lasting = await mint('acct_warned');
        const warned = await send('GET', '/keys', bearer(expiringSoon.apiKey));
        assert.equal(warned.status, 200);
        assert.equal(warned.headers['drops-key-expiration'], soon.toISOString());
        // An error after authentication carries it too.
        const notFound = await send('GET', '/keys/a/b', bearer(expiringSoon.apiKey));
        assert.equal(notFound.status, 404);
        assert.equal(notFound.headers['drops-key-expiration'], soon.toISOString());
        for (const credential of [expiringLater.apiKey, lasting.apiKey, idp.mintIdToken({ sub: 'acct_warned' })]) {
          const res = await send('GET', '/keys', bearer(credential));
          assert.equal(res.status, 200);
          assert.equal(res.headers['drops-key-expiration'], undefined);
        }
      });

      it('mints with an expiresAt: 201 with it (UTC), and GET /keys lists it; null for a key without', async () => {
        const expiresAt = new Date(Date.now() + 30 * 86_400_000);
        const offset = expiresAt.toISOString().replace('Z', '+00:00');
        const res = await send('POST', '/keys', [...token('acct_expiring'), ...JSON_TYPE], JSON.stringify({ expiresAt: offset }));
        assert.equal(res.status, 201);
        const body = json<{ id: string; expiresAt: string | null }>(res);
        assert.equal(body.expiresAt, expiresAt.toISOString());
        const lasting = await mint('acct_expiring');
        const list = json<{ keys: Array<{ id: string; expiresAt: string | null }> }>(await send('GET', '/keys', token('acct_expiring')));
        assert.deepStrictEqual(
          list.keys.map((k) => [k.id, k.expiresAt]).sort(),
          [
            [body.id, expiresAt.toISOString()],
            [lasting.id, null],
          ].sort(),
        );
      });

      const badBodies: Array<readonly [string, string, number, ReadonlyArray<readonly [string, string]>?]> = [
        ['malformed JSON', '{"name": ', 400],
        ['a JSON array', '["x"]', 400],
        ['a name that is not a string', '{"name": 42}', 400],
        ['an unknown field', '{"name":"a","scopes":["all"]}', 400],
        ['an expiresAt in the past', '{"expiresAt":"2020-01-01T00:00:00Z"}', 400],
        ['an expiresAt that is not a date', '{"expiresAt":"tomorrow"}', 400],
        ['an expiresAt without an offset', '{"expiresAt":"2999-01-01T00:00:00"}', 400],
        ['an expiresAt that is no calendar day', '{"expiresAt":"2999-02-30T00:00:00Z"}', 400],
        ['an expiresAt that is not a string', '{"expiresAt":4102444800000}', 400],
        ['a compressed body', '{}', 400, [['Content-Encoding', 'gzip']]],
        ['a body over the limit', JSON.stringify({ name: 'x'.repeat(4 * BODY_LIMIT) }), 413],
      ];
      for (const [what, body, status, headers] of badBodies) {
        it(`answers ${what} with a JSON ${status} and mints nothing`, async () => {
          const res = await send('POST', '/keys', [...token('acct_bad'), ...JSON_TYPE, ...(headers ?? [])], body);
          assertJsonError(res, status, what);
          const list = json<{ keys: unknown[] }>(await send('GET', '/keys', token('acct_bad')));
          assert.deepStrictEqual(list.keys, [], `${what}: nothing minted`);
        });
      }

      it('answers 409 JSON over the key limit, and a revoke frees the slot', async () => {
        const limited = await start({ maxKeysPerAccount: 1 });
        const first = await mint('acct_limited', undefined, limited);
        assertJsonError(await send('POST', '/keys', token('acct_limited'), undefined, limited), 409, 'over the limit');
        assert.equal((await send('DELETE', `/keys/${first.id}`, token('acct_limited'), undefined, limited)).status, 204);
        await mint('acct_limited', undefined, limited);
      });
    });

    describe('GET /keys and DELETE /keys/:id', () => {
      it('lists newest first and never a secret; revokes with 204 and no body, then the key is the uniform 401', async () => {
        const one = await mint('acct_list', 'one');
        await new Promise((resolve) => setTimeout(resolve, 5)); // distinct createdAt
        const two = await mint('acct_list', 'two');
        const list = await send('GET', '/keys', bearer(one.apiKey));
        assert.equal(list.status, 200);
        assert.equal(list.headers['cache-control'], 'no-store');
        const text = list.body.toString('utf8');
        assert.ok(!text.includes(one.apiKey) && !text.includes(two.apiKey), 'the listing must not carry a secret');
        assert.deepStrictEqual(
          json<{ keys: Array<{ name: string }> }>(list).keys.map((k) => k.name),
          ['two', 'one'],
        );

        const del = await send('DELETE', `/keys/${two.id}`, bearer(one.apiKey));
        assert.equal(del.status, 204);
        assert.equal(del.body.byteLength, 0);
        assert.deepStrictEqual(await snapshotOf(await send('GET', '/keys', bearer(two.apiKey))), UNIFORM_401);
      });

      it("answers 404 JSON for a revoked key, another account's key and an unknown id; 400 JSON for an id that is not 64 lowercase hex", async () => {
        const mine = await mint('acct_del');
        const revoked = await mint('acct_del');
        assert.equal((await send('DELETE', `/keys/${revoked.id}`, token('acct_del'))).status, 204);
        assertJsonError(await send('DELETE', `/keys/${revoked.id}`, token('acct_del')), 404, 'revoked');
        assertJsonError(await send('DELETE', `/keys/${mine.id}`, token('acct_other')), 404, "another account's");
        assertJsonError(await send('DELETE', `/keys/${'a'.repeat(64)}`, token('acct_del')), 404, 'unknown');
        for (const bad of ['abc', mine.id.toUpperCase(), '%E0%A4%A'])
          assertJsonError(await send('DELETE', `/keys/${bad}`, token('acct_del')), 400, bad);
        assert.equal((await send('GET', '/keys', bearer(mine.apiKey))).status, 200);
      });
    });

    describe('POST /keys/:id/roll', () => {
      const roll = (id: string, credential: ReadonlyArray<readonly [string, string]>, body?: string, base = url): Promise<RawResponse> =>
        send('POST', `/keys/${id}/roll`, [...credential, ...JSON_TYPE], body, base);

      it('answers 201 with the new key as a mint answers it plus replaces; the old name kept, both keys work', async () => {
        const old = await mint('acct_roll', 'ci-main');
        const res = await roll(old.id, token('acct_roll'), '{"graceSeconds":3600}');
        assert.equal(res.status, 201, res.body.toString('utf8'));
        assert.equal(res.headers['cache-control'], 'no-store');
        const body = json<Record<string, unknown>>(res);
        assert.deepStrictEqual(Object.keys(body).sort(), ['apiKey', 'createdAt', 'expiresAt', 'id', 'name', 'prefix', 'replaces']);
        assert.equal(body['replaces'], old.id);
        assert.equal(body['name'], 'ci-main');
        assert.equal(body['expiresAt'], null);
        assert.match(String(body['apiKey']), /^hp_[A-Za-z0-9_-]{43}$/);
        assert.notEqual(body['id'], old.id);
        for (const apiKey of [old.apiKey, String(body['apiKey'])]) {
          assert.equal((await send('GET', '/keys', bearer(apiKey))).status, 200, 'both keys work during the grace');
        }
        const listed = json<{ keys: Array<{ id: string; expiresAt: string | null }> }>(await send('GET', '/keys', token('acct_roll')));
        const oldExpiry = Date.parse(String(listed.keys.find((k) => k.id === old.id)?.expiresAt));
        assert.ok(
          Math.abs(oldExpiry - (Date.parse(String(body['createdAt'])) + 3_600_000)) < 60_000,
          'the old key expires when the grace ends',
        );
        const events = json<{ events: Array<Record<string, unknown>> }>(await send('GET', '/keys/events', token('acct_roll'))).events;
        assert.ok(events.some((e) => e['type'] === 'rolled' && e['keyId'] === old.id && e['rolledTo'] === body['id']));
        assert.ok(events.some((e) => e['type'] === 'minted' && e['keyId'] === body['id'] && e['replaces'] === old.id));
      });

      it('defaults the grace to a day, and a grace of 0 ends the old key now', async () => {
        const old = await mint('acct_roll_grace');
        const res = await roll(old.id, token('acct_roll_grace'));
        assert.equal(res.status, 201);
        const { createdAt } = json<{ createdAt: string }>(res);
        const listed = json<{ keys: Array<{ id: string; expiresAt: string | null }> }>(
          await send('GET', '/keys', token('acct_roll_grace')),
        );
        const oldExpiry = Date.parse(String(listed.keys.find((k) => k.id === old.id)?.expiresAt));
        assert.ok(Math.abs(oldExpiry - (Date.parse(createdAt) + 86_400_000)) < 60_000);
        const now = await mint('acct_roll_grace');
        assert.equal((await roll(now.id, token('acct_roll_grace'), '{"graceSeconds":0}')).status, 201);
        assert.deepStrictEqual(await snapshotOf(await send('GET', '/keys', bearer(now.apiKey))), UNIFORM_401);
      });

      it('refuses a second roll of one key with 409 JSON, minting nothing', async () => {
        const old = await mint('acct_roll_twice');
        assert.equal((await roll(old.id, token('acct_roll_twice'))).status, 201);
        assertJsonError(await roll(old.id, token('acct_roll_twice')), 409, 'a second roll');
        const listed = json<{ keys: unknown[] }>(await send('GET', '/keys', token('acct_roll_twice')));
        assert.equal(listed.keys.length, 2);
      });

      it("answers 404 for an unknown, another account's or a revoked key, 400 for a bad id, as DELETE does", async () => {
        const mine = await mint('acct_roll_nf');
        const revoked = await mint('acct_roll_nf');
        assert.equal((await send('DELETE', `/keys/${revoked.id}`, token('acct_roll_nf'))).status, 204);
        assertJsonError(await roll(revoked.id, token('acct_roll_nf')), 404, 'revoked');
        assertJsonError(await roll(mine.id, token('acct_roll_other')), 404, "another account's");
        assertJsonError(await roll('a'.repeat(64), token('acct_roll_nf')), 404, 'unknown');
        assertJsonError(await roll('abc', token('acct_roll_nf')), 400, 'a bad id');
        assert.equal(json<{ keys: unknown[] }>(await send('GET', '/keys', token('acct_roll_nf'))).keys.length, 1);
      });

      const badGraces: ReadonlyArray<readonly [string, string]> = [
        ['a negative grace', '{"graceSeconds":-1}'],
        ['a grace over a week', '{"graceSeconds":604801}'],
        ['a fractional grace', '{"graceSeconds":1.5}'],
        ['a grace that is a string', '{"graceSeconds":"60"}'],
        ['an unknown field', '{"graceSeconds":60,"name":"x"}'],
        ['a JSON array', '[60]'],
        ['malformed JSON', '{"graceSeconds": '],
      ];
      for (const [what, body] of badGraces) {
        it(`answers ${what} with a JSON 400 and changes nothing`, async () => {
          const old = await mint('acct_roll_bad');
          assertJsonError(await roll(old.id, token('acct_roll_bad'), body), 400, what);
          const listed = json<{ keys: Array<{ id: string; expiresAt: string | null }> }>(
            await send('GET', '/keys', token('acct_roll_bad')),
          );
          assert.deepStrictEqual(
            listed.keys.map((k) => [k.id, k.expiresAt]),
            [[old.id, null]],
          );
        });
      }

      it('answers an API key with the uniform 401, whatever the body, and rolls nothing', async () => {
        const old = await mint('acct_roll_key');
        const expected = wireSnapshotOf(await send('GET', '/keys'));
        for (const body of [undefined, '{"graceSeconds":60}', '{"graceSeconds": ']) {
          assert.equal(wireSnapshotOf(await roll(old.id, bearer(old.apiKey), body)), expected, String(body));
        }
        assert.equal(json<{ keys: unknown[] }>(await send('GET', '/keys', token('acct_roll_key'))).keys.length, 1);
      });

      it('counts toward the key limit (409) like a mint', async () => {
        const limited = await start({ maxKeysPerAccount: 1 });
        const old = await mint('acct_roll_limited', undefined, limited);
        assertJsonError(await roll(old.id, token('acct_roll_limited'), undefined, limited), 409, 'over the limit');
        assert.equal((await send('GET', '/keys', bearer(old.apiKey), undefined, limited)).status, 200);
      });
    });

    describe('DELETE /keys', () => {
      it('revokes every active key of the account: 200 {"revoked": n}, then each is the uniform 401', async () => {
        const keys = [await mint('acct_all'), await mint('acct_all'), await mint('acct_all')];
        const other = await mint('acct_all_other');
        const res = await send('DELETE', '/keys', token('acct_all'));
        assert.equal(res.status, 200);
        assert.deepStrictEqual(json(res), { revoked: 3 });
        for (const k of keys) assert.deepStrictEqual(await snapshotOf(await send('GET', '/keys', bearer(k.apiKey))), UNIFORM_401);
        assert.equal((await send('GET', '/keys', bearer(other.apiKey))).status, 200);
        assert.deepStrictEqual(json(await send('DELETE', '/keys', token('acct_all'))), { revoked: 0 });
      });

      it('answers an API key with the uniform 401 and revokes nothing', async () => {
        const key = await mint('acct_all_key');
        const expected = wireSnapshotOf(await send('GET', '/keys'));
        assert.equal(wireSnapshotOf(await send('DELETE', '/keys', bearer(key.apiKey))), expected);
        assert.equal((await send('GET', '/keys', bearer(key.apiKey))).status, 200);
      });
    });

    describe('/keys/webhook', () => {
      it('sets, shows and removes the endpoint with an ID token: the whsec_ secret shown once, "webhook" never a key id', async () => {
        const base = await start({ webhooks: createWebhookSettings({ store: new MemoryWebhookStore() }) });
        const none = await send('GET', '/keys/webhook', token('acct_hook'), undefined, base);
        assert.equal(none.status, 200, none.body.toString('utf8'));
        assert.deepStrictEqual(json(none), { url: null });
        const put = await send('PUT', '/keys/webhook', [...token('acct_hook'), ...JSON_TYPE], '{"url":"https://example.com/hooks"}', base);
        assert.equal(put.status, 200, put.body.toString('utf8'));
        assert.equal(put.headers['cache-control'], 'no-store');
        const set = json<{ url: string; secret: string }>(put);
        assert.equal(set.url, 'https://example.com/hooks');
        assert.match(set.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
        const shown = await send('GET', '/keys/webhook', token('acct_hook'), undefined, base);
        assert.deepStrictEqual(json(shown), {
          url: 'https://example.com/hooks',
          deliveries: { pending: 0, failed: 0, lastFailure: null },
        });
        assert.ok(!shown.body.toString('utf8').includes(set.secret), 'GET must not show the secret');
        assert.deepStrictEqual(json(await send('GET', '/keys/webhook', token('acct_other'), undefined, base)), { url: null });
        const del = await send('DELETE', '/keys/webhook', token('acct_hook'), undefined, base);
        assert.equal(del.status, 204);
        assert.deepStrictEqual(json(await send('GET', '/keys/webhook', token('acct_hook'), undefined, base)), { url: null });
        const res = await send('POST', '/keys/webhook', token('acct_hook'), undefined, base);
        assertJsonError(res, 405, 'POST /keys/webhook');
        assert.equal(res.headers['allow'], 'GET, PUT, DELETE');
      });

      it("shows the endpoint's deliveries as its store reports them: pending, failed and the last failure", async () => {
        const deliveries = { pending: 2, failed: 1, lastFailure: { at: '2026-01-02T03:04:05.678Z', reason: 'answered 500' } };
        const store: WebhookStore = {
          endpointOf: async (accountId) => (accountId === 'acct_failing' ? { url: 'https://example.com/hooks', deliveries } : null),
          set: async () => {},
          remove: async () => false,
        };
        const base = await start({ webhooks: createWebhookSettings({ store }) });
        const shown = await send('GET', '/keys/webhook', token('acct_failing'), undefined, base);
        assert.equal(shown.status, 200, shown.body.toString('utf8'));
        assert.deepStrictEqual(json(shown), { url: 'https://example.com/hooks', deliveries });
        assert.deepStrictEqual(json(await send('GET', '/keys/webhook', token('acct_other'), undefined, base)), { url: null });
      });

      it('answers an API key with the uniform 401 on every method, and a bad url with a JSON 400 that sets nothing', async () => {
        const base = await start({ webhooks: createWebhookSettings({ store: new MemoryWebhookStore() }) });
        const key = await mint('acct_hook', undefined, base);
        for (const method of ['GET', 'PUT', 'DELETE']) {
          const res = await send(method, '/keys/webhook', [...bearer(key.apiKey), ...JSON_TYPE], '{"url":"https://example.com/"}', base);
          assert.deepStrictEqual(await snapshotOf(res), UNIFORM_401, `${method} with an API key`);
        }
        for (const body of [
          '{"url":"http://example.com/hooks"}',
          '{"url":"http://127.0.0.1:9/hooks"}',
          '{"url":"ftp://example.com/"}',
          '{"url":"https://user:pass@example.com/"}',
          '{"url":"not a url"}',
          '{"url":42}',
          '{}',
          '{"url":"https://example.com/","secret":"whsec_x"}',
          '["https://example.com/"]',
        ]) {
          assertJsonError(await send('PUT', '/keys/webhook', [...token('acct_hook'), ...JSON_TYPE], body, base), 400, body.slice(0, 60));
        }
        assert.deepStrictEqual(json(await send('GET', '/keys/webhook', token('acct_hook'), undefined, base)), { url: null });
      });

      it('accepts loopback http only with allowLoopbackHttp, and answers 404 JSON without the webhooks option', async () => {
        const dev = await start({ webhooks: createWebhookSettings({ store: new MemoryWebhookStore(), allowLoopbackHttp: true }) });
        const put = await send('PUT', '/keys/webhook', [...token('acct_dev'), ...JSON_TYPE], '{"url":"http://127.0.0.1:9/hooks"}', dev);
        assert.equal(put.status, 200, put.body.toString('utf8'));
        const lan = '{"url":"http://192.168.1.10/hooks"}';
        assertJsonError(await send('PUT', '/keys/webhook', [...token('acct_dev'), ...JSON_TYPE], lan, dev), 400, 'http to a LAN host');
        for (const method of ['GET', 'PUT', 'DELETE']) {
          assertJsonError(await send(method, '/keys/webhook', [...token(), ...JSON_TYPE], '{"url":"https://example.com/"}'), 404, method);
        }
      });
    });

    describe('404 and 405 once authenticated', () => {
      it('answers another method with 405 and Allow, a deeper path with 404, all JSON', async () => {
        for (const [method, path, allow] of [
          ['PUT', '/keys', 'GET, POST, DELETE'],
          ['PATCH', '/keys', 'GET, POST, DELETE'],
          ['GET', `/keys/${'a'.repeat(64)}`, 'DELETE'],
          ['POST', `/keys/${'a'.repeat(64)}`, 'DELETE'],
          ['POST', '/keys/events', 'GET'],
          ['GET', `/keys/${'a'.repeat(64)}/roll`, 'POST'],
          ['DELETE', `/keys/${'a'.repeat(64)}/roll`, 'POST'],
        ] as const) {
          const res = await send(method, path, token());
          assertJsonError(res, 405, `${method} ${path}`);
          assert.equal(res.headers['allow'], allow, `${method} ${path}`);
        }
        assertJsonError(await send('GET', '/keys/a/b', token()), 404, 'GET /keys/a/b');
        assertJsonError(await send('DELETE', '/keys/a/b', token()), 404, 'DELETE /keys/a/b');
        assertJsonError(await send('POST', '/keys/events/roll', token()), 404, 'POST /keys/events/roll');
        assertJsonError(await send('POST', `/keys/${'a'.repeat(64)}/roll/x`, token()), 404, 'POST /keys/<id>/roll/x');
      });
    });

    describe('a key store that cannot answer', () => {
      it('answers 503 with Retry-After, never 401, on every key route', async () => {
        const down = (): Promise<never> => Promise.reject(new Error('the database is down'));
        const broken: KeyStore = delegatingKeyStore(new MemoryKeyStore(), {
          create: down,
          createWithinLimit: down,
          findActive: down,
          listByAccount: down,
          revoke: down,
          revokeMany: down,
          roll: down,
          revokeAll: down,
          listEvents: down,
        });
        const base = await start({}, broken);
        for (const [method, path, headers] of [
          ['GET', '/keys', bearer(`hp_${'B'.repeat(42)}A`)],
          ['GET', '/keys', token('acct_503')],
          ['POST', '/keys', token('acct_503')],
          ['DELETE', `/keys/${'a'.repeat(64)}`, token('acct_503')],
          ['POST', `/keys/${'a'.repeat(64)}/roll`, token('acct_503')],
          ['DELETE', '/keys', token('acct_503')],
        ] as const) {
          const res = await send(method, path, headers, undefined, base);
          assert.equal(res.status, 503, `${method} ${path}`);
          assert.match(res.headers['retry-after'] ?? '', /^\d+$/, `${method} ${path}`);
        }
      });
    });
  });
}
