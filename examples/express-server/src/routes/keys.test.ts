import { describe, expect, it } from 'vitest';
import { BACKENDS, bearer, useTestServer } from '../testing/test-server.js';

describe.each(BACKENDS)('/keys (%s)', (backend) => {
  const server = useTestServer({ backend });

  it('mints with an ID token only, lists without secrets, revokes with 204 and the key is refused next', async () => {
    const s = server();
    const token = await s.token('key-owner');
    const minted = await s.fetch('/keys', { method: 'POST', headers: bearer(token), body: JSON.stringify({ name: 'ci-main' }) });
    expect(minted.status).toBe(201);
    const key = (await minted.json()) as { apiKey: string; id: string; prefix: string; name: string; createdAt: string };
    expect(key.apiKey).toMatch(/^hp_[A-Za-z0-9_-]{43}$/);
    expect(key.name).toBe('ci-main');

    const byKey = await s.fetch('/keys', { method: 'POST', headers: bearer(key.apiKey) });
    expect(byKey.status).toBe(401);

    const list = await s.fetch('/keys', { headers: bearer(key.apiKey) });
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).not.toContain(key.apiKey);
    expect(JSON.parse(text)).toEqual({
      keys: [{ id: key.id, prefix: key.prefix, name: 'ci-main', createdAt: key.createdAt, lastUsedAt: null, expiresAt: null }],
    });

    expect((await s.fetch('/whoami', { headers: bearer(key.apiKey) })).status).toBe(200);
    const revoke = await s.fetch(`/keys/${key.id}`, { method: 'DELETE', headers: bearer(token) });
    expect(revoke.status).toBe(204);
    expect((await s.fetch('/whoami', { headers: bearer(key.apiKey) })).status).toBe(401);
    expect((await s.fetch(`/keys/${key.id}`, { method: 'DELETE', headers: bearer(token) })).status).toBe(404);
    expect(await (await s.fetch('/keys', { headers: bearer(token) })).json()).toEqual({ keys: [] });
  });

  it("refuses another account's key with 404, a bad id with 400, a bad body with 400", async () => {
    const s = server();
    const mine = await s.mintKey('owner-one');
    const theirs = bearer(await s.token('owner-two'));
    expect((await s.fetch(`/keys/${mine.id}`, { method: 'DELETE', headers: theirs })).status).toBe(404);
    expect((await s.fetch('/keys/xyz', { method: 'DELETE', headers: theirs })).status).toBe(400);
    const bad = await s.fetch('/keys', { method: 'POST', headers: theirs, body: '{"name":' });
    expect(bad.status).toBe(400);
    expect(typeof ((await bad.json()) as { error: unknown }).error).toBe('string');
    // Still usable by its owner.
    expect((await s.fetch('/whoami', { headers: bearer(mine.apiKey) })).status).toBe(200);
  });

  it('rolls with an ID token only: a working new key while the old one works until the grace ends (API key: the uniform 401)', async () => {
    const s = server();
    const token = bearer(await s.token('roller'));
    const old = await s.mintKey('roller', 'ci-main');
    const uniform = await s.fetch('/keys');
    const byKey = await s.fetch(`/keys/${old.id}/roll`, { method: 'POST', headers: bearer(old.apiKey), body: '{"graceSeconds":2}' });
    expect([byKey.status, byKey.headers.get('www-authenticate'), await byKey.text()]).toEqual([
      401,
      uniform.headers.get('www-authenticate'),
      await uniform.text(),
    ]);

    const rolled = await s.fetch(`/keys/${old.id}/roll`, { method: 'POST', headers: token, body: '{"graceSeconds":2}' });
    expect(rolled.status).toBe(201);
    const fresh = (await rolled.json()) as { apiKey: string; id: string; name: string; replaces: string; createdAt: string };
    expect([fresh.name, fresh.replaces]).toEqual(['ci-main', old.id]);
    const graceEnds = Date.parse(fresh.createdAt) + 2000;
    const oldDuringGrace = await s.fetch('/whoami', { headers: bearer(old.apiKey) });
    const checkedAt = Date.now();
    expect((await s.fetch('/whoami', { headers: bearer(fresh.apiKey) })).status).toBe(200);
    // The old key works until the grace ends (checked only when the check came before its end).
    if (checkedAt < graceEnds) expect(oldDuringGrace.status).toBe(200);
    const again = await s.fetch(`/keys/${old.id}/roll`, { method: 'POST', headers: token });
    expect(again.status).toBe(409);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, graceEnds - Date.now()) + 500));
    expect((await s.fetch('/whoami', { headers: bearer(old.apiKey) })).status).toBe(401);
    expect((await s.fetch('/whoami', { headers: bearer(fresh.apiKey) })).status).toBe(200);
  });

  it('revokes every key of the account with DELETE /keys (an API key: the uniform 401)', async () => {
    const s = server();
    const keys = [await s.mintKey('revoke-all'), await s.mintKey('revoke-all')];
    const theirs = await s.mintKey('revoke-all-other');
    const byKey = await s.fetch('/keys', { method: 'DELETE', headers: bearer(keys[0]!.apiKey) });
    expect(byKey.status).toBe(401);
    expect((await s.fetch('/whoami', { headers: bearer(keys[0]!.apiKey) })).status).toBe(200);
    const all = await s.fetch('/keys', { method: 'DELETE', headers: bearer(await s.token('revoke-all')) });
    expect([all.status, await all.json()]).toEqual([200, { revoked: 2 }]);
    for (const k of keys) expect((await s.fetch('/whoami', { headers: bearer(k.apiKey) })).status).toBe(401);
    expect((await s.fetch('/whoami', { headers: bearer(theirs.apiKey) })).status).toBe(200);
  });

  it('has no /dev/token when an identity provider is configured', async () => {
    expect((await server().fetch('/dev/token', { method: 'POST', body: '{"name":"alice"}' })).status).toBe(404);
  });
});

