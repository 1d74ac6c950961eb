// Cloudflare Workers (workerd), without `nodejs_compat`: `npx wrangler dev` in this folder.
// The identity provider comes from the Worker's variables (wrangler.toml `[vars]`, or
// `--var`): FIREBASE_PROJECT_ID, or AUTH_ISSUER, AUTH_AUDIENCE and AUTH_JWKS_URL. A Worker cannot
// start a local identity provider, so one must be configured. Keys live in memory, per isolate:
// use a KeyStore over a fetch-capable database for anything real (docs/adapters.md).
import { createIdTokenVerifier, identityProviderFromEnv, type IdentityProviderEnv } from '@drops/auth';
import type { Hono } from 'hono';
import { createService } from './create-service.js';

// #region hono-worker
let app: Hono | undefined;

export default {
  fetch(request: Request, env: IdentityProviderEnv): Response | Promise<Response> {
    if (app === undefined) {
      const settings = identityProviderFromEnv(env);
      if (settings === null) {
        return Response.json({ error: 'set FIREBASE_PROJECT_ID, or AUTH_ISSUER, AUTH_AUDIENCE and AUTH_JWKS_URL' }, { status: 503 });
      }
      app = createService(createIdTokenVerifier(settings), (c) => c.req.header('cf-connecting-ip'));
    }
    return app.fetch(request);
  },
};
// #endregion
