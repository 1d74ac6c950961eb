import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { DEV_IDENTITY_NODE_ENVS, DevIdentityProvider, devIdentityAllowed } from './dev-identity-provider.js';

function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
}

describe('DevIdentityProvider', () => {
  it('issues ID tokens its own verifier accepts, through every check a real token goes through', async () => {
    const dev = new DevIdentityProvider({ nodeEnv: 'development' });
    const { idToken, expiresIn, name } = dev.issueIdToken('alice');
    expect([expiresIn, name]).toEqual([3600, 'alice']);
    const claims = await dev.verifier.verify(idToken);
    expect(claims.sub).toBe('alice');
    expect(payloadOf(idToken)).toMatchObject({ iss: dev.issuer, aud: dev.audience, sub: 'alice' });
  });

  it('signs in through an authenticator: the principal is the name', async () => {
    const dev = new DevIdentityProvider({ nodeEnv: 'test' });
    const authenticator = createAuthenticator({ keyStore: new MemoryKeyStore(), idTokenVerifier: dev.verifier });
    const principal = await authenticator.authenticate(`Bearer ${dev.issueIdToken('bob').idToken}`);
    expect(principal).toMatchObject({ accountId: 'bob', credential: 'id_token' });
  });

  it("refuses another provider's tokens, and its tokens are refused by another", async () => {
    const one = new DevIdentityProvider({ nodeEnv: 'test' });
    const other = new DevIdentityProvider({ nodeEnv: 'test' });
    await expect(one.verifier.verify(other.issueIdToken('mallory').idToken)).rejects.toThrow();
  });

  it.each(['production', 'staging', 'prod', 'PRODUCTION', 'production ', ' '])('is refused when NODE_ENV is %j', (nodeEnv) => {
    expect(() => new DevIdentityProvider({ nodeEnv })).toThrow(
      `NODE_ENV=${JSON.stringify(nodeEnv)}: the development identity provider issues ID tokens for any name`,
    );
  });

  it('reads NODE_ENV from the process by default', () => {
    const saved = process.env.NODE_ENV;
    try {
      process.env.NODE_ENV = 'production';
      expect(() => new DevIdentityProvider()).toThrow(/NODE_ENV="production"/);
      delete process.env.NODE_ENV;
      expect(new DevIdentityProvider().issuer).toBe('https://dev-identity.drops.invalid');
    } finally {
      if (saved === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = saved;
    }
  });

  it('runs when NODE_ENV is unset, empty, "development" or "test", and only then', () => {
    expect(DEV_IDENTITY_NODE_ENVS).toEqual(['', 'development', 'test']);
    expect([undefined, '', 'development', 'test'].map(devIdentityAllowed)).toEqual([true, true, true, true]);
    expect(devIdentityAllowed('Development')).toBe(false);
  });

  it('refuses a name that is not 1 to 64 letters, digits, ".", "_" or "-"', () => {
    const dev = new DevIdentityProvider({ nodeEnv: 'test' });
    for (const name of ['', 'a b', 'x'.repeat(65), 'é']) expect(() => dev.issueIdToken(name)).toThrow(TypeError);
    expect(payloadOf(dev.issueIdToken('a.b_c-1').idToken).sub).toBe('a.b_c-1');
  });

  describe('its token route', () => {
    const dev = new DevIdentityProvider({ nodeEnv: 'test' });

    it('answers a token for {"name"} (default "dev-user"), never cached', async () => {
      const answer = dev.answerTokenRequest({ name: 'carol' });
      expect(answer.status).toBe(200);
      expect(answer.headers).toEqual({ 'cache-control': 'no-store' });
      if (answer.status !== 200) throw new Error('unreachable');
      expect((await dev.verifier.verify(answer.body.idToken)).sub).toBe('carol');
      for (const body of [undefined, {}]) {
        const byDefault = dev.answerTokenRequest(body);
        expect(byDefault.status === 200 && [byDefault.body.name, payloadOf(byDefault.body.idToken).sub]).toEqual(['dev-user', 'dev-user']);
      }
    });

    const inAnHour = Math.floor(Date.now() / 1000) + 3600;
    it.each([
      [{ name: 'a b' }],
      [{ name: 7 }],
      [{ name: 'x', admin: true }],
      ['alice'],
      [[]],
      [{ name: 'x', authTime: inAnHour }],
      [{ name: 'x', authTime: -1 }],
      [{ name: 'x', authTime: 1.5 }],
      [{ name: 'x', authTime: 'yesterday' }],
    ])('answers 400 for %j', (body) => {
      const answer = dev.answerTokenRequest(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        error: 'send {"name": "alice", "authTime"?: <seconds, not in the future>}: a name of 1 to 64 letters, digits, ".", "_" or "-"',
      });
    });

    it('answers a token refreshed from an earlier sign-in for {"name", "authTime"}: auth_time kept, issued now', async () => {
      const signedInAt = Math.floor(Date.now() / 1000) - 600;
      const answer = dev.answerTokenRequest({ name: 'erin', authTime: signedInAt });
      if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
      const claims = await dev.verifier.verify(answer.body.idToken);
      expect(claims.auth_time).toBe(signedInAt);
      expect(claims.iat).toBeGreaterThan(signedInAt);
    });

    it('is a fetch handler too: POST with a JSON body, 400 for a body that is not JSON, 405 for another method', async () => {
      const post = (body: string) => dev.handleTokenRequest(new Request('http://localhost/dev/token', { method: 'POST', body }));
      const ok = await post('{"name":"dave"}');
      expect([ok.status, ok.headers.get('cache-control')]).toEqual([200, 'no-store']);
      const { idToken } = (await ok.json()) as { idToken: string };
      expect((await dev.verifier.verify(idToken)).sub).toBe('dave');
      expect((await post('')).status).toBe(200);
      expect((await post('{nope')).status).toBe(400);
      const get = await dev.handleTokenRequest(new Request('http://localhost/dev/token'));
      expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    });
  });
});
