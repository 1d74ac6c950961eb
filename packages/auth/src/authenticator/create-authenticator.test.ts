import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../api-key/generate-api-key.js';
import { keyIdOf } from '../api-key/key-id.js';
import { DropsAuthError } from '../errors/drops-auth-error.js';
import { UnauthenticatedError, UNAUTHENTICATED_MESSAGE } from '../errors/unauthenticated-error.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import type { IdTokenClaims, IdTokenVerifier } from '../id-token/id-token-claims.js';
import type { KeyLookup } from '../key-store/key-lookup.js';
import type { KeyStore } from '../key-store/key-store.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { delegatingKeyStore } from '../testing/delegating-key-store.js';
import { sampleKeyRecord } from '../testing/sample-key-record.js';
import { createAuthenticator } from './create-authenticator.js';

const GOOD_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyXzEifQ.c2lnbmF0dXJl';
const EXPIRED_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.ZXhwaXJlZA.c2lnbmF0dXJl';
const DOWN_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.ZG93bg.c2lnbmF0dXJl';

const claims: IdTokenClaims = { sub: 'user_1', iss: 'https://issuer.test', aud: 'drops', iat: 1, exp: 2 };

/** A verifier of our own interface that knows three tokens: good, expired, and provider-down. */
const verifier: IdTokenVerifier = {
  async verify(token) {
    if (token === GOOD_TOKEN) return claims;
    if (token === EXPIRED_TOKEN) throw new UnauthenticatedError('expired_token');
    if (token === DOWN_TOKEN) throw new UnavailableError('identity_provider');
    throw new UnauthenticatedError('invalid_token');
  },
  async warmUp() {},
};

async function setup(options: Partial<Parameters<typeof createAuthenticator>[0]> = {}) {
  const keyStore = new MemoryKeyStore({ minUseIntervalMs: 0, clock: () => 1_700_000_000_000 });
  const live = generateApiKey();
  const revoked = generateApiKey();
  for (const k of [live, revoked]) {
    await keyStore.create({
      id: k.id,
      accountId: 'acct_1',
      prefix: k.prefix,
      name: null,
      createdAt: new Date(0),
      provenance: null,
      expiresAt: null,
    });
  }
  await keyStore.revoke('acct_1', revoked.id, { at: new Date(0) });
  const authenticator = createAuthenticator({ keyStore, idTokenVerifier: verifier, ...options });
  return { keyStore, authenticator, live, revoked };
}

async function failure(promise: Promise<unknown>): Promise<DropsAuthError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DropsAuthError);
  return error as DropsAuthError;
}

