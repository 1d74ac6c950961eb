import { UnavailableError } from '../errors/unavailable-error.js';

/** What a verifier tells its `onWarning` about its identity provider. @internal */
export interface ProviderWarning {
  /** A verification failed: an `UnavailableError` says why, once per distinct cause. */
  failed(error: unknown): void;
  /** A verification succeeded: after a warning, says so once. */
  recovered(): void;
}

/**
 * Says once, at warn, why an identity provider cannot be used (a discovery document naming another
 * issuer, a key set that does not load, an outage), instead of a 503 on every request with the
 * cause only in `err.cause`; and once when it can be used again. The words are the cause's,
 * about the provider's documents: never a token.
 * @internal
 */
export function providerWarning(issuer: string, warn: (message: string) => void): ProviderWarning {
  let said: string | undefined;
  return {
    failed(error) {
      if (!(error instanceof UnavailableError)) return;
      const cause = error.cause instanceof Error ? error.cause.message : 'it did not answer';
      if (said === cause) return;
      said = cause;
      warn(`drops-auth: identity provider ${issuer} unusable, ID tokens answer 503: ${cause}`);
    },
    recovered() {
      if (said === undefined) return;
      said = undefined;
      warn(`drops-auth: identity provider ${issuer} usable again`);
    },
  };
}
