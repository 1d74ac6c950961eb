import assert from 'node:assert/strict';
import { keyIdOf } from '../api-key/key-id.js';
import { createAuthenticator, type Authenticator } from '../authenticator/create-authenticator.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import type { KeyStore } from '../key-store/key-store.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager, type KeyManager } from '../keys/create-key-manager.js';
import type { KeyEventJson } from '../keys/key-event-json.js';
import type { LeakedKeysOptions } from '../leaked-keys/leaked-keys-options.js';
import { createGitHubSecretScanning } from '../secret-scanning/create-github-secret-scanning.js';
import type { ConformanceTestApi } from './conformance-suite.js';
import { LocalIdentityProvider } from './local-identity-provider.js';
import { LocalSecretScanningKeys } from './local-secret-scanning-keys.js';
import { delegatingKeyStore } from './delegating-key-store.js';
import { sendRawRequest, wireSnapshotOf, type RawResponse } from './raw-http.js';
import { snapshotOf, UNIFORM_401 } from './uniform-401.js';

/** The runner functions {@link describeLeakedKeysRoutes} registers with: {@link ConformanceTestApi} and the once-per-suite hooks. */
export interface LeakedKeysTestApi extends ConformanceTestApi {
  readonly beforeAll: (body: () => unknown) => unknown;
  readonly afterAll: (body: () => unknown) => unknown;
}

/** What the suite asks an adapter to serve: built by the suite, fresh for every test. */
export interface LeakedKeysApp {
  readonly authenticator: Authenticator;
  readonly keys: KeyManager;
  /** For the leaked-key routes (`leakedKeysHandler` / `leakedKeysRouter`). */
  readonly leakedKeys: LeakedKeysOptions;
}

/** A running server of a {@link LeakedKeysApp}. */
export interface LeakedKeysServer {
  /** Its base URL on loopback, e.g. `http://127.0.0.1:4000`. */
  readonly url: string;
  close(): Promise<void>;
}

/** How the adapter under test serves a {@link LeakedKeysApp}. */
export interface LeakedKeysHarness {
  /**
   * Serves, on loopback: the app's key routes at `/keys` (those of `KEY_ROUTES`,
   * `@drops/auth/adapter`) with `app.authenticator` and `app.keys`, and its leaked-key routes at
   * the root (`POST /credentials/revoke`, `POST /secret-scanning/github`) with `app.keys` and
   * `app.leakedKeys`, passing on the client's address (the events carry it).
   */
  readonly serve: (app: LeakedKeysApp) => Promise<LeakedKeysServer>;
  /** The key store of each test's app. Default a fresh `MemoryKeyStore`. */
  readonly keyStore?: () => KeyStore | Promise<KeyStore>;
}

const USER_AGENT = 'leaked-keys-conformance/1.0';
const JSON_HEADERS = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
/** A well-formed key that no store holds (its last character carries the 4 bits a key's may). */
const UNKNOWN_KEY = `hp_${'Q'.repeat(42)}A`;
const FOUND_AT = 'https://github.com/octo/leaky/blob/0123abc/.env';

interface Minted {
  readonly apiKey: string;
  readonly id: string;
}

/** The `{error}` of an answer: present and a string, never the secret. */
function assertJsonError(status: number, text: string, secret: string, what: string): void {
  assert.ok(status >= 400 && status < 500, `${what}: expected a 4xx, got ${status}`);
  const body = JSON.parse(text) as { error?: unknown };
  assert.equal(typeof body.error, 'string', `${what}: expected {"error": string}, got ${text}`);
  assert.ok(!text.includes(secret), `${what}: the answer must not echo the secret`);
}

