// Runs the Cloudflare Worker module of docs/adapters.md on Node: the test calls its default
// export's `fetch(request, env)` as workerd does (see checkExports below), first with no
// identity provider in the variables, then with a local one.
import * as check from 'node:assert/strict';
import type { IdentityProviderEnv as WorkerEnv } from '@drops/auth';
// The app of the Hono section, with keys in a MemoryKeyStore: examples/hono-app's own.
import { createService } from '../../examples/hono-app/src/create-service.js';
import { expectTheKeysRoutes, localIdentityProvider } from '../harness/support.js';

// <<example>>

/** Called by docs/runnable-examples.test.ts with this module once it has loaded. */
export async function checkExports(module: {
  default: { fetch(request: Request, env: WorkerEnv): Response | Promise<Response> };
}): Promise<void> {
  const worker = module.default;
  const unconfigured = await worker.fetch(new Request('https://drops.example/keys'), {});
  check.equal(unconfigured.status, 503);
  check.match(((await unconfigured.json()) as { error: string }).error, /AUTH_JWKS_URL/);

  const idp = await localIdentityProvider();
  const env = { AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience, AUTH_JWKS_URL: idp.jwksUrl };
  await expectTheKeysRoutes(
    async (path, init) => worker.fetch(new Request(`https://drops.example${path}`, init), env),
    idp.mintIdToken({ sub: 'acct-keys' }),
  );
}