describe('/dev/token', () => {
  describe('with the development identity provider', () => {
    const server = useTestServer({ backend: 'postgres', idp: 'dev' });

    it('issues an ID token that mints keys; the token is verified like any other', async () => {
      const s = server();
      const res = await s.fetch('/dev/token', { method: 'POST', body: JSON.stringify({ name: 'alice' }) });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { idToken, expiresIn, accountId } = (await res.json()) as { idToken: string; expiresIn: number; accountId: string };
      expect(expiresIn).toBe(3600);
      expect(accountId).toBe('dev:alice');
      const who = await s.fetch('/whoami', { headers: bearer(idToken) });
      expect(await who.json()).toEqual({ accountId: 'dev:alice', credential: 'id_token' });
      // A tampered token is refused.
      const [h, p] = idToken.split('.');
      const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'mallory' })).toString('base64url')}.${idToken.split('.')[2]}`;
      expect((await s.fetch('/whoami', { headers: bearer(forged) })).status).toBe(401);
      expect(p).toBeTruthy();
    });

    it('issues a token refreshed from an earlier sign-in (authTime): refused after that account signs out everywhere', async () => {
      const s = server();
      const devToken = async (body: object): Promise<string> =>
        ((await (await s.fetch('/dev/token', { method: 'POST', body: JSON.stringify(body) })).json()) as { idToken: string }).idToken;
      const signedInAt = Math.floor(Date.now() / 1000) - 30;
      const refreshed = await devToken({ name: 'bob', authTime: signedInAt });
      const claims = JSON.parse(Buffer.from(refreshed.split('.')[1]!, 'base64url').toString()) as { auth_time: number; iat: number };
      expect(claims.auth_time).toBe(signedInAt);
      expect(claims.iat).toBeGreaterThan(signedInAt);
      expect((await s.fetch('/whoami', { headers: bearer(refreshed) })).status).toBe(200);
      expect((await s.fetch('/sessions', { method: 'DELETE', headers: bearer(await devToken({ name: 'bob' })) })).status).toBe(200);
      expect((await s.fetch('/whoami', { headers: bearer(await devToken({ name: 'bob', authTime: signedInAt })) })).status).toBe(401);
      for (const authTime of [Math.floor(Date.now() / 1000) + 600, 'yesterday', -1]) {
        expect((await s.fetch('/dev/token', { method: 'POST', body: JSON.stringify({ name: 'bob', authTime }) })).status).toBe(400);
      }
    });

    it('defaults the name, and refuses bad input with 400', async () => {
      const s = server();
      const bare = await s.fetch('/dev/token', { method: 'POST' });
      expect(((await bare.json()) as { accountId: string }).accountId).toBe('dev:dev-user');
      expect((await s.fetch('/dev/token', { method: 'POST', body: '{"name":"a b"}' })).status).toBe(400);
      expect((await s.fetch('/dev/token', { method: 'POST', body: 'nope' })).status).toBe(400);
      expect((await s.fetch('/dev/token')).status).toBe(405);
    });
  });
});