/**
 * The HTTP suite of the leaked-key routes every adapter serves (`leakedKeysHandler` of
 * `@drops/auth`, `leakedKeysRouter` of `@drops/auth-express` and `@drops/auth-koa`), with the
 * `/keys` routes they revoke from: revoke by value (202, the same bytes whatever existed; 400,
 * 413, 429, 503), GitHub secret scanning (signature first; 401, 400, 413, 503; the feedback), and
 * `GET /keys/events`. Every refused request is checked to have revoked nothing: the key still
 * authenticates. It starts a `LocalIdentityProvider` and a `LocalSecretScanningKeys`; assertions
 * use `node:assert`.
 *
 * @example
 * ```ts
 * import { afterAll, afterEach, beforeAll, beforeEach, describe, it } from 'vitest';
 * import { describeLeakedKeysRoutes } from '@drops/auth/testing/conformance';
 *
 * describeLeakedKeysRoutes({ describe, it, beforeEach, afterEach, beforeAll, afterAll }, 'express', {
 *   serve: async ({ authenticator, keys, leakedKeys }) => {
 *     const app = express();
 *     app.use('/keys', keysRouter(authenticator, keys));
 *     app.use(leakedKeysRouter(keys, leakedKeys));
 *     return listen(app);
 *   },
 * });
 * ```
 */
