/**
 * `drops-auth keys` (the built binary) against the real `/keys` routes (`keysHandler` on a
 * MemoryKeyStore): the listing with each key's expiry, the `Drops-Key-Expiration` warning on stderr
 * when the answer carries it, and refusals; never a secret in what it prints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { keysHandler } from '../fetch/keys-handler.js';
import { serveFetch, type FetchTestServer } from '../fetch/test-fetch-server.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from '../keys/create-key-manager.js';
import { LocalIdentityProvider } from '../testing/local-identity-provider.js';
import { expiryOf } from './keys-command.js';
import { spawnCli, type CliRun } from './test-spawn-cli.js';

const DAY = 86_400_000;

describe('drops-auth keys', () => {
  let idp: LocalIdentityProvider;
  let server: FetchTestServer;
  const secrets: string[] = [];

  beforeAll(async () => {
    idp = await LocalIdentityProvider.start();
    const keyStore = new MemoryKeyStore();
    const routes = keysHandler(
      createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
      createKeyManager({ keyStore }),
    );
    server = await serveFetch((request, client) => routes(request, client));
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
  });

  async function mint(name: string, expiresAt?: string): Promise<{ apiKey: string; id: string; expiresAt: string | null }> {
    const res = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${idp.mintIdToken({ sub: 'cli-keys' })}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, ...(expiresAt === undefined ? {} : { expiresAt }) }),
    });
    expect(res.status).toBe(201);
    const key = (await res.json()) as { apiKey: string; id: string; expiresAt: string | null };
    secrets.push(key.apiKey);
    return key;
  }

  async function keys(credential: string | undefined, ...args: string[]): Promise<CliRun> {
    const run = await spawnCli(
      ['keys', '--url', server.url, ...args],
      credential === undefined ? {} : { env: { DROPS_API_KEY: credential } },
    );
    for (const secret of secrets) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
    }
    return run;
  }

  it('lists the keys with their expiry, and warns on stderr, with the date, when the key used expires within 7 days', async () => {
    const soon = await mint('ci-soon', new Date(Date.now() + 3 * DAY).toISOString());
    const forever = await mint('ci-forever');

    const run = await keys(soon.apiKey);
    expect(run.status).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.find((l) => l.includes('ci-soon'))).toBe(
      `${soon.apiKey.slice(0, 10)}  ci-soon  id ${soon.id}  expires ${soon.expiresAt} (in 3 days)`,
    );
    expect(lines.find((l) => l.includes('ci-forever'))).toBe(`${forever.apiKey.slice(0, 10)}  ci-forever  id ${forever.id}  never expires`);
    expect(run.stderr).toContain(`drops-auth keys: warning: the key in DROPS_API_KEY expires at ${soon.expiresAt} (Drops-Key-Expiration).`);

    // A key without expiry: no warning.
    const quiet = await keys(forever.apiKey, '--json');
    expect(quiet.status).toBe(0);
    expect(quiet.stderr).not.toContain('warning');
    const listed = quiet.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; expiresAt: string | null });
    expect(listed.map((k) => [k.id, k.expiresAt]).sort()).toEqual(
      [
        [soon.id, soon.expiresAt],
        [forever.id, null],
      ].sort(),
    );
  });

  it('refuses to run without DROPS_API_KEY (exit 2), and says what the server answered to a key it does not accept (exit 3)', async () => {
    const none = await keys(undefined);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('set DROPS_API_KEY');

    const unknown = `hp_${'Q'.repeat(43)}`;
    secrets.push(unknown);
    const refused = await keys(unknown);
    expect(refused.status).toBe(3);
    expect(refused.stderr).toContain('answered 401: missing or invalid API key');
    expect(refused.stdout).toBe('');

    const plain = await spawnCli(['keys', '--url', 'http://drops.example.com'], { env: { DROPS_API_KEY: unknown } });
    expect(plain.status).toBe(2);
    expect(plain.stderr).toContain('must be an https: URL');
  });

  it('words the expiry for people', () => {
    const now = Date.parse('2026-11-24T12:00:00.000Z');
    expect(expiryOf(null, now)).toBe('never expires');
    expect(expiryOf('2026-11-24T11:00:00.000Z', now)).toBe('expired 2026-11-24T11:00:00.000Z');
    expect(expiryOf('2026-11-24T17:00:00.000Z', now)).toBe('expires 2026-11-24T17:00:00.000Z (in 5 hours)');
    expect(expiryOf('2026-11-24T12:30:00.000Z', now)).toBe('expires 2026-11-24T12:30:00.000Z (in less than an hour)');
  });

  it('keys roll: with an ID token prints the new key alone on stdout; both keys work during the grace; an API key is refused (exit 3)', async () => {
    const old = await mint('ci-roll');
    const byKey = await keys(old.apiKey, 'roll', old.id, '--grace', '3600');
    expect(byKey.status).toBe(3);
    expect(byKey.stderr).toContain('answered 401');
    expect(byKey.stderr).toContain('must hold an ID token');

    const run = await spawnCli(['keys', 'roll', old.id, '--url', server.url, '--grace', '3600'], {
      env: { DROPS_API_KEY: idp.mintIdToken({ sub: 'cli-keys' }) },
    });
    expect(run.status).toBe(0);
    const rolled = run.stdout.trimEnd();
    expect(rolled).toMatch(/^hp_[A-Za-z0-9_-]{43}$/);
    expect(rolled).not.toBe(old.apiKey);
    expect(run.stderr).toContain(`replaces ${old.id}; the old key keeps working for 3600 seconds.`);
    expect(run.stderr).not.toContain(rolled);
    for (const key of [rolled, old.apiKey]) {
      expect((await fetch(`${server.url}/keys`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    }

    const usage = await spawnCli(['keys', 'roll', 'not-an-id', '--url', server.url], { env: { DROPS_API_KEY: 'x' } });
    expect(usage.status).toBe(2);
  });

  it('keys revoke <id>: revokes the key by id, at the server DROPS_URL names when --url is not given', async () => {
    const doomed = await mint('ci-revoke');
    const env = { DROPS_API_KEY: idp.mintIdToken({ sub: 'cli-keys' }), DROPS_URL: server.url };
    const run = await spawnCli(['keys', 'revoke', doomed.id], { env });
    expect(run).toMatchObject({ status: 0, stdout: '' });
    expect(run.stderr).toContain(`key ${doomed.id} revoked`);
    expect((await fetch(`${server.url}/keys`, { headers: { authorization: `Bearer ${doomed.apiKey}` } })).status).toBe(401);
    // Again: no active key of the account with that id.
    const again = await spawnCli(['keys', 'revoke', doomed.id], { env });
    expect(again.status).toBe(3);
    expect(again.stderr).toContain('answered 404');

    expect((await spawnCli(['keys', 'revoke', 'not-an-id'], { env })).status).toBe(2);
    const nowhere = await spawnCli(['keys'], { env: { DROPS_API_KEY: 'x', DROPS_URL: '' } });
    expect(nowhere.status).toBe(2);
    expect(nowhere.stderr).toContain('--url <base URL> is required (or set DROPS_URL)');
    const plainEnv = await spawnCli(['keys'], { env: { DROPS_API_KEY: 'x', DROPS_URL: 'http://drops.example.com' } });
    expect(plainEnv.stderr).toContain('DROPS_URL must be an https: URL');
  });
});
