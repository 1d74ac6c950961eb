import { createIdTokenVerifier, firebase, type IdTokenVerifier, type ResolveAccount } from '@drops/auth';
import type { IdentityConfig } from '../config.js';
import { ENV } from '../settings.js';
import { devIdentityAllowed, devIdentityRefusal } from './dev-identity-allowed.js';
import { DevIdentityProvider } from '@drops/auth/testing';
import { resolveDevAccount, resolveRealAccount } from './issuer-accounts.js';

/** The ID token verifier, and the development provider when that is what runs. */
export interface Identity {
  readonly verifier: IdTokenVerifier;
  /** The account of a verified token: bound to its issuer (issuer-accounts.ts). */
  readonly resolveAccount: ResolveAccount;
  readonly dev: DevIdentityProvider | null;
}

/** How {@link createIdentity} runs; each has the process's own default. */
export interface IdentityOptions {
  /** The `NODE_ENV` the development provider is allowed under (default: the process environment's). */
  readonly nodeEnv?: string | undefined;
  readonly clock?: () => number;
  /** Where a real provider's warnings go (default: the verifier's, `console.warn`). */
  readonly onWarning?: (message: string) => void;
}

/**
 * Builds the configured identity provider's verifier (Firebase, any RS256 provider, or dev). The
 * development provider is refused here too, from the process's own `nodeEnv` setting (defaults to
 * the process environment's), for a {@link IdentityConfig} built by hand rather than by `loadConfig`.
 * The development provider issues and checks its tokens on `clock`, the server's (a test moves it
 * to age a sign-in); a real provider's tokens are checked on real time, and what goes wrong with
 * the provider itself (a discovery or key set that does not match) goes to `onWarning`, once.
 */
export function createIdentity(config: IdentityConfig, options: IdentityOptions = {}): Identity {
  const { nodeEnv = process.env[ENV.nodeEnv], clock = Date.now, onWarning } = options;
  const warnings = onWarning === undefined ? {} : { onWarning };
  switch (config.kind) {
    case 'firebase':
      return {
        verifier: createIdTokenVerifier({ ...firebase({ projectId: config.projectId }), ...warnings }),
        resolveAccount: resolveRealAccount,
        dev: null,
      };
    case 'oidc':
      return {
        verifier: createIdTokenVerifier({ issuer: config.issuer, audience: config.audience, jwksUrl: config.jwksUrl, ...warnings }),
        resolveAccount: resolveRealAccount,
        dev: null,
      };
    case 'dev': {
      if (!devIdentityAllowed(nodeEnv)) throw new Error(devIdentityRefusal(nodeEnv));
      const dev = new DevIdentityProvider({ nodeEnv, clock });
      return { verifier: dev.verifier, resolveAccount: resolveDevAccount, dev };
    }
  }
}
