import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LocalIdentityProvider, LocalSecretScanningKeys, snapshotOf, UNIFORM_401 } from '@drops/auth/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime, type Runtime, type RunningRuntime } from './start-runtime.js';

// The same conformance checks on each runtime, against the core's web build as that runtime
// resolves it, served by src/conformance-app.ts and driven over HTTP from here.
describe.each<Runtime>(['bun', 'deno', 'workerd'])('the core on %s', (runtime) => {
  let idp: LocalIdentityProvider;
  let down: LocalIdentityProvider;
  let github: LocalSecretScanningKeys;
  let server: RunningRuntime;
  const get = (path: string, credential?: string): Promise<Response> =>
    fetch(`${server.url}${path}`, { headers: credential === undefined ? {} : { authorization: `Bearer ${credential}` } });

  beforeAll(async () => {
    idp = await LocalIdentityProvider.start({ audience: 'drops-runtimes' });
    down = await LocalIdentityProvider.start({ audience: 'drops-runtimes' });
    down.simulateOutage('down');
    github = await LocalSecretScanningKeys.start();
    server = await startRuntime(runtime, {
      entry: fileURLToPath(new URL(`./entries/${runtime === 'workerd' ? 'worker' : runtime}.ts`, import.meta.url)),
      env: {
        ISSUER: idp.issuer,
        AUDIENCE: idp.audience,
        JWKS_URL: idp.jwksUrl,
        DOWN_JWKS_URL: down.jwksUrl,
        SECRET_SCANNING_KEYS_URL: github.keysUrl,
      },
    });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await idp?.close();
    await down?.close();
    await github?.close();
  });

  it('mints a key (an ID token from the local JWKS) and authenticates it with MemoryKeyStore', async () => {
    const minted = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${idp.mintIdToken({ sub: 'acct_runtime' })}` },
      body: JSON.stringify({ name: runtime }),
    });
    expect(minted.status, server.output()).toBe(201);
    const { apiKey, id } = (await minted.json()) as { apiKey: string; id: string };
    expect(apiKey).toMatch(/^hp_[A-Za-z0-9_-]{43}$/);
    expect(id).toBe(createHash('sha256').update(apiKey).digest('hex'));

    const whoami = await get('/whoami', apiKey);
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toEqual({ accountId: 'acct_runtime', credential: 'api_key', keyId: id });
  });

  it.each([
    ['ed25519_test.subset.json', 'EdDSA', 61],
    ['ecdsa_secp256r1_sha256_p1363_test.subset.json', 'ES256', 25],
    ['ecdsa_secp256r1_sha256_test.subset.json', 'ES256', 20],
    ['ecdsa_secp384r1_sha384_p1363_test.subset.json', 'ES384', 28],
    ['ecdsa_secp384r1_sha384_test.subset.json', 'ES384', 14],
    ['rsa_signature_2048_sha256_test.subset.json', 'RS256', 8],
    ['rsa_signature_2048_sha384_test.subset.json', 'RS384', 30],
    ['rsa_signature_2048_sha512_test.subset.json', 'RS512', 11],
    ['rsa_signature_3072_sha256_test.subset.json', 'RS256', 6],
    ['rsa_signature_4096_sha384_test.subset.json', 'RS384', 7],
    ['rsa_signature_4096_sha512_test.subset.json', 'RS512', 7],
    ['rsa_pss_2048_sha256_mgf1_32_test.subset.json', 'PS256', 33],
    ['rsa_pss_3072_sha256_mgf1_32_test.subset.json', 'PS256', 9],
    ['rsa_pss_4096_sha384_mgf1_48_test.subset.json', 'PS384', 6],
    ['rsa_pss_4096_sha512_mgf1_64_test.subset.json', 'PS512', 6],
  ])('gives every Wycheproof vector of %s (%s, the %i with an ASCII message) its verdict', async (name, alg, count) => {
    const file = JSON.parse(readFileSync(new URL(`../../packages/auth/test/wycheproof/${name}`, import.meta.url), 'utf8')) as unknown;
    const answer = await fetch(`${server.url}/jws-test-vectors`, { method: 'POST', body: JSON.stringify({ alg, file }) });
    expect(answer.status, server.output()).toBe(200);
    expect(await answer.json()).toEqual({ run: count, wrong: [] });
  });

  it('refuses a malformed and an unknown key with the uniform 401', async () => {
    expect(await snapshotOf(await get('/whoami', 'hp_bad'))).toEqual(UNIFORM_401);
    expect(await snapshotOf(await get('/whoami', `hp_${'A'.repeat(43)}`))).toEqual(UNIFORM_401);
    expect(await snapshotOf(await get('/whoami'))).toEqual(UNIFORM_401);
  });

  it('verifies an ID token from the JWKS', async () => {
    const answer = await get('/whoami', idp.mintIdToken({ sub: 'user_1' }));
    expect(answer.status, server.output()).toBe(200);
    expect(await answer.json()).toEqual({ accountId: 'user_1', credential: 'id_token', keyId: null });
  });

  it.each<[string, () => string]>([
    ['expired', () => idp.mintIdToken({ iat: Math.floor(Date.now() / 1000) - 7200 }, { expiresInSeconds: -3600 - 60 })],
    ['for another audience', () => idp.mintIdToken({ aud: 'someone-else' })],
    ['signed by an unknown kid', () => idp.mintIdToken({}, { kid: 'not-in-the-key-set' })],
    [
      'with a tampered payload',
      () => {
        const [header, , signature] = idp.mintIdToken({ sub: 'user_1' }).split('.');
        const payload = idp.mintIdToken({ sub: 'admin' }).split('.')[1];
        return `${header}.${payload}.${signature}`;
      },
    ],
  ])('refuses an ID token %s with the uniform 401', async (_what, token) => {
    expect(await snapshotOf(await get('/whoami', token()))).toEqual(UNIFORM_401);
  });

  it('answers 503 when the key set cannot be fetched', async () => {
    const answer = await get('/down/whoami', down.mintIdToken({ sub: 'user_1' }));
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).not.toBeNull();
  });

  it('verifies GitHub secret scanning alerts on Web Crypto and revokes the key they name; a forged one revokes nothing', async () => {
    const minted = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${idp.mintIdToken({ sub: 'acct_scanned' })}` },
      body: '{}',
    });
    const { apiKey, id } = (await minted.json()) as { apiKey: string; id: string };
    const body = JSON.stringify([{ token: apiKey, type: 'drops_api_key', url: 'https://github.com/o/r/blob/x/.env', source: 'content' }]);
    const post = (payload: string, headers: Record<string, string>): Promise<Response> =>
      fetch(`${server.url}/secret-scanning/github`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: payload,
      });

    for (const [payload, headers] of [
      [body, {}],
      [body.replace('"content"', '"contenT"'), github.signedHeaders(body)],
      [body, github.signedHeaders(body, { key: github.newKey({ publish: false }), keyIdentifier: github.currentKey.keyIdentifier })],
    ] as const) {
      const refused = await post(payload, headers);
      expect(refused.status, server.output()).toBe(401);
      expect((await get('/whoami', apiKey)).status).toBe(200);
    }

    const accepted = await post(body, github.signedHeaders(body));
    expect(accepted.status, server.output()).toBe(200);
    expect(await accepted.json()).toEqual([{ token_hash: id, token_type: 'drops_api_key', label: 'true_positive' }]);
    expect(await snapshotOf(await get('/whoami', apiKey))).toEqual(UNIFORM_401);
  });
});
