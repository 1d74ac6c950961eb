import { createIdTokenVerifier, identityProviderFromEnv, type IdTokenVerifier } from '@drops/auth';
import { LocalIdentityProvider } from '@drops/auth/testing';

/** The ID token verifier from the environment, and a demo token when it is a local one. */
export interface IdentitySetup {
  readonly verifier: IdTokenVerifier;
  /** Set only for the local development provider: mints an ID token for the demo account. */
  readonly mintDemoToken?: () => string;
  close(): Promise<void>;
}

/**
 * `FIREBASE_PROJECT_ID`, or `AUTH_ISSUER` + `AUTH_AUDIENCE` + `AUTH_JWKS_URL`; with neither, a
 * local identity provider on 127.0.0.1 so the demo works offline (refused in production).
 */
export async function identitySetupFromEnv(env = process.env): Promise<IdentitySetup> {
  const settings = identityProviderFromEnv(env);
  if (settings !== null) return { verifier: createIdTokenVerifier(settings), close: async () => {} };
  if (env.NODE_ENV === 'production') {
    throw new Error('set FIREBASE_PROJECT_ID, or AUTH_ISSUER, AUTH_AUDIENCE and AUTH_JWKS_URL');
  }
  const idp = await LocalIdentityProvider.start();
  return {
    verifier: createIdTokenVerifier(idp.verifierOptions),
    mintDemoToken: () => idp.mintIdToken({ sub: 'demo-account', email: 'demo@example.com' }),
    close: () => idp.close(),
  };
}
