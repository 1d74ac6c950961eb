import {
  createAuthenticator,
  createIdTokenVerifier,
  createGitHubSecretScanning,
  createKeyManager,
  leakedKeysHandler,
  MemoryKeyStore,
  withAuth,
  type Authenticator,
  type Principal,
} from '@drops/auth';
import { verifyJwsTestVectors, type JwsTestVectorFile } from '@drops/auth/internal';

/** Where the app's identity providers are: one that answers, one whose key set is down. */
export interface ConformanceEnv {
  readonly ISSUER: string;
  readonly AUDIENCE: string;
  readonly JWKS_URL: string;
  readonly DOWN_JWKS_URL: string;
  /** GitHub's secret scanning key list, as `LocalSecretScanningKeys` serves it. */
  readonly SECRET_SCANNING_KEYS_URL: string;
}

/**
 * The small app every runtime serves for the conformance checks, written against Web APIs only
 * (`Request`, `Response`, `fetch`, Web Crypto):
 *
 * - `POST /keys` (ID token): mints a key with the core's key manager into a `MemoryKeyStore`;
 * - `GET /whoami` (API key or ID token): the principal;
 * - `GET /down/whoami`: the same, with an identity provider whose key set cannot be fetched;
 * - `POST /secret-scanning/github`: GitHub's signed alerts (ECDSA P-256 on Web Crypto), which
 *   revoke the keys they name;
 * - `POST /jws-test-vectors`: `{ alg, file }`, a Wycheproof file run through the runtime's JWS
 *   verification; answers `{ run, wrong }`.
 */
export function createConformanceApp(env: ConformanceEnv): (request: Request) => Promise<Response> {
  const keyStore = new MemoryKeyStore();
  const keys = createKeyManager({ keyStore });
  const authenticatorFor = (jwksUrl: string): Authenticator =>
    createAuthenticator({
      keyStore,
      idTokenVerifier: createIdTokenVerifier({ issuer: env.ISSUER, audience: env.AUDIENCE, jwksUrl }),
    });
  const whoami = (_request: Request, principal: Principal): Response =>
    Response.json({ accountId: principal.accountId, credential: principal.credential, keyId: principal.keyId ?? null });
  const routes: Record<string, (request: Request) => Promise<Response>> = {
    'POST /keys': withAuth(authenticatorFor(env.JWKS_URL), { accept: ['id_token'] }, async (request, principal) =>
      Response.json(await keys.mint(principal, await request.json()), { status: 201 }),
    ),
    'GET /whoami': withAuth(authenticatorFor(env.JWKS_URL), {}, whoami),
    'GET /down/whoami': withAuth(authenticatorFor(env.DOWN_JWKS_URL), {}, whoami),
    'POST /secret-scanning/github': leakedKeysHandler(keys, {
      githubSecretScanning: createGitHubSecretScanning({ keysUrl: env.SECRET_SCANNING_KEYS_URL }),
    }),
    'POST /jws-test-vectors': async (request) => {
      const { alg, file } = (await request.json()) as { alg: Parameters<typeof verifyJwsTestVectors>[1]; file: JwsTestVectorFile };
      return Response.json(await verifyJwsTestVectors(file, alg));
    },
  };
  return async (request) => {
    const route = routes[`${request.method} ${new URL(request.url).pathname}`];
    return route === undefined ? Response.json({ error: 'not found' }, { status: 404 }) : route(request);
  };
}