export function describeLeakedKeysRoutes(test: LeakedKeysTestApi, name: string, harness: LeakedKeysHarness): void {
  for (const fn of ['describe', 'it', 'beforeEach', 'afterEach', 'beforeAll', 'afterAll'] as const) {
    if (typeof test?.[fn] !== 'function') {
      throw new TypeError(`describeLeakedKeysRoutes: test.${fn}: expected your test runner's ${fn} function`);
    }
  }
  const { describe, it, beforeEach, afterEach, beforeAll, afterAll } = test;

  describe(`leaked-key routes: ${name}`, () => {
    let idp: LocalIdentityProvider;
    let github: LocalSecretScanningKeys;
    const servers: LeakedKeysServer[] = [];
    /** The key manager behind each server's URL, to wait for its background revocations. */
    const managers = new Map<string, KeyManager>();
    let url: string;
    let live: Minted;
    const owner = 'acct_leaky';

    beforeAll(async () => {
      idp = await LocalIdentityProvider.start({ audience: 'leaked-keys' });
      github = await LocalSecretScanningKeys.start();
    });
    afterAll(async () => {
      await idp?.close();
      await github?.close();
    });

    /** A fresh app (store, rate limiter, key list cache) on a fresh server. */
    async function start(overrides: Partial<LeakedKeysOptions> = {}, store?: KeyStore): Promise<string> {
      const keyStore = store ?? (await harness.keyStore?.()) ?? new MemoryKeyStore();
      const keys = createKeyManager({ keyStore });
      const server = await harness.serve({
        authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
        keys,
        leakedKeys: {
          githubSecretScanning: createGitHubSecretScanning({ keysUrl: github.keysUrl }),
          revokeRateLimit: false,
          ...overrides,
        },
      });
      servers.push(server);
      managers.set(server.url, keys);
      return server.url;
    }

    beforeEach(async () => {
      url = await start();
      live = await mint(url, owner);
    });
    afterEach(async () => {
      github.simulateOutage(null);
      await Promise.all(servers.splice(0).map((s) => s.close()));
      managers.clear();
    });

    const token = (sub = owner): Record<string, string> => ({ authorization: `Bearer ${idp.mintIdToken({ sub })}` });

    async function mint(base: string, sub: string): Promise<Minted> {
      const res = await fetch(`${base}/keys`, { method: 'POST', headers: { ...token(sub), ...JSON_HEADERS }, body: '{"name":"ci"}' });
      assert.equal(res.status, 201, `POST /keys answered ${res.status}`);
      return (await res.json()) as Minted;
    }

    /** Waits until the server's recorded revocations by value are carried out (they run after the 202). */
    async function revocationsDone(base = url): Promise<void> {
      await managers.get(base)!.revokePending();
    }

    async function authenticates(apiKey: string, base = url): Promise<boolean> {
      const res = await fetch(`${base}/keys`, { headers: { authorization: `Bearer ${apiKey}` } });
      await res.arrayBuffer();
      assert.ok(res.status === 200 || res.status === 401, `GET /keys answered ${res.status}`);
      return res.status === 200;
    }

    async function eventsOf(sub = owner, base = url): Promise<KeyEventJson[]> {
      const res = await fetch(`${base}/keys/events`, { headers: token(sub) });
      assert.equal(res.status, 200);
      return ((await res.json()) as { events: KeyEventJson[] }).events;
    }

    const revokeBody = (credentials: unknown[]): string => JSON.stringify({ credentials });
    const revokeRaw = (body: string, headers: ReadonlyArray<readonly [string, string]> = []): Promise<RawResponse> =>
      sendRawRequest(
        url,
        'POST',
        '/credentials/revoke',
        [['Content-Type', 'application/json'], ['User-Agent', USER_AGENT], ...headers],
        body,
      );
    const alert = (body: string, headers: Record<string, string>, base = url): Promise<Response> =>
      fetch(`${base}/secret-scanning/github`, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body });
    const alertBody = (matches: Array<{ token: string; url?: string }>): string =>
      JSON.stringify(matches.map((m) => ({ token: m.token, type: 'drops_api_key', url: m.url ?? FOUND_AT, source: 'content' })));

    describe('POST /credentials/revoke', () => {
      it('revokes a live key of any account: 202, then the uniform 401, and an event that says how', async () => {
        const res = await revokeRaw(revokeBody([live.apiKey]));
        assert.equal(res.status, 202);
        assert.equal(res.headers['cache-control'], 'no-store');
        await revocationsDone();
        assert.deepStrictEqual(
          await snapshotOf(await fetch(`${url}/keys`, { headers: { authorization: `Bearer ${live.apiKey}` } })),
          UNIFORM_401,
        );
        const [revoked] = await eventsOf();
        assert.deepStrictEqual(
          { type: revoked?.type, keyId: revoked?.keyId, source: revoked?.source, actor: revoked?.actor, userAgent: revoked?.userAgent },
          { type: 'revoked', keyId: live.id, source: 'revoke_by_value', actor: null, userAgent: USER_AGENT },
        );
        assert.match(String(revoked?.ip), /127\.0\.0\.1$/);
      });

      it('answers 202 with the same bytes on the wire for a live key, a revoked one, an unknown one, garbage, and with an Authorization header', async () => {
        const reference = wireSnapshotOf(await revokeRaw(revokeBody([UNKNOWN_KEY])));
        const other = await mint(url, 'acct_other');
        const cases: Array<readonly [string, string, ReadonlyArray<readonly [string, string]>]> = [
          ['a live key', revokeBody([live.apiKey]), []],
          ['the same key, now revoked', revokeBody([live.apiKey]), []],
          ['entries that are not keys', revokeBody(['hp_short', 42, null, { a: 1 }, 'x'.repeat(300)]), []],
          ['a mix', revokeBody([UNKNOWN_KEY, 'nope', other.apiKey]), []],
          ['a bad Authorization header', revokeBody([UNKNOWN_KEY]), [['Authorization', 'Bearer hp_bad']]],
          [
            "another account's API key as Authorization",
            revokeBody([UNKNOWN_KEY]),
            [['Authorization', `Bearer ${(await mint(url, 'acct_third')).apiKey}`]],
          ],
        ];
        for (const [what, body, headers] of cases) {
          assert.equal(wireSnapshotOf(await revokeRaw(body, headers)), reference, what);
        }
        await revocationsDone();
        assert.equal(await authenticates(live.apiKey), false);
        assert.equal(await authenticates(other.apiKey), false);
      });

      const badBodies: Array<readonly [string, () => string, number, ReadonlyArray<readonly [string, string]>?]> = [
        ['a body that is not JSON', () => `{"credentials": ["${live.apiKey}"`, 400],
        ['a JSON array', () => JSON.stringify([live.apiKey]), 400],
        ['no credentials field', () => JSON.stringify({ credential: [live.apiKey] }), 400],
        ['an unknown field beside the credentials', () => JSON.stringify({ credentials: [live.apiKey], all: true }), 400],
        ['credentials that are not a list', () => JSON.stringify({ credentials: live.apiKey }), 400],
        ['an empty list', () => revokeBody([]), 400],
        ['1001 entries', () => revokeBody([live.apiKey, ...Array.from({ length: 1000 }, () => UNKNOWN_KEY)]), 400],
        ['an empty body', () => '', 400],
        ['a compressed body', () => revokeBody([live.apiKey]), 400, [['Content-Encoding', 'gzip']]],
        ['a body over the size limit', () => revokeBody([live.apiKey, 'x'.repeat(200 * 1024)]), 413],
      ];
      for (const [what, body, status, headers] of badBodies) {
        it(`refuses ${what} with a ${status} {error} and revokes nothing`, async () => {
          const res = await revokeRaw(body(), headers);
          assert.equal(res.status, status, what);
          assertJsonError(res.status, res.body.toString('utf8'), live.apiKey, what);
          await revocationsDone();
          assert.equal(await authenticates(live.apiKey), true, `${what}: the key must still authenticate`);
        });
      }

      it('answers other methods with 405 and Allow: POST', async () => {
        const res = await fetch(`${url}/credentials/revoke`);
        assert.equal(res.status, 405);
        assert.equal(res.headers.get('allow'), 'POST');
        assertJsonError(res.status, await res.text(), live.apiKey, 'GET');
      });

      it('answers 429 with Retry-After past the per-client limit, and revokes nothing', async () => {
        const limited = await start({ revokeRateLimit: { max: 2, windowMs: 3_600_000 } });
        const key = await mint(limited, owner);
        const send = (credentials: unknown[]): Promise<Response> =>
          fetch(`${limited}/credentials/revoke`, { method: 'POST', headers: JSON_HEADERS, body: revokeBody(credentials) });
        assert.equal((await send([UNKNOWN_KEY])).status, 202);
        assert.equal((await send(['not a key'])).status, 202);
        const over = await send([key.apiKey]);
        assert.equal(over.status, 429);
        assert.match(over.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);
        assertJsonError(over.status, await over.text(), key.apiKey, 'over the limit');
        await revocationsDone(limited);
        assert.equal(await authenticates(key.apiKey, limited), true, 'over the limit: the key must still authenticate');
      });

      it('answers 503 with Retry-After, never 202, when the key store cannot record the request', async () => {
        const memory = new MemoryKeyStore();
        const down = (): Promise<never> => Promise.reject(new Error('the database is down'));
        const broken: KeyStore = delegatingKeyStore(memory, { revoke: down, revokeMany: down, recordRevocationRequest: down });
        const base = await start({}, broken);
        const key = await mint(base, owner);
        const res = await fetch(`${base}/credentials/revoke`, { method: 'POST', headers: JSON_HEADERS, body: revokeBody([key.apiKey]) });
        assert.equal(res.status, 503);
        assert.match(res.headers.get('retry-after') ?? '', /^[0-9]+$/);
        await res.arrayBuffer();
        assert.equal(await authenticates(key.apiKey, base), true);
      });

      it('carries out a request recorded by a process that died before revoking: the key ends revoked once the routes start again', async () => {
        const keyStore = (await harness.keyStore?.()) ?? new MemoryKeyStore();
        const before = await start({}, keyStore);
        const key = await mint(before, owner);
        await revocationsDone(before);
        // What a process leaves when it dies between the 202 and the revocation: the record only.
        await keyStore.recordRevocationRequest({
          keyIds: [key.id],
          at: new Date(),
          event: { source: 'revoke_by_value', actor: null, ip: '203.0.113.9', userAgent: USER_AGENT, url: null },
        });
        assert.equal(await authenticates(key.apiKey, before), true);
        const after = await start({}, keyStore);
        await revocationsDone(after);
        assert.equal(await authenticates(key.apiKey, after), false);
        const [revoked] = await eventsOf(owner, after);
        assert.deepStrictEqual(
          [revoked?.type, revoked?.keyId, revoked?.source, revoked?.ip],
          ['revoked', key.id, 'revoke_by_value', '203.0.113.9'],
        );
      });
    });

    describe('POST /secret-scanning/github', () => {
      it('revokes the keys GitHub found and answers its feedback, one entry per match', async () => {
        const elsewhere = 'https://github.com/octo/other/blob/fff/config.yml';
        const body = alertBody([{ token: live.apiKey }, { token: UNKNOWN_KEY }, { token: 'not-one-of-ours', url: elsewhere }]);
        const res = await alert(body, github.signedHeaders(body));
        assert.equal(res.status, 200);
        assert.deepStrictEqual(await res.json(), [
          { token_hash: live.id, token_type: 'drops_api_key', label: 'true_positive' },
          { token_hash: keyIdOf(UNKNOWN_KEY), token_type: 'drops_api_key', label: 'false_positive' },
          { token_hash: keyIdOf('not-one-of-ours'), token_type: 'drops_api_key', label: 'false_positive' },
        ]);
        assert.equal(await authenticates(live.apiKey), false);
        const [revoked] = await eventsOf();
        assert.deepStrictEqual(
          { type: revoked?.type, keyId: revoked?.keyId, source: revoked?.source, actor: revoked?.actor, url: revoked?.url },
          { type: 'revoked', keyId: live.id, source: 'github_secret_scanning', actor: 'github', url: FOUND_AT },
        );
        // Sent again (GitHub retries): still ours, a true positive.
        const again = await alert(body, github.signedHeaders(body));
        assert.deepStrictEqual(
          ((await again.json()) as Array<{ label: string }>).map((f) => f.label),
          ['true_positive', 'false_positive', 'false_positive'],
        );
      });

      const forged: Array<readonly [string, (body: string) => { body: string; headers: Record<string, string> }, number]> = [
        ['an unsigned alert', (body) => ({ body, headers: {} }), 401],
        [
          'an alert signed by a key GitHub does not publish',
          (body) => ({ body, headers: github.signedHeaders(body, { key: github.newKey({ publish: false }) }) }),
          401,
        ],
        [
          "an alert signed by another key under GitHub's identifier",
          (body) => ({
            body,
            headers: github.signedHeaders(body, { key: github.newKey({ publish: false }), keyIdentifier: github.currentKey.keyIdentifier }),
          }),
          401,
        ],
        [
          'an alert changed by one byte after signing',
          (body) => ({ body: body.replace('"content"', '"contenT"'), headers: github.signedHeaders(body) }),
          401,
        ],
        [
          'a truncated signature',
          (body) => {
            const headers = github.signedHeaders(body);
            return { body, headers: { ...headers, 'Github-Public-Key-Signature': headers['Github-Public-Key-Signature'].slice(0, 30) } };
          },
          401,
        ],
        [
          'a garbage signature',
          (body) => ({ body, headers: { ...github.signedHeaders(body), 'Github-Public-Key-Signature': 'bm90IGEgc2lnbmF0dXJl' } }),
          401,
        ],
        [
          'a signed body that is not JSON',
          () => ({ body: `[{"token":"${live.apiKey}"`, headers: github.signedHeaders(`[{"token":"${live.apiKey}"`) }),
          400,
        ],
        [
          'a signed body of another shape',
          () => ({ body: `{"token":"${live.apiKey}"}`, headers: github.signedHeaders(`{"token":"${live.apiKey}"}`) }),
          400,
        ],
      ];
      for (const [what, make, status] of forged) {
        it(`refuses ${what} with a ${status} {error} and revokes nothing`, async () => {
          const { body, headers } = make(alertBody([{ token: live.apiKey }]));
          const res = await alert(body, headers);
          assert.equal(res.status, status, what);
          assertJsonError(res.status, await res.text(), live.apiKey, what);
          assert.equal(await authenticates(live.apiKey), true, `${what}: the key must still authenticate`);
        });
      }

      it('answers a replayed alert with the same bytes, and revokes once: one revocation event', async () => {
        const body = alertBody([{ token: live.apiKey }, { token: UNKNOWN_KEY }]);
        const headers = github.signedHeaders(body);
        const send = async (): Promise<string> => {
          const res = await sendRawRequest(
            url,
            'POST',
            '/secret-scanning/github',
            [['Content-Type', 'application/json'], ...Object.entries(headers)],
            body,
          );
          return wireSnapshotOf(res);
        };
        const first = await send();
        const replays = await Promise.all([send(), send(), send()]);
        assert.deepStrictEqual(replays, [first, first, first]);
        assert.deepStrictEqual(await send(), first);
        assert.equal(await authenticates(live.apiKey), false);
        const revocations = (await eventsOf()).filter((e) => e.type === 'revoked' && e.keyId === live.id);
        assert.equal(revocations.length, 1);
      });

      it('never refuses a genuine alert signed by a newly published key after junk alerts used up the refetch: 503 with Retry-After, then revoked', async () => {
        let now = Date.UTC(2026, 5, 1);
        const base = await start({
          githubSecretScanning: createGitHubSecretScanning({ keysUrl: github.keysUrl, clock: () => now, unknownKeyCooldownMs: 60_000 }),
        });
        const key = await mint(base, owner);
        const body = alertBody([{ token: key.apiKey }]);
        for (let i = 0; i < 10; i++) {
          const junk = alertBody([{ token: `hp_${'J'.repeat(42)}A` }]);
          const res = await alert(junk, github.signedHeaders(junk, { key: github.newKey({ publish: false }) }), base);
          assert.ok(res.status === 401 || res.status === 503, `a junk alert answered ${res.status}`);
          await res.arrayBuffer();
          now += 1000;
        }
        const published = github.newKey();
        const refused = await alert(body, github.signedHeaders(body, { key: published }), base);
        assert.equal(refused.status, 503, 'inside the cooldown: a 503 (GitHub retries), never a 401');
        const retryAfter = Number(refused.headers.get('retry-after'));
        assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
        await refused.arrayBuffer();
        assert.equal(await authenticates(key.apiKey, base), true);
        now += retryAfter * 1000; // GitHub sends it again once Retry-After has passed
        const retried = await alert(body, github.signedHeaders(body, { key: published }), base);
        assert.equal(retried.status, 200);
        assert.deepStrictEqual(
          ((await retried.json()) as Array<{ label: string }>).map((f) => f.label),
          ['true_positive'],
        );
        assert.equal(await authenticates(key.apiKey, base), false);
      });

      it('refuses a body over the size limit with a 413 and revokes nothing', async () => {
        const body = alertBody([{ token: live.apiKey, url: `https://github.com/${'x'.repeat(1024 * 1024)}` }]);
        const res = await sendRawRequest(
          url,
          'POST',
          '/secret-scanning/github',
          [['Content-Type', 'application/json'], ...Object.entries(github.signedHeaders(body))],
          body,
        );
        assert.equal(res.status, 413);
        assertJsonError(res.status, res.body.toString('utf8'), live.apiKey, 'oversized');
        assert.equal(await authenticates(live.apiKey), true);
      });

      for (const mode of ['down', 'garbage'] as const) {
        it(`answers 503 with Retry-After, never 401, when GitHub's key list is ${mode === 'down' ? 'unreachable' : 'malformed'}, and revokes nothing`, async () => {
          github.simulateOutage(mode);
          const body = alertBody([{ token: live.apiKey }]);
          const res = await alert(body, github.signedHeaders(body));
          assert.equal(res.status, 503);
          assert.match(res.headers.get('retry-after') ?? '', /^[0-9]+$/);
          await res.arrayBuffer();
          github.simulateOutage(null);
          assert.equal(await authenticates(live.apiKey), true);
        });
      }

      it('answers other methods with 405 and Allow: POST', async () => {
        const res = await fetch(`${url}/secret-scanning/github`);
        assert.equal(res.status, 405);
        assert.equal(res.headers.get('allow'), 'POST');
        await res.arrayBuffer();
      });

      it('is not served with githubSecretScanning: false', async () => {
        const base = await start({ githubSecretScanning: false });
        const body = alertBody([{ token: live.apiKey }]);
        const res = await alert(body, github.signedHeaders(body), base);
        assert.equal(res.status, 404);
        await res.arrayBuffer();
      });
    });

    describe('GET /keys/events', () => {
      it("lists the account's events newest first, with an ID token or an API key (its first use an event too), page by page", async () => {
        const second = await mint(url, owner);
        await fetch(`${url}/keys/${second.id}`, { method: 'DELETE', headers: { ...token(), 'user-agent': USER_AGENT } });
        await mint(url, 'acct_not_mine');
        const list = async (headers: Record<string, string>): Promise<KeyEventJson[]> => {
          const res = await fetch(`${url}/keys/events`, { headers: { ...headers, 'user-agent': USER_AGENT } });
          assert.equal(res.status, 200);
          assert.equal(res.headers.get('cache-control'), 'no-store');
          const page = (await res.json()) as { events: KeyEventJson[]; next: string | null };
          assert.equal(page.next, null);
          return page.events;
        };
        const byToken = await list(token());
        assert.deepStrictEqual(
          byToken.map((e) => [e.type, e.keyId]),
          [
            ['revoked', second.id],
            ['minted', second.id],
            ['minted', live.id],
          ],
        );
        const minted = byToken[1]!;
        assert.deepStrictEqual([minted.source, minted.actor, minted.userAgent], ['api', owner, USER_AGENT]);
        assert.match(String(minted.ip), /127\.0\.0\.1$/);
        const revoked = byToken[0]!;
        assert.deepStrictEqual([revoked.source, revoked.actor, revoked.userAgent], ['api', owner, USER_AGENT]);

        // The API key's first use, this very request, is recorded with what the request showed.
        const byKey = await list({ authorization: `Bearer ${live.apiKey}` });
        assert.deepStrictEqual(byKey.slice(1), byToken);
        assert.deepStrictEqual(
          [byKey[0]!.type, byKey[0]!.keyId, byKey[0]!.actor, byKey[0]!.userAgent],
          ['first_used', live.id, live.id, USER_AGENT],
        );
        assert.match(String(byKey[0]!.ip), /127\.0\.0\.1$/);

        const first = (await (await fetch(`${url}/keys/events?limit=3`, { headers: token() })).json()) as {
          events: KeyEventJson[];
          next: string;
        };
        assert.equal(first.events.length, 3);
        assert.equal(typeof first.next, 'string');
        const rest = (await (
          await fetch(`${url}/keys/events?limit=3&cursor=${encodeURIComponent(first.next)}`, { headers: token() })
        ).json()) as {
          events: KeyEventJson[];
          next: string | null;
        };
        assert.deepStrictEqual(
          rest.events.map((e) => [e.type, e.keyId]),
          [['minted', live.id]],
        );
        assert.equal(rest.next, null);
      });

      for (const query of ['limit=0', 'limit=101', 'limit=ten', 'cursor=not-a-cursor']) {
        it(`answers 400 {error} for ?${query}`, async () => {
          const res = await fetch(`${url}/keys/events?${query}`, { headers: token() });
          assert.equal(res.status, 400, query);
          assertJsonError(res.status, await res.text(), live.apiKey, query);
        });
      }

      it('answers the uniform 401 without a credential, and 405 to other methods once authenticated', async () => {
        assert.deepStrictEqual(await snapshotOf(await fetch(`${url}/keys/events`)), UNIFORM_401);
        const res = await fetch(`${url}/keys/events`, { method: 'DELETE', headers: token() });
        assert.equal(res.status, 405);
        assert.equal(res.headers.get('allow'), 'GET');
        await res.arrayBuffer();
      });
    });
  });
}
