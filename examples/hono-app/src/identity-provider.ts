import { createIdTokenVerifier, identityProviderFromEnv, type IdTokenVerifier } from '@drops/auth';
import { LocalIdentityProvider } from '@drops/auth/testing';

/** The ID token verifier from the environment, and a demo token when it is a local one. */
export interface IdentitySetup {
  readonly verifier: IdTokenVerifier;
  /** Prints where the app listens and, for the local development provider, a demo ID token. */
  announce(base: string): void;
  close(): Promise<void>;
}

/**
 * `FIREBASE_PROJECT_ID`, or `AUTH_ISSUER` + `AUTH_AUDIENCE` + `AUTH_JWKS_URL`; with neither, a
 * local identity provider on 127.0.0.1 so the demo works offline (refused in production). For
 * Node, Bun and Deno (the local provider listens with `node:http`); worker.ts has its own.
 */
export async function identitySetupFromEnv(env = process.env): Promise<IdentitySetup> {
  const listening = (base: string): void => console.log(`hono-app listening on ${base}`);
  const settings = identityProviderFromEnv(env);
  if (settings !== null) {
    return { verifier: createIdTokenVerifier(settings), announce: listening, close: async () => {} };
  }
  if (env.NODE_ENV === 'production') {
    throw new Error('set FIREBASE_PROJECT_ID, or AUTH_ISSUER, AUTH_AUDIENCE and AUTH_JWKS_URL');
  }
  const idp = await LocalIdentityProvider.start();
  return {
    verifier: createIdTokenVerifier(idp.verifierOptions),
    announce(base) {
      listening(base);
      console.log(`\nlocal identity provider: an ID token for "demo-account" (valid one hour):\n`);
      console.log(`export ID_TOKEN=${idp.mintIdToken({ sub: 'demo-account', email: 'demo@example.com' })}\n`);
      console.log(`curl -s -X POST ${base}/keys -H "Authorization: Bearer $ID_TOKEN" -d '{"name":"laptop"}'`);
    },
    close: () => idp.close(),
  };
}
