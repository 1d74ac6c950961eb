// Next.js App Router route handlers, without Next: the type Next 15 and 16 check an exported
// `GET`/`POST`/… against (`(request, context: { params: Promise<…> }) => Response | Promise<Response>`),
// and what the handlers do with that second argument at run time. `tsc` over this file is the type
// test: each assignment below is what `export { handler as GET }` asks of `next build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from '../keys/create-key-manager.js';
import { LocalIdentityProvider } from '../testing/local-identity-provider.js';
import { snapshotOf, UNIFORM_401 } from '../testing/uniform-401.js';
import { keysHandler } from './keys-handler.js';
import { leakedKeysHandler } from './leaked-keys-handler.js';
import { withAuth } from './with-auth.js';

/** Next's `NextRequest` is a `Request` subclass; its route context for `app/keys/[[...rest]]/route.ts`. */
type NextRouteContext = { params: Promise<{ rest?: string[] }> };
/** The shape `next build` checks an exported route handler against (Next 15 and 16). */
type NextRouteHandler = (request: Request, context: NextRouteContext) => Response | Promise<Response>;
/**
 * Next 15's own build check of an exported handler's second parameter (its next-types-plugin,
 * verbatim): the declared type must be assignable to the route context; `unknown` counts as `any`.
 * Next 16 checks the other way round (the handler assignable to its signature), as above.
 */
// biome-ignore-start lint/complexity/noBannedTypes: Next's own check, verbatim.
// biome-ignore-start lint/suspicious/noExplicitAny: Next's own check, verbatim.
type Next15SecondArg<T extends Function> = T extends (...args: [any, infer A]) => any ? (unknown extends A ? any : A) : never;
type PassesNext15Check<H extends Function> = Next15SecondArg<H> extends NextRouteContext ? true : false;
// biome-ignore-end lint/suspicious/noExplicitAny: -
// biome-ignore-end lint/complexity/noBannedTypes: -

/** A route without dynamic segments: Next 15 passes `{ params: Promise<{}> }`. */
type NextStaticRouteHandler = (request: Request, context: { params: Promise<Record<string, never>> }) => Response | Promise<Response>;

let idp: LocalIdentityProvider;
beforeAll(async () => {
  idp = await LocalIdentityProvider.start();
});
afterAll(async () => {
  await idp?.close();
});

function app(options?: Parameters<typeof keysHandler>[2]) {
  const keyStore = new MemoryKeyStore();
  const authenticator = createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) });
  const keys = createKeyManager({ keyStore });
  return { keyStore, authenticator, keys, handler: keysHandler(authenticator, keys, options) };
}

const context: NextRouteContext = { params: Promise.resolve({ rest: ['events'] }) };

describe('fetch handlers as Next.js App Router route handlers', () => {
  it("export as GET, POST, … in TypeScript: the second argument is typed to take Next's route context", () => {
    const { authenticator, keys, handler } = app();
    const GET: NextRouteHandler = handler;
    const POST: NextStaticRouteHandler = handler;
    const revoke: NextStaticRouteHandler = leakedKeysHandler(keys);
    const whoami: NextStaticRouteHandler = withAuth(authenticator, {}, (_request, principal) =>
      Response.json({ accountId: principal.accountId }),
    );
    const withParams: NextRouteHandler = withAuth(authenticator, {}, async (_request, principal, ctx: NextRouteContext) =>
      Response.json({ accountId: principal.accountId, rest: (await ctx.params).rest ?? [] }),
    );
    for (const exported of [GET, POST, revoke, whoami, withParams]) expect(typeof exported).toBe('function');
  });

  it("pass the check `next build` runs on Next 15 (the second parameter's declared type against the route context)", () => {
    // A type error here is `next build` failing on Next 15 ("… is not a valid type for the function's second argument").
    const keysPasses: PassesNext15Check<ReturnType<typeof keysHandler>> = true;
    const leakedPasses: PassesNext15Check<ReturnType<typeof leakedKeysHandler>> = true;
    const whoamiPasses: PassesNext15Check<ReturnType<typeof withAuth<[]>>> = true;
    expect([keysPasses, leakedPasses, whoamiPasses]).toEqual([true, true, true]);
  });

  it("never takes Next's route context for client info: a mint records no address unless requestInfo says where it is", async () => {
    const plain = app();
    const token = { authorization: `Bearer ${idp.mintIdToken({ sub: 'next-1' })}`, 'user-agent': 'next-test', 'x-real-ip': '203.0.113.9' };
    expect((await plain.handler(new Request('http://localhost/keys', { method: 'POST', headers: token }), context)).status).toBe(201);
    const [minted] = (await plain.keyStore.listEvents('next-1', { limit: 1 })).events;
    expect([minted?.type, minted?.ip, minted?.userAgent]).toEqual(['minted', null, 'next-test']);

    const configured = app({
      requestInfo: (request) => ({ ip: request.headers.get('x-real-ip'), userAgent: request.headers.get('user-agent') }),
    });
    expect((await configured.handler(new Request('http://localhost/keys', { method: 'POST', headers: token }), context)).status).toBe(201);
    const [trusted] = (await configured.keyStore.listEvents('next-1', { limit: 1 })).events;
    expect([trusted?.ip, trusted?.userAgent]).toEqual(['203.0.113.9', 'next-test']);
  });

  it("answers every method under the keys path without a credential with the uniform 401, Next's context given", async () => {
    const { handler } = app();
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      for (const path of ['/keys', '/keys/events', `/keys/${'a'.repeat(64)}`, '/keys/a/b']) {
        const res = await handler(new Request(`http://localhost${path}`, { method }), context);
        if (method === 'HEAD') expect(res.status, `${method} ${path}`).toBe(401);
        else expect(await snapshotOf(res), `${method} ${path}`).toEqual(UNIFORM_401);
      }
    }
  });

  it('refuses a requestInfo that is not a function when created', () => {
    expect(() => app({ requestInfo: 'x-real-ip' as never })).toThrow(TypeError);
  });
});
