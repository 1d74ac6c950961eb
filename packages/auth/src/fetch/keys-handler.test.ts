import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from '../keys/create-key-manager.js';
import { describeKeyRoutes } from '../testing/key-routes-conformance.js';
import { LocalIdentityProvider } from '../testing/local-identity-provider.js';
import { keysHandler } from './keys-handler.js';
import { serveFetch } from './test-fetch-server.js';

describeKeyRoutes({ describe, it, beforeEach, afterEach, beforeAll, afterAll }, 'keysHandler (fetch)', {
  serve: ({ authenticator, keys, keyRoutes }) => serveFetch(keysHandler(authenticator, keys, keyRoutes)),
});

describe('keysHandler: what is its own', () => {
  let idp: LocalIdentityProvider;
  beforeAll(async () => {
    idp = await LocalIdentityProvider.start();
  });
  afterAll(async () => {
    await idp?.close();
  });

  function handlerFor(options?: Parameters<typeof keysHandler>[2]): (request: Request) => Promise<Response> {
    const keyStore = new MemoryKeyStore();
    const authenticator = createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) });
    return keysHandler(authenticator, createKeyManager({ keyStore }), options);
  }
  const bearer = (): Record<string, string> => ({ authorization: `Bearer ${idp.mintIdToken()}` });

  it('serves another basePath, and answers 404 outside it', async () => {
    const handler = handlerFor({ basePath: '/api/keys' });
    expect((await handler(new Request('http://x/api/keys', { method: 'POST', headers: bearer() }))).status).toBe(201);
    expect((await handler(new Request('http://x/keys', { headers: bearer() }))).status).toBe(404);
    expect((await handler(new Request('http://x/api/keysmith', { headers: bearer() }))).status).toBe(404);
  });

  it('answers HEAD /keys with the headers of GET and no body', async () => {
    const res = await handlerFor()(new Request('http://x/keys', { method: 'HEAD', headers: bearer() }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body).toBeNull();
  });

  it('checks its options when created: a mistake or an unknown option is a TypeError', () => {
    const keyStore = new MemoryKeyStore();
    const authenticator = createAuthenticator({ keyStore });
    const keys = createKeyManager({ keyStore });
    expect(() => keysHandler(authenticator, keys, { bodyLimit: 0 })).toThrow(TypeError);
    expect(() => keysHandler(authenticator, keys, { basePath: 'keys' })).toThrow(TypeError);
    expect(() => keysHandler(authenticator, keys, { basePath: '/keys/' })).toThrow(TypeError);
    expect(() => keysHandler(authenticator, keys, { limit: 1 } as never)).toThrow(TypeError);
    expect(() => keysHandler(authenticator, keys, { limit: 1 } as never)).toThrow(/limit/);
    expect(() => keysHandler(authenticator, {} as never)).toThrow(TypeError);
    expect(() => keysHandler({} as never, keys)).toThrow(TypeError);
  });
});
