import { createIdTokenVerifier, firebase, type IdTokenVerifier } from '@drops/auth';
import type { IdentityConfig } from '../config.js';
import { DevIdentityProvider } from './dev-identity-provider.js';

/** The ID token verifier, and the development provider when that is what runs. */
export interface Identity {
  readonly verifier: IdTokenVerifier;
  readonly dev: DevIdentityProvider | null;
}

/** Builds the configured identity provider's verifier (Firebase, any RS256 provider, or dev). */
export function createIdentity(config: IdentityConfig): Identity {
  switch (config.kind) {
    case 'firebase':
      return { verifier: createIdTokenVerifier({ ...firebase({ projectId: config.projectId }) }), dev: null };
    case 'oidc':
      return {
        verifier: createIdTokenVerifier({ issuer: config.issuer, audience: config.audience, jwksUrl: config.jwksUrl }),
        dev: null,
      };
    case 'dev': {
      const dev = new DevIdentityProvider();
      return { verifier: dev.createVerifier(), dev };
    }
  }
}
