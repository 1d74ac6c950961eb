// What the harnesses of the docs' examples share (see README.md beside this file): set-up that a
// reader of the docs has already seen in prose (the two objects of docs/adapters.md, a database
// URL, a folder to work in), with everything it starts undone after each example, and the checks
// of what an example's routes claim to do.
//
// Harnesses import this file as `../harness/support.js`: the same path resolves from
// docs/harness/ and from docs/.tmp/, where the assembled examples are written.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAuthenticator,
  createIdTokenVerifier,
  createKeyManager,
  MemoryKeyStore,
  UnauthenticatedError,
  type Authenticator,
  type KeyManager,
  type KeyStore,
} from '@drops/auth';
import { LocalIdentityProvider, sampleKeyRecord, snapshotOf, UNIFORM_401 } from '@drops/auth/testing';
import { freshDatabase } from '../../packages/postgres/src/test-support/fresh-database.js';

type Cleanup = () => unknown;
const cleanups: Cleanup[] = [];

/** Runs `cleanup` once the current example has finished, passed or failed (last registered first). */
export function afterExample(cleanup: Cleanup): void {
  cleanups.push(cleanup);
}

/** Undoes everything the last example started. Called by docs/runnable-examples.test.ts. */
export async function runAfterExample(): Promise<void> {
  const errors: unknown[] = [];
  for (let cleanup = cleanups.pop(); cleanup !== undefined; cleanup = cleanups.pop()) {
    try {
      await cleanup();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new AggregateError(errors, 'cleaning up after a docs example failed');
}

/** Sets an environment variable for the length of one example. */
export function setEnv(name: string, value: string): void {
  const before = process.env[name];
  process.env[name] = value;
  afterExample(() => {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  });
}

/** A new, empty database on the test PostgreSQL (127.0.0.1:5432), dropped after the example. */
export async function scratchDatabaseUrl(): Promise<string> {
  const database = await freshDatabase('docs');
  afterExample(() => database.drop());
  return database.url;
}

/** Makes a new temporary folder the working directory for one example, then removes it. */
export async function inTemporaryDirectory(): Promise<string> {
  const before = process.cwd();
  const dir = await mkdtemp(join(tmpdir(), 'drops-docs-'));
  process.chdir(dir);
  afterExample(async () => {
    process.chdir(before);
    await rm(dir, { recursive: true, force: true });
  });
  return dir;
}

/** A local identity provider (JWKS on 127.0.0.1), closed after the example. */
export async function localIdentityProvider(): Promise<LocalIdentityProvider> {
  const idp = await LocalIdentityProvider.start();
  afterExample(() => idp.close());
  return idp;
}

/** The base URL of a server the example started, once it listens; the server is closed after. */
export async function urlOf(server: Server): Promise<string> {
  afterExample(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** A deployed drop, as the stand-in drops table keeps it. */
export interface Drop {
  readonly owner: string | null;
  readonly bytes: number;
}

/** The app's own drops table in the adapters guide: a stand-in, in memory. */
export class Drops {
  readonly #drops: Drop[] = [];

  create(owner: string | null, bytes = 0): Drop {
    const drop = { owner, bytes };
    this.#drops.push(drop);
    return drop;
  }

  listByOwner(owner: string): Drop[] {
    return this.#drops.filter((drop) => drop.owner === owner);
  }
}

/** What docs/adapters.md's sections start from, with a local identity provider for Firebase. */
export interface AdapterContext {
  readonly idp: LocalIdentityProvider;
  readonly authenticator: Authenticator;
  readonly keys: KeyManager;
  readonly drops: Drops;
}

/**
 * The two objects every section of docs/adapters.md starts from (`authenticator`, `keys`), over a
 * `MemoryKeyStore`, with a local identity provider in place of Firebase so the checks can sign in;
 * and `drops`, the app's own table the routes read.
 */
export async function adapterContext(): Promise<AdapterContext> {
  const idp = await localIdentityProvider();
  const keyStore = new MemoryKeyStore();
  return {
    idp,
    authenticator: createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
    keys: createKeyManager({ keyStore }),
    drops: new Drops(),
  };
}

/** A stand-in for `console` whose lines the checks can read (and that keeps test output clean). */
export function consoleCapture(): { console: Pick<Console, 'log' | 'info'>; lines: string[] } {
  const lines: string[] = [];
  const write = (...args: unknown[]): void => void lines.push(args.map(String).join(' '));
  return { console: { log: write, info: write }, lines };
}

/**
 * The set-up of a README's complete app (an app that listens on `process.env.PORT` and prints an
 * ID token for the demo): `PORT=0`, and a `console` whose lines the checks read.
 */
export function readmeAppSetUp(): { console: Pick<Console, 'log' | 'info'>; printed: string[] } {
  setEnv('PORT', '0');
  const { console, lines } = consoleCapture();
  return { console, printed: lines };
}

/**
 * What the reader of a README's complete app does next: take the ID token it printed and run the
 * README's first curl command, `curl -X POST /keys -d '{"name":"ci"}'` (a form content type).
 * Closes the app's server and identity provider after the example.
 */
export async function signInAsTheReadmeShows(
  server: Server,
  idp: LocalIdentityProvider,
  printed: readonly string[],
): Promise<{ send: Send; idToken: string; apiKey: string }> {
  afterExample(() => idp.close());
  const send = overHttp(await urlOf(server));
  const idToken = /^ey[\w-]+\.[\w-]+\.[\w-]+$/m.exec(printed.join('\n'))?.[0];
  assert.ok(idToken, 'the app prints an ID token for the demo');
  const minted = await send('/keys', {
    method: 'POST',
    headers: { ...bearer(idToken), 'content-type': 'application/x-www-form-urlencoded' },
    body: '{"name":"ci"}',
  });
  const body = await expectJson(Promise.resolve(minted), 201, 'the curl command that mints');
  assert.equal((body as { name: string }).name, 'ci');
  return { send, idToken, apiKey: (body as { apiKey: string }).apiKey };
}

/** `POST /deploy` behind `optionalAuth()`: no credential is `201 { owner: null }`, an unknown key the uniform 401. */
export async function expectAnonymousDeploy(send: Send): Promise<void> {
  assert.deepEqual(await expectJson(send('/deploy', { method: 'POST' }), 201, 'POST /deploy with no credential'), { owner: null });
  await expectUniform401(send('/deploy', { method: 'POST', headers: bearer(UNKNOWN_KEY) }), 'POST /deploy with an unknown key');
}

/**
 * A store works end to end: a key put in it authenticates, and once revoked is the uniform 401.
 * Resolves the key's id (still in the store, revoked).
 */
export async function expectKeyStoreWorks(keyStore: KeyStore): Promise<string> {
  const authenticator = createAuthenticator({ keyStore });
  const { secret, ...key } = sampleKeyRecord({ accountId: 'acct-docs' });
  await keyStore.create(key);
  assert.deepEqual(await authenticator.authenticate(`Bearer ${secret}`), { accountId: 'acct-docs', credential: 'api_key', keyId: key.id });
  await keyStore.revoke('acct-docs', key.id, { at: new Date() });
  await assert.rejects(authenticator.authenticate(`Bearer ${secret}`), UnauthenticatedError);
  return key.id;
}

/** Sends a request to the app under test: over HTTP, or straight to a fetch-style handler. */
export type Send = (path: string, init?: RequestInit) => Promise<Response>;

/** A {@link Send} over HTTP to a server that listens at `url`. */
export const overHttp =
  (url: string): Send =>
  (path, init) =>
    fetch(`${url}${path}`, init);

export const bearer = (credential: string): { authorization: string } => ({ authorization: `Bearer ${credential}` });

async function expectUniform401(answer: Promise<Response>, what: string): Promise<void> {
  assert.deepEqual(await snapshotOf(await answer), UNIFORM_401, `${what}: the uniform 401`);
}

async function expectJson(answer: Promise<Response>, status: number, what: string): Promise<unknown> {
  const res = await answer;
  const text = await res.text();
  assert.equal(res.status, status, `${what}: ${res.status} ${text}`);
  return JSON.parse(text) as unknown;
}

/** An ID token for `acct-docs` (with an email claim) and an API key minted for it. */
export async function signIn({ idp, authenticator, keys }: AdapterContext): Promise<{ idToken: string; apiKey: string }> {
  const idToken = idp.mintIdToken({ sub: 'acct-docs', email: 'ada@example.com' });
  const person = await authenticator.authenticate(`Bearer ${idToken}`, { accept: ['id_token'] });
  const { apiKey } = await keys.mint(person, { name: 'ci' });
  return { idToken, apiKey };
}

/** Not a key anyone minted: in the key format, so it is looked up and not found. */
const UNKNOWN_KEY = `hp_${'A'.repeat(43)}`;

/**
 * The three kinds of route of docs/adapters.md's table: `GET /drops` takes an API key or an ID
 * token, `GET /account` an ID token only, `POST /deploy` no credential as well (owner `null`).
 * Anything else is the uniform 401, never an anonymous drop.
 */
export async function expectTheThreeKindsOfRoute(send: Send, context: AdapterContext): Promise<void> {
  const { idToken, apiKey } = await signIn(context);
  const post = (headers: Record<string, string> = {}): RequestInit => ({ method: 'POST', headers, body: 'hello' });

  const anonymous = await expectJson(send('/deploy', post()), 201, 'POST /deploy with no credential');
  assert.equal((anonymous as Drop).owner, null);
  const owned = await expectJson(send('/deploy', post(bearer(apiKey))), 201, 'POST /deploy with an API key');
  assert.equal((owned as Drop).owner, 'acct-docs');
  await expectUniform401(send('/deploy', post(bearer(UNKNOWN_KEY))), 'POST /deploy with an unknown key');

  await expectUniform401(send('/drops'), 'GET /drops with no credential');
  for (const credential of [apiKey, idToken]) {
    const listed = await expectJson(send('/drops', { headers: bearer(credential) }), 200, 'GET /drops');
    assert.deepEqual(
      (listed as { drops: Drop[] }).drops.map((drop) => drop.owner),
      ['acct-docs'],
    );
  }

  const account = await expectJson(send('/account', { headers: bearer(idToken) }), 200, 'GET /account with an ID token');
  assert.deepEqual(account, { accountId: 'acct-docs', email: 'ada@example.com' });
  await expectUniform401(send('/account', { headers: bearer(apiKey) }), 'GET /account with an API key');
}

/**
 * The `/keys` routes, whichever adapter serves them: an ID token mints, an API key lists and
 * revokes but never mints, every path under `/keys` needs a credential before it is routed.
 */
export async function expectTheKeysRoutes(send: Send, idToken: string): Promise<void> {
  const minted = await expectJson(
    send('/keys', { method: 'POST', headers: { ...bearer(idToken), 'content-type': 'application/json' }, body: '{"name":"ci-main"}' }),
    201,
    'POST /keys with an ID token',
  );
  const { apiKey, id } = minted as { apiKey: string; id: string };

  await expectUniform401(send('/keys', { method: 'POST', headers: bearer(apiKey) }), 'POST /keys with an API key');
  await expectUniform401(send('/keys'), 'GET /keys with no credential');
  await expectUniform401(send('/keys/no/such/route', { method: 'PUT' }), 'an unknown route under /keys with no credential');
  const listed = await expectJson(send('/keys', { headers: bearer(apiKey) }), 200, 'GET /keys with an API key');
  assert.deepEqual(
    (listed as { keys: Array<{ name: string }> }).keys.map((key) => key.name),
    ['ci-main'],
  );
  assert.ok(!JSON.stringify(listed).includes(apiKey), 'GET /keys never shows a secret');

  const revoked = await send(`/keys/${id}`, { method: 'DELETE', headers: bearer(apiKey) });
  assert.equal(revoked.status, 204);
  await expectUniform401(send('/keys', { headers: bearer(apiKey) }), 'the revoked key');
}

/**
 * The first run of docs/adapters.md, as its curl commands do it: an ID token from the app's
 * development token route, a key minted with it at `/keys`, then the three kinds of route
 * (`/deploy` where the section has it) and the `/keys` routes.
 */
export async function expectTheFirstRun(send: Send, routes: { deploy?: boolean; account?: boolean } = {}): Promise<void> {
  const json = { 'content-type': 'application/json' };
  const refused = await send('/dev/token', { method: 'POST', headers: json, body: '{"name":"a b"}' });
  assert.equal(refused.status, 400, 'POST /dev/token with a bad name');
  const tokenFor = async (name: string): Promise<string> => {
    const token = await send('/dev/token', { method: 'POST', headers: json, body: JSON.stringify({ name }) });
    assert.equal(token.headers.get('cache-control'), 'no-store');
    return ((await expectJson(Promise.resolve(token), 200, 'POST /dev/token')) as { idToken: string }).idToken;
  };
  const idToken = await tokenFor('acct-docs');
  const minted = send('/keys', { method: 'POST', headers: { ...bearer(idToken), ...json }, body: '{"name":"laptop"}' });
  const { apiKey } = (await expectJson(minted, 201, 'POST /keys with the ID token')) as { apiKey: string };

  await expectUniform401(send('/drops'), 'GET /drops with no credential');
  for (const credential of [apiKey, idToken]) {
    assert.deepEqual(await expectJson(send('/drops', { headers: bearer(credential) }), 200, 'GET /drops'), { owner: 'acct-docs' });
  }
  if (routes.account !== false) {
    assert.deepEqual(await expectJson(send('/account', { headers: bearer(idToken) }), 200, 'GET /account'), { accountId: 'acct-docs' });
    await expectUniform401(send('/account', { headers: bearer(apiKey) }), 'GET /account with an API key');
  }
  if (routes.deploy !== false) {
    await expectAnonymousDeploy(send);
    const owned = send('/deploy', { method: 'POST', headers: bearer(apiKey), body: 'hello' });
    assert.deepEqual(await expectJson(owned, 201, 'POST /deploy with an API key'), { owner: 'acct-docs' });
  }
  await expectTheKeysRoutes(send, await tokenFor('acct-keys'));
}