describe('createAuthenticator', () => {
  it('authenticates an active API key to its account and records its use', async () => {
    const { authenticator, live, keyStore } = await setup();
    const principal = await authenticator.authenticate(`Bearer ${live.secret}`);
    expect(principal).toEqual({ accountId: 'acct_1', credential: 'api_key', keyId: live.id });
    const [listed] = await keyStore.listByAccount('acct_1');
    expect(listed?.lastUsedAt).toEqual(new Date(1_700_000_000_000));
  });

  it("records each use at the store's clock time of its request, as the clock moves", async () => {
    let now = 1_700_000_000_000;
    const keyStore = new MemoryKeyStore({ minUseIntervalMs: 0, clock: () => now });
    const a = generateApiKey();
    const b = generateApiKey();
    for (const [k, accountId] of [
      [a, 'acct_a'],
      [b, 'acct_b'],
    ] as const) {
      await keyStore.create({
        id: k.id,
        accountId,
        prefix: k.prefix,
        name: null,
        createdAt: new Date(0),
        provenance: null,
        expiresAt: null,
      });
    }
    const recorded: Array<[string, number]> = [];
    const spy = delegatingKeyStore(keyStore, {
      recordUse: (id, at) => {
        recorded.push([id, at.getTime()]);
        keyStore.recordUse(id, at);
      },
    });
    const authenticator = createAuthenticator({ keyStore: spy });
    await authenticator.authenticate(`Bearer ${a.secret}`);
    await authenticator.authenticate(`Bearer ${b.secret}`);
    now += 1;
    await authenticator.authenticate(`Bearer ${a.secret}`);
    now += 59_999;
    await authenticator.authenticate(`Bearer ${b.secret}`);
    expect(recorded).toEqual([
      [a.id, 1_700_000_000_000],
      [b.id, 1_700_000_000_000],
      [a.id, 1_700_000_000_001],
      [b.id, 1_700_000_060_000],
    ]);
    expect((await keyStore.listByAccount('acct_a'))[0]?.lastUsedAt).toEqual(new Date(1_700_000_000_001));
    expect((await keyStore.listByAccount('acct_b'))[0]?.lastUsedAt).toEqual(new Date(1_700_000_060_000));
  });

  it('stamps uses of one millisecond with one Date, when the store reads its clock in fractions of one', async () => {
    // PostgresKeyStore's clock is the database's: the process's plus an offset in microseconds.
    let now = 1_700_000_000_000.25;
    const keyStore = new MemoryKeyStore({ minUseIntervalMs: 0, clock: () => now });
    const key = sampleKeyRecord();
    await keyStore.create(key);
    const stamps: Date[] = [];
    const spy = delegatingKeyStore(keyStore, { recordUse: (_id, at) => stamps.push(at) });
    const authenticator = createAuthenticator({ keyStore: spy });
    await authenticator.authenticate(`Bearer ${key.secret}`);
    now += 0.5;
    await authenticator.authenticate(`Bearer ${key.secret}`);
    now += 0.5;
    await authenticator.authenticate(`Bearer ${key.secret}`);
    expect(stamps.map((at) => at.getTime())).toEqual([1_700_000_000_000, 1_700_000_000_000, 1_700_000_000_001]);
    expect(stamps[1]).toBe(stamps[0]);
  });

  it('hands the request-info thunk to recordUse, uncalled, and writes it with the first use', async () => {
    const keyStore = new MemoryKeyStore({ clock: () => 1_700_000_000_000 });
    const key = generateApiKey();
    await keyStore.create({
      id: key.id,
      accountId: 'acct_req',
      prefix: key.prefix,
      name: null,
      createdAt: new Date(0),
      provenance: null,
      expiresAt: null,
    });
    const handed: unknown[] = [];
    const spy = delegatingKeyStore(keyStore, {
      recordUse: (id, at, info) => {
        handed.push(info);
        keyStore.recordUse(id, at, info);
      },
    });
    let calls = 0;
    const request = (): { ip: string; userAgent: string } => {
      calls++;
      return { ip: '203.0.113.5', userAgent: 'pipeline/2' };
    };
    const authenticator = createAuthenticator({ keyStore: spy });
    for (let i = 0; i < 3; i++) await authenticator.authenticate(`Bearer ${key.secret}`, { request });
    await authenticator.authenticate(`Bearer ${key.secret}`);
    expect(handed).toEqual([request, request, request, undefined]);
    expect(calls).toBe(1); // the store kept one use within the minute, and asked once
    const { events } = await keyStore.listEvents('acct_req', { limit: 10 });
    expect(events[0]).toMatchObject({ type: 'first_used', actor: key.id, ip: '203.0.113.5', userAgent: 'pipeline/2' });
  });

  it('authenticates an ID token to its subject by default', async () => {
    const { authenticator } = await setup();
    expect(await authenticator.authenticate(`Bearer ${GOOD_TOKEN}`)).toEqual({
      accountId: 'user_1',
      credential: 'id_token',
      claims,
    });
  });

  it('reads Fetch Headers and Node header objects alike', async () => {
    const { authenticator, live } = await setup();
    const a = await authenticator.authenticate(new Headers({ authorization: `Bearer ${live.secret}` }));
    const b = await authenticator.authenticate({ authorization: `bearer ${live.secret}` });
    expect(a).toEqual(b);
  });

  /** Every kind of authentication failure, as the distinct (status, headers, body) triples they answer. */
  async function answersOfEveryFailure({ authenticator, live, revoked }: Awaited<ReturnType<typeof setup>>): Promise<string[]> {
    const cases: Array<[string, Promise<unknown>]> = [
      ['missing', authenticator.authenticate(undefined)],
      ['empty header', authenticator.authenticate('')],
      ['malformed', authenticator.authenticate('Bearer hp_nope')],
      ['other scheme', authenticator.authenticate(`Basic ${live.secret}`)],
      ['unknown key', authenticator.authenticate(`Bearer ${generateApiKey().secret}`)],
      ['revoked key', authenticator.authenticate(`Bearer ${revoked.secret}`)],
      ['expired token', authenticator.authenticate(`Bearer ${EXPIRED_TOKEN}`)],
      ['invalid token', authenticator.authenticate('Bearer not.a.token')],
      ['key where only tokens go', authenticator.authenticate(`Bearer ${live.secret}`, { accept: ['id_token'] })],
      ['token where only keys go', authenticator.authenticate(`Bearer ${GOOD_TOKEN}`, { accept: ['api_key'] })],
    ];
    const seen = new Set<string>();
    for (const [label, promise] of cases) {
      const error = await failure(promise);
      expect(error, label).toBeInstanceOf(UnauthenticatedError);
      seen.add(JSON.stringify([error.status, error.headers, error.bodyText]));
    }
    return [...seen];
  }

  it('answers every kind of authentication failure with byte-identical 401s', async () => {
    expect(await answersOfEveryFailure(await setup())).toEqual([
      JSON.stringify([
        401,
        {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
          'www-authenticate': 'Bearer realm="drops"',
        },
        JSON.stringify({ error: UNAUTHENTICATED_MESSAGE }),
      ]),
    ]);
  });

  it("answers every failure with the one 401 of the app's unauthenticated realm and message", async () => {
    const message = 'missing or invalid API key: create one at https://acme.example/keys';
    const acme = await setup({ unauthenticated: { realm: 'acme', message } });
    expect(await answersOfEveryFailure(acme)).toEqual([
      JSON.stringify([
        401,
        { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'www-authenticate': 'Bearer realm="acme"' },
        JSON.stringify({ error: message }),
      ]),
    ]);
    // Only the realm: the spec's message stays.
    const realmOnly = await failure((await setup({ unauthenticated: { realm: 'acme' } })).authenticator.authenticate(undefined));
    expect([realmOnly.headers['www-authenticate'], realmOnly.bodyText]).toEqual([
      'Bearer realm="acme"',
      JSON.stringify({ error: UNAUTHENTICATED_MESSAGE }),
    ]);
  });

  it('refuses a realm that would break the header, or an empty message, at creation', () => {
    const keyStore = new MemoryKeyStore();
    for (const unauthenticated of [
      { realm: 'a"b' },
      { realm: 'a\\b' },
      { realm: 'a\nb' },
      { realm: '' },
      { realm: 'é' },
      { message: '' },
      { colour: 'red' },
      'acme',
    ]) {
      expect(() => createAuthenticator({ keyStore, unauthenticated } as never), JSON.stringify(unauthenticated)).toThrow(TypeError);
    }
    expect(() => createAuthenticator({ keyStore, unauthenticated: { realm: 'a"b' } })).toThrow(
      /^createAuthenticator: options\.unauthenticated\.realm: must be printable ASCII/,
    );
  });

  it('never puts the credential in the error', async () => {
    const { authenticator, revoked } = await setup();
    const error = await failure(authenticator.authenticate(`Bearer ${revoked.secret}`));
    expect(JSON.stringify({ ...error, message: error.message, body: error.body })).not.toContain(revoked.secret);
    expect(String(error.stack)).not.toContain(revoked.secret);
  });

  it('refuses a malformed key as malformed: a wrong length before any store access, the store asked at most for a SHA-256 id, and never a 503', async () => {
    const asked: string[] = [];
    let down = false;
    const spy = new MemoryKeyStore();
    const counting: KeyStore = Object.assign(Object.create(spy) as KeyStore, {
      findActive: async (id: string) => {
        asked.push(id);
        if (down) throw new Error('db down');
        return spy.findActive(id);
      },
    });
    const authenticator = createAuthenticator({ keyStore: counting });
    const reasonOf = async (secret: string) =>
      ((await failure(authenticator.authenticate(`Bearer ${secret}`))) as UnauthenticatedError).reason;
    for (const bad of ['hp_', `hp_${'A'.repeat(44)}`, `hp_${'A'.repeat(41)}`]) expect(await reasonOf(bad)).toBe('malformed');
    expect(asked).toEqual([]);
    // The key's length, not its alphabet (a last character carrying more than 4 bits, a '.'):
    // hashed and looked up like any key, refused as malformed when the store knows none.
    const illFormed = [`hp_${'A'.repeat(42)}B`, `hp_${'A'.repeat(41)}.A`];
    for (const bad of illFormed) expect(await reasonOf(bad)).toBe('malformed');
    expect(asked).toEqual(illFormed.map((bad) => keyIdOf(bad)));
    expect(await reasonOf(generateApiKey().secret)).toBe('unknown_key');
    down = true;
    for (const bad of illFormed) expect(await reasonOf(bad)).toBe('malformed');
    expect(await failure(authenticator.authenticate(`Bearer ${generateApiKey().secret}`))).toBeInstanceOf(UnavailableError);
    const onlyTokens = { accept: ['id_token'] as const };
    expect(((await failure(authenticator.authenticate(`Bearer ${illFormed[0]}`, onlyTokens))) as UnauthenticatedError).reason).toBe(
      'malformed',
    );
  });

  it('refuses a credential that is not token68 as malformed on every path, and never hands it to the verifier', async () => {
    const verified: string[] = [];
    const counting: IdTokenVerifier = {
      ...verifier,
      verify: (token) => {
        verified.push(token);
        return verifier.verify(token);
      },
    };
    const { keyStore } = await setup();
    const withVerifier = createAuthenticator({ keyStore, idTokenVerifier: counting });
    const withoutVerifier = createAuthenticator({ keyStore });
    const reasonOf = async (header: string, options?: { accept: ('api_key' | 'id_token')[] }, authenticator = withVerifier) =>
      ((await failure(authenticator.authenticate(header, options))) as UnauthenticatedError).reason;
    for (const bad of ['Bearer a b', 'Bearer a=b', 'Bearer é', `Bearer ${GOOD_TOKEN},x`]) {
      expect(await reasonOf(bad), bad).toBe('malformed');
      expect(await reasonOf(bad, { accept: ['api_key'] }), bad).toBe('malformed');
      expect(await reasonOf(bad, undefined, withoutVerifier), bad).toBe('malformed');
    }
    expect(verified).toEqual([]);
    // A token68 credential that is no key is a token: refused for what it is.
    expect(await reasonOf(`Bearer ${GOOD_TOKEN}`, { accept: ['api_key'] })).toBe('wrong_credential_type');
    expect(await reasonOf(`Bearer ${GOOD_TOKEN}`, undefined, withoutVerifier)).toBe('wrong_credential_type');
  });

  it('answers a key header spelled the usual way as it answers any other spelling of it', async () => {
    const { authenticator, live, revoked } = await setup();
    const outcome = (header: string) =>
      authenticator.authenticate(header).then(
        (principal) => principal,
        (error: unknown) => (error instanceof UnauthenticatedError ? error.reason : error),
      );
    const secrets = [
      live.secret,
      revoked.secret,
      generateApiKey().secret,
      `hp_${'A'.repeat(42)}B`,
      `hp_${'A'.repeat(42)} `,
      `${live.secret.slice(0, 45)}\t`,
    ];
    for (const secret of secrets) {
      const usual = await outcome(`Bearer ${secret}`);
      expect(await outcome(`bearer  ${secret}`), secret).toEqual(usual);
      expect(await outcome(`BEARER ${secret}`), secret).toEqual(usual);
    }
    expect(await outcome(`Bearer ${live.secret}`)).toEqual({ accountId: 'acct_1', credential: 'api_key', keyId: live.id });
    expect(await outcome(`Bearer ${live.secret.slice(0, 45)} `)).toBe('malformed');
    expect(await failure(authenticator.authenticate(`Bearer ${live.secret}`, { accept: ['id_token'] }))).toMatchObject({
      reason: 'wrong_credential_type',
    });
  });

  it('takes a store of the hot path alone (KeyLookup): finds, stamps uses, refuses the revoked and the expired', async () => {
    const { keyStore, live, revoked } = await setup();
    const expired = generateApiKey();
    await keyStore.create({ ...sampleKeyRecord({ accountId: 'acct_1' }), id: expired.id, prefix: expired.prefix, expiresAt: new Date(0) });
    const used: string[] = [];
    const lookup: KeyLookup = {
      findActive: async (id) => keyStore.findActive(id),
      now: () => keyStore.now(),
      recordUse: (id) => void used.push(`use ${id}`),
      recordExpired: (id) => void used.push(`expired ${id}`),
    };
    const authenticator = createAuthenticator({ keyStore: lookup });
    expect(await authenticator.authenticate(`Bearer ${live.secret}`)).toEqual({
      accountId: 'acct_1',
      credential: 'api_key',
      keyId: live.id,
    });
    for (const key of [revoked, expired]) expect((await failure(authenticator.authenticate(`Bearer ${key.secret}`))).status).toBe(401);
    expect(used).toEqual([`use ${live.id}`, `expired ${expired.id}`]);
  });

  it('answers 503, never 401 or success, when the key store fails', async () => {
    const broken: KeyStore = Object.assign(new MemoryKeyStore(), {
      findActive: async () => {
        throw new Error('connection refused');
      },
    });
    const authenticator = createAuthenticator({ keyStore: broken });
    const error = await failure(authenticator.authenticate(`Bearer ${generateApiKey().secret}`));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.status).toBe(503);
    expect(error.headers['retry-after']).toBe('5');
    expect(error.bodyText).not.toContain('connection refused');
  });

  it('answers 503 when the identity provider is unavailable or the verifier breaks', async () => {
    const { authenticator } = await setup();
    expect((await failure(authenticator.authenticate(`Bearer ${DOWN_TOKEN}`))).status).toBe(503);
    const buggy = createAuthenticator({
      keyStore: new MemoryKeyStore(),
      idTokenVerifier: { verify: async () => Promise.reject(new RangeError('bug')), warmUp: async () => {} },
    });
    expect((await failure(buggy.authenticate(`Bearer ${GOOD_TOKEN}`))).status).toBe(503);
  });

  describe('sign-out everywhere', () => {
    const signedIn = (authTime: number | undefined, iat: number): IdTokenVerifier => ({
      verify: async () => ({ ...claims, iat, exp: iat + 3600, ...(authTime === undefined ? {} : { auth_time: authTime }) }),
      warmUp: async () => {},
    });
    const event = { source: 'api', actor: 'user_1', ip: null, userAgent: null, url: null } as const;

    it('refuses a sign-in at or before the cut-off with the uniform 401, by auth_time (a refreshed token too), else by iat', async () => {
      const keyStore = new MemoryKeyStore();
      await keyStore.signOutEverywhere('user_1', { at: new Date(1_000_000), event });
      const junk = await failure(setup().then(({ authenticator }) => authenticator.authenticate('Bearer hp_junk')));
      for (const [authTime, iat] of [
        [1_000, 1_000], // the caller's own token
        [900, 900], // an older sign-in
        [1_000, 1_500], // refreshed after the sign-out, from the old sign-in
        [undefined, 1_000], // no auth_time: its iat
      ] as const) {
        const authenticator = createAuthenticator({ keyStore, idTokenVerifier: signedIn(authTime, iat) });
        const refused = await failure(authenticator.authenticate(`Bearer ${GOOD_TOKEN}`));
        expect(refused).toBeInstanceOf(UnauthenticatedError);
        expect([refused.status, refused.headers, refused.bodyText]).toEqual([junk.status, junk.headers, junk.bodyText]);
      }
      const later = createAuthenticator({ keyStore, idTokenVerifier: signedIn(1_001, 1_001) });
      expect(await later.authenticate(`Bearer ${GOOD_TOKEN}`)).toMatchObject({ accountId: 'user_1', credential: 'id_token' });
    });

    it('leaves other accounts and API keys alone', async () => {
      const { keyStore, live } = await setup();
      await keyStore.signOutEverywhere('acct_1', { at: new Date(5_000_000), event });
      const authenticator = createAuthenticator({ keyStore, idTokenVerifier: signedIn(1_000, 1_000) });
      expect(await authenticator.authenticate(`Bearer ${GOOD_TOKEN}`)).toMatchObject({ accountId: 'user_1' });
      expect(await authenticator.authenticate(`Bearer ${live.secret}`)).toMatchObject({ accountId: 'acct_1' });
    });

    it('answers 503, never 401 or success, when the cut-off cannot be read', async () => {
      const sessionCutoffs = { signOutEverywhere: async () => new Date(), sessionCutoff: () => Promise.reject(new Error('no lease')) };
      const authenticator = createAuthenticator({
        keyStore: new MemoryKeyStore(),
        idTokenVerifier: signedIn(1_000, 1_000),
        sessionCutoffs,
      });
      expect((await failure(authenticator.authenticate(`Bearer ${GOOD_TOKEN}`))).status).toBe(503);
    });
  });

  it('refuses every ID token when no verifier is configured', async () => {
    const authenticator = createAuthenticator({ keyStore: new MemoryKeyStore() });
    expect((await failure(authenticator.authenticate(`Bearer ${GOOD_TOKEN}`))).status).toBe(401);
  });

  it('maps users to accounts with resolveAccount, and refuses when it answers null', async () => {
    const authenticator = createAuthenticator({
      keyStore: new MemoryKeyStore(),
      idTokenVerifier: verifier,
      resolveAccount: (c) => (c.sub === 'user_1' ? 'acct_team' : null),
    });
    expect((await authenticator.authenticate(`Bearer ${GOOD_TOKEN}`)).accountId).toBe('acct_team');
    const refusing = createAuthenticator({ keyStore: new MemoryKeyStore(), idTokenVerifier: verifier, resolveAccount: () => null });
    expect((await failure(refusing.authenticate(`Bearer ${GOOD_TOKEN}`))).status).toBe(401);
    const throwing = createAuthenticator({
      keyStore: new MemoryKeyStore(),
      idTokenVerifier: verifier,
      resolveAccount: () => Promise.reject(new Error('users db down')),
    });
    expect((await failure(throwing.authenticate(`Bearer ${GOOD_TOKEN}`))).status).toBe(503);
  });

  describe('authenticateOptional', () => {
    it('resolves null only when there is no Authorization header', async () => {
      const { authenticator, live } = await setup();
      expect(await authenticator.authenticateOptional(undefined)).toBeNull();
      expect(await authenticator.authenticateOptional({})).toBeNull();
      expect((await authenticator.authenticateOptional(`Bearer ${live.secret}`))?.accountId).toBe('acct_1');
    });

    it('refuses a present but bad header, never falling back to anonymous', async () => {
      const { authenticator, revoked } = await setup();
      for (const header of ['', 'Bearer', `Bearer ${revoked.secret}`, 'Basic x']) {
        expect((await failure(authenticator.authenticateOptional(header))).status).toBe(401);
      }
    });
  });

  it('throws TypeError at creation for bad options', () => {
    expect(() => createAuthenticator({} as never)).toThrow(TypeError);
    expect(() => createAuthenticator({ keyStore: { findActive: 1 } } as never)).toThrow(TypeError);
    expect(() => createAuthenticator({ keyStore: new MemoryKeyStore(), idTokenVerifier: {} as never })).toThrow(TypeError);
  });
});
