import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../api-key/generate-api-key.js';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { UNAUTHENTICATED_MESSAGE, UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { withAuth } from './with-auth.js';

async function setup(keyStore = new MemoryKeyStore()) {
  const key = generateApiKey();
  await keyStore.create({
    id: key.id,
    accountId: 'acct_1',
    prefix: key.prefix,
    name: null,
    createdAt: new Date(),
    provenance: null,
    expiresAt: null,
  });
  const authenticator = createAuthenticator({ keyStore });
  return { authenticator, key, keyStore };
}

const request = (authorization?: string) =>
  new Request('http://localhost/whoami', { headers: authorization === undefined ? {} : { authorization } });

describe('withAuth (fetch-style handlers)', () => {
  it('sets Drops-Key-Expiration for a key expiring within 7 days, on a response with immutable headers too', async () => {
    const keyStore = new MemoryKeyStore();
    const { authenticator, key } = await setup(keyStore);
    const soon = generateApiKey();
    const expiresAt = new Date(Date.now() + 2 * 86_400_000);
    await keyStore.create({
      id: soon.id,
      accountId: 'acct_1',
      prefix: soon.prefix,
      name: null,
      createdAt: new Date(),
      provenance: null,
      expiresAt,
    });
    const handler = withAuth(authenticator, {}, async () => Response.json({ ok: true }));
    const warned = await handler(request(`Bearer ${soon.secret}`));
    expect(warned.headers.get('drops-key-expiration')).toBe(expiresAt.toISOString());
    expect((await handler(request(`Bearer ${key.secret}`))).headers.get('drops-key-expiration')).toBeNull();
    const redirecting = withAuth(authenticator, {}, async () => Response.redirect('http://localhost/elsewhere', 302));
    const redirected = await redirecting(request(`Bearer ${soon.secret}`));
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('drops-key-expiration')).toBe(expiresAt.toISOString());
    // A drops-auth error the handler throws after authentication warns too; the 401 before it never does.
    const failing = withAuth(authenticator, {}, async () => {
      throw new NotFoundError('no such drop');
    });
    const notFound = await failing(request(`Bearer ${soon.secret}`));
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('drops-key-expiration')).toBe(expiresAt.toISOString());
    const unauthenticated = await failing(request('Bearer hp_unknown'));
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('drops-key-expiration')).toBeNull();
  });

  it('passes the principal to the handler', async () => {
    const { authenticator, key } = await setup();
    const handler = withAuth(authenticator, {}, async (_req, principal) => Response.json({ accountId: principal.accountId }));
    const res = await handler(request(`Bearer ${key.secret}`));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accountId: 'acct_1' });
  });

  it('answers the uniform 401 response without calling the handler', async () => {
    const { authenticator } = await setup();
    let called = false;
    const handler = withAuth(authenticator, {}, async () => {
      called = true;
      return new Response('secret stuff');
    });
    const res = await handler(request(`Bearer ${generateApiKey().secret}`));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="drops"');
    expect(await res.text()).toBe(JSON.stringify({ error: UNAUTHENTICATED_MESSAGE }));
    expect(called).toBe(false);
  });

  it('lets anonymous requests through in optional mode, but refuses a bad credential', async () => {
    const { authenticator } = await setup();
    const handler = withAuth(authenticator, { optional: true }, async (_req, principal) =>
      Response.json({ anonymous: principal === null }),
    );
    expect(await (await handler(request())).json()).toEqual({ anonymous: true });
    expect((await handler(request('Bearer nope'))).status).toBe(401);
  });

  it('refuses the wrong credential type with the same 401', async () => {
    const { keyStore, key } = await setup();
    const authenticator = createAuthenticator({
      keyStore,
      idTokenVerifier: createIdTokenVerifier({
        issuer: 'https://issuer.example',
        audience: 'drops',
        jwksUrl: 'https://issuer.example/jwks',
      }),
    });
    const tokenOnly = withAuth(authenticator, { accept: ['id_token'] }, async () => new Response('minted'));
    const res = await tokenOnly(request(`Bearer ${key.secret}`));
    expect(res.status).toBe(401);
    expect(await res.text()).toBe(JSON.stringify({ error: UNAUTHENTICATED_MESSAGE }));
  });

  it('checks options once, at creation', async () => {
    const { authenticator } = await setup();
    expect(() => withAuth(authenticator, { accept: [] }, async () => new Response())).toThrow(TypeError);
    expect(() => withAuth(authenticator, { accept: ['password' as never] }, async () => new Response())).toThrow(TypeError);
    // ID tokens only, over an authenticator that cannot verify one: every request would be a 401.
    expect(() => withAuth(authenticator, { accept: ['id_token'] }, async () => new Response())).toThrow(
      /^withAuth: the authenticator has no idTokenVerifier/,
    );
  });
});

describe('withAuth and errors thrown by the handler', () => {
  it('answers a DropsAuthError thrown inside the handler with its own response, not a 500', async () => {
    const { authenticator, key } = await setup();
    const handler = withAuth(authenticator, {}, async () => {
      throw new NotFoundError('no active key with that id');
    });
    const res = await handler(request(`Bearer ${key.secret}`));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ error: 'no active key with that id' });
    const unauthenticated = withAuth(authenticator, {}, () => {
      throw new UnauthenticatedError('not_permitted');
    });
    const refused = await unauthenticated(request(`Bearer ${key.secret}`));
    expect(await refused.text()).toBe(JSON.stringify({ error: UNAUTHENTICATED_MESSAGE }));
    expect(refused.status).toBe(401);
  });

  it('lets any other error propagate, for the framework to handle', async () => {
    const { authenticator, key } = await setup();
    const handler = withAuth(authenticator, {}, async () => {
      throw new Error('route failure');
    });
    await expect(handler(request(`Bearer ${key.secret}`))).rejects.toThrow('route failure');
  });
});

describe('withAuth requestInfo', () => {
  it("records a key's first use with what requestInfo says, or the User-Agent header", async () => {
    for (const [options, expected] of [
      [
        { requestInfo: (req: Request) => ({ ip: '203.0.113.7', userAgent: req.headers.get('x-client') }) },
        { ip: '203.0.113.7', userAgent: 'cli/2' },
      ],
      [{}, { ip: null, userAgent: 'curl/8' }],
    ] as const) {
      const { authenticator, key, keyStore } = await setup(new MemoryKeyStore({ minUseIntervalMs: 0 }));
      const handler = withAuth(authenticator, options, async () => new Response('ok'));
      const res = await handler(
        new Request('http://localhost/x', {
          headers: { authorization: `Bearer ${key.secret}`, 'user-agent': 'curl/8', 'x-client': 'cli/2' },
        }),
      );
      expect(res.status).toBe(200);
      const { events } = await keyStore.listEvents('acct_1', { limit: 10 });
      expect(events.filter((e) => e.type === 'first_used').map((e) => [e.type, e.ip, e.userAgent])).toEqual([
        ['first_used', expected.ip, expected.userAgent],
      ]);
    }
  });
});
